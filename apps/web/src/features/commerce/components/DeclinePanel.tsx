import { ApiError, errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';

/** As DECLINE_REASON_MAX: the longest reason a payer gives. */
export const REASON_MAX = 500;

/**
 * The payer declines a request: why (optional, plain text, shown to the seller), then Decline or
 * Back. A refusal about the reason shows under the field; any other under the buttons.
 */
export function DeclinePanel({
  reason,
  onReason,
  error,
  busy,
  onConfirm,
  onCancel,
}: {
  reason: string;
  onReason: (reason: string) => void;
  error: unknown;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const tooLong = reason.trim().length > REASON_MAX;
  const aboutReason = error instanceof ApiError && (error.detail ?? '').startsWith('reason ');
  const fieldText = tooLong
    ? `Keep the reason to ${REASON_MAX} characters (now ${reason.trim().length}).`
    : aboutReason
      ? `The reason ${(error as ApiError).detail!.slice('reason '.length)}.`
      : '';
  return (
    <div className="decline-panel" role="group" aria-label="Decline this request">
      <label htmlFor="decline-reason">Why are you declining? (optional, the seller sees it)</label>
      <textarea
        id="decline-reason"
        rows={3}
        value={reason}
        onChange={(e) => onReason(e.target.value)}
        aria-invalid={Boolean(fieldText)}
        aria-describedby={fieldText ? 'decline-reason-error' : undefined}
      />
      {fieldText ? (
        <span className="field-error" id="decline-reason-error">
          {fieldText}
        </span>
      ) : null}
      <FormError message={error && !aboutReason ? errorText(error) : ''} />
      <div className="actions">
        <button type="button" className="button button-danger" disabled={busy || tooLong} onClick={onConfirm}>
          Decline the request
        </button>
        <button type="button" className="button button-ghost" onClick={onCancel}>
          Back
        </button>
      </div>
    </div>
  );
}
