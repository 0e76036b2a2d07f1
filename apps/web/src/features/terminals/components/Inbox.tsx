import { formatLongDate, type TerminalView } from '@tinkerdesk/contracts/web';
import { useState } from 'react';
import { errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { Pager } from '../../../shared/Pager';
import { session as sessionStore, useSession } from '../../../shared/session/session';
import { useDeleteShare, useInbox } from '../hooks/queries';
import { isLink } from './share-text';

const PAGE = 10;

/**
 * A terminal's inbox, a page at a time: open a share, copy it, delete it. Each share shows what was
 * sent (a link's address too, not only its description) and where from (the sending terminal, or the
 * account page). It opens in its terminal's row, inside an InlinePanel (TerminalsSection's disclosure
 * moves the focus to its heading; Close or Escape gives it back to the row's Inbox button).
 */
export function Inbox({ terminal, terminals = [], onClose }: { terminal: TerminalView; terminals?: TerminalView[]; onClose: () => void }) {
  const { profile } = useSession();
  const senderOf = (id: string | null) =>
    id === null ? 'from your account page' : `from ${terminals.find((t) => t.id === id)?.label ?? 'a removed terminal'}`;
  const [offset, setOffset] = useState(0);
  const inbox = useInbox(terminal.id, offset, PAGE, terminal.inbox);
  const removal = useDeleteShare(terminal.id);
  const list = inbox.data ?? null;
  // The clipboard's refusal is not a request.
  const [refusal, setRefusal] = useState('');
  const failure = removal.error ?? inbox.error;
  const error = refusal || (failure ? errorText(failure) : '');

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      sessionStore.notify({ tag: 'share-copied', type: 'success', content: 'Copied.', timeout: 2500 });
    } catch {
      setRefusal('The browser did not allow copying: select the text instead.');
    }
  }

  function remove(id: string) {
    setRefusal('');
    removal.mutate(id);
  }

  return (
    <div className="inbox" role="region" aria-label={`Inbox of ${terminal.label}`}>
      <div className="section-head">
        <h3 tabIndex={-1}>Inbox of {terminal.label}</h3>
        <button type="button" className="button button-small button-ghost" onClick={onClose}>
          Close
        </button>
      </div>
      <FormError message={error} />
      {list === null ? (
        error ? null : (
          <p role="status">Loading…</p>
        )
      ) : list.shares.length === 0 ? (
        <p className="empty-state-text">
          Nothing here yet. Send a link or a note from another terminal, or from “Send to a terminal” below.
        </p>
      ) : (
        <ul className="file-list" aria-label="Shares">
          {list.shares.map((s) => (
            <li key={s.id} className="file-row">
              <span className="file-name">
                {s.contentType === 'text/x-uri' && isLink(s.content) ? (
                  <>
                    <a href={s.content} target="_blank" rel="noopener noreferrer">
                      {s.description || s.content}
                    </a>
                    {s.description ? <small className="share-url">{s.content}</small> : null}
                  </>
                ) : (
                  <strong className="share-text">{s.content}</strong>
                )}
                <small>
                  {s.description && s.contentType === 'text/plain' ? `${s.description} · ` : ''}
                  {senderOf(s.fromTerminalId)} · {formatLongDate(s.created, profile?.tz)}
                </small>
              </span>
              <span className="actions">
                <button
                  type="button"
                  className="button button-small"
                  aria-label={`Copy ${s.description || s.content}`}
                  onClick={() => void copy(s.content)}
                >
                  Copy
                </button>
                <button
                  type="button"
                  className="button button-small button-ghost"
                  aria-label={`Delete ${s.description || s.content}`}
                  onClick={() => remove(s.id)}
                >
                  Delete
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {list ? <Pager offset={offset} total={list.total} pageSize={PAGE} onMove={setOffset} label="Inbox" /> : null}
    </div>
  );
}
