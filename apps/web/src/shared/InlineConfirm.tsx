/**
 * The question a destructive action asks first, in place of its button: the action (in danger
 * colours) and a way back. `label` names the group for screen readers ("Delete report.pdf?").
 */
export function InlineConfirm({
  label,
  question,
  action,
  keep = 'Keep',
  busy = false,
  onConfirm,
  onCancel,
}: {
  label: string;
  question: string;
  action: string;
  keep?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <span className="file-actions" role="group" aria-label={label}>
      <span>{question}</span>
      <button type="button" className="button button-small button-danger" disabled={busy} onClick={onConfirm}>
        {action}
      </button>
      <button type="button" className="button button-small button-ghost" onClick={onCancel}>
        {keep}
      </button>
    </span>
  );
}
