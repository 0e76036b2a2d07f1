import type { TerminalView } from '@tinkerdesk/contracts/web';
import type { ReactNode } from 'react';
import { errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { afterRemoval, useDisclosure } from '../../../shared/disclosure';
import { InlineConfirm } from '../../../shared/InlineConfirm';
import { removeTerminal, updateTerminal } from '../api';
import { useTerminalChange } from '../hooks/queries';

/**
 * The account's terminals: what each does, its inbox (opened in its own row, where the user is looking),
 * switching it on or off, removing another one.
 */
export function TerminalList(props: {
  terminals: TerminalView[];
  mine: string | null;
  /** The Inbox button's attributes (TerminalsSection's disclosure: its id, aria-expanded, the click). */
  inboxOpener: (id: string) => { id: string; 'aria-expanded': boolean; 'aria-controls'?: string; onClick: () => void };
  /** The open inbox, drawn in its terminal's row. */
  inboxOf: string | null;
  inbox: ReactNode;
}) {
  const change = useTerminalChange();
  // The terminal whose Remove asks first (docs/web-app.md#inline-forms).
  const confirming = useDisclosure<string>();
  if (props.terminals.length === 0)
    return <p className="empty-state-text">No terminals yet: register this browser above, then your others.</p>;
  function remove(t: TerminalView) {
    const removable = props.terminals.filter((other) => other.id !== props.mine);
    const ids = removable.map((other) => confirming.openerId(other.id));
    const index = removable.findIndex((other) => other.id === t.id);
    // The list's heading, or the section's when the list goes with it.
    const heading = props.terminals.length > 1 ? 'terminal-list-heading' : 'terminals-heading';
    // Gone: the focus goes to the next terminal's Remove (else the one before, else the list's heading).
    change.mutate(() => removeTerminal(t.id), { onSuccess: () => confirming.close(afterRemoval(ids, index, heading)) });
  }
  return (
    <>
      <h3 id="terminal-list-heading">Your terminals</h3>
      <FormError message={change.error ? errorText(change.error) : ''} />
      <ul className="file-list" aria-label="Your terminals">
        {props.terminals.map((t) => (
          <li key={t.id} className="file-row">
            <span className="file-name">
              <strong>
                {t.label}
                {t.id === props.mine ? ' (this browser)' : ''}
              </strong>
              <small>
                {t.platform} ·{' '}
                {[t.send ? 'sends' : null, t.receive ? 'receives' : null].filter(Boolean).join(', ') || 'neither sends nor receives'}
                {t.active ? '' : ' · inactive'} · push {t.subscribed ? 'on' : 'off'} · {t.inbox === 1 ? '1 share' : `${t.inbox} shares`}
                {t.app ? ` · registered by the app ${t.app.name} (it goes if you withdraw the app's access)` : ''}
              </small>
            </span>
            <span className="actions">
              <button type="button" className="button button-small" aria-label={`Inbox of ${t.label}`} {...props.inboxOpener(t.id)}>
                Inbox
              </button>
              <button
                type="button"
                className="button button-small"
                aria-label={`${t.active ? 'Switch off' : 'Switch on'} ${t.label}`}
                onClick={() => change.mutate(() => updateTerminal(t.id, { active: !t.active }))}
              >
                {t.active ? 'Switch off' : 'Switch on'}
              </button>
              {t.id === props.mine ? null : confirming.shown === t.id ? (
                <InlineConfirm
                  label={`Remove ${t.label}?`}
                  question="Its inbox is deleted and its terminal token stops working. Remove it?"
                  action="Remove"
                  keep="Keep it"
                  busy={change.isPending}
                  onConfirm={() => remove(t)}
                  onCancel={() => confirming.close()}
                />
              ) : (
                <button
                  type="button"
                  className="button button-small button-ghost"
                  {...confirming.opener(t.id)}
                  aria-label={`Remove ${t.label}`}
                >
                  Remove
                </button>
              )}
            </span>
            {props.inboxOf === t.id ? props.inbox : null}
          </li>
        ))}
      </ul>
    </>
  );
}
