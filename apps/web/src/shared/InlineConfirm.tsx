import { useEffect, useRef } from 'react';
import { closeOnEscape } from './disclosure';

/**
 * The question a destructive action asks first, in place of its button: the action (in danger
 * colours) and a way back. `label` names the group for screen readers ("Delete report.pdf?").
 * It takes the focus on its way back (Enter never destroys by accident) and Escape answers it with
 * that way back; the opener's `useDisclosure` gives the focus back (docs/web-app.md#inline-forms).
 * `also` adds other ways to go ahead after the first ("Move to Visa •••• 4242 and delete").
 */
export function InlineConfirm({
  label,
  question,
  action,
  keep = 'Keep',
  busy = false,
  also = [],
  onConfirm,
  onCancel,
}: {
  label: string;
  question: string;
  action: string;
  keep?: string;
  busy?: boolean;
  also?: ReadonlyArray<{ action: string; onConfirm: () => void }>;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const back = useRef<HTMLButtonElement>(null);
  useEffect(() => back.current?.focus(), []);
  return (
    <span className="file-actions inline-confirm" role="group" aria-label={label} onKeyDown={(event) => closeOnEscape(event, onCancel)}>
      <span>{question}</span>
      <button type="button" className="button button-small button-danger" disabled={busy} onClick={onConfirm}>
        {action}
      </button>
      {also.map((other) => (
        <button key={other.action} type="button" className="button button-small button-danger" disabled={busy} onClick={other.onConfirm}>
          {other.action}
        </button>
      ))}
      <button type="button" className="button button-small button-ghost" ref={back} data-autofocus onClick={onCancel}>
        {keep}
      </button>
    </span>
  );
}
