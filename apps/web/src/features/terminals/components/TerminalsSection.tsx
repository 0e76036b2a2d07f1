import { formatLongDate, type ShareContentType, type TerminalView } from '@tinkerdesk/contracts/web';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ApiError, errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { Pager } from '../../../shared/Pager';
import { session as sessionStore, useSession } from '../../../shared/session/session';
import { SHARE_ARRIVED_EVENT } from '../hooks/useTerminalMessages';
import { listTerminals, registerTerminal, removeTerminal, shareTo, updateTerminal } from '../api';
import { useDeleteShare, useInbox } from '../hooks/queries';
import {
  capabilities,
  defaultLabel,
  forgetTerminal,
  localTerminal,
  platformOf,
  PushError,
  pushSubscribed,
  rememberTerminal,
  subscribePush,
  unsubscribePush,
  type LocalTerminal,
} from '../this-browser';

const PAGE = 10;
/** The routes inside /account's hash (docs/web-app.md#routes): a terminal's inbox, and the share success page. */
const HASH_ROUTE = /^#\/terminals\/([0-9a-f-]{36})\/(inbox|share\/success)$/;

/** The text shown for a failed registration (docs/web-app.md#forms-and-error-texts): the server's detail, or a fixed text. */
function registrationError(error: unknown): string {
  if (error instanceof ApiError) return error.detail ? errorText(error) : 'error registering terminal';
  return 'error registering terminal';
}

/**
 * /account#terminals: this browser as a terminal (register, name, push on or off, where its shares
 * go), the account's other terminals, each one's inbox (open, copy, delete), sending to a terminal,
 * and the share success route (/account/#/terminals/{id}/share/success).
 */
export function TerminalsSection() {
  const { token, platform } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const [terminals, setTerminals] = useState<TerminalView[] | null>(null);
  const [local, setLocal] = useState<LocalTerminal | null | undefined>(undefined);
  const [pushOn, setPushOn] = useState(false);
  const [error, setError] = useState('');
  const [chosenInbox, setInboxOf] = useState<string | null | undefined>(undefined);
  const route = HASH_ROUTE.exec(location.hash);
  // /account/#/terminals/{id}/inbox opens that inbox until another is chosen.
  const inboxOf = chosenInbox !== undefined ? chosenInbox : route?.[2] === 'inbox' ? route[1]! : null;

  const load = useCallback(
    (): Promise<void> =>
      Promise.all([listTerminals(), localTerminal()]).then(
        async ([list, mine]) => {
          // A stored terminal that was removed (here or elsewhere) is forgotten.
          const known = mine && list.terminals.some((t) => t.id === mine.terminalId) ? mine : null;
          if (mine && !known) await forgetTerminal();
          setTerminals(list.terminals);
          setLocal(known);
          const stored = Boolean(known && list.terminals.find((t) => t.id === known.terminalId)?.subscribed);
          // The browser's own subscription is read after (its service worker may still be installing).
          setPushOn(stored && (await pushSubscribed()));
        },
        (failure: unknown) => setError(errorText(failure)),
      ),
    [],
  );

  useEffect(() => {
    void load();
    // A share that arrives while the page is open shows at once.
    const refresh = () => void load();
    window.addEventListener(SHARE_ARRIVED_EVENT, refresh);
    return () => window.removeEventListener(SHARE_ARRIVED_EVENT, refresh);
  }, [load, token]);

  const routed = route ? `${route[1]}/${route[2]}` : null;
  useEffect(() => {
    if (routed) document.getElementById('terminals')?.scrollIntoView({ block: 'start' });
  }, [routed]);

  const mine = local ? terminals?.find((t) => t.id === local.terminalId) : undefined;
  const others = (terminals ?? []).filter((t) => t.id !== mine?.id);

  return (
    <section className="card account-card terminals" id="terminals" aria-labelledby="terminals-heading">
      <h2 id="terminals-heading">Terminals</h2>
      <p className="muted">Your browsers send links and notes to each other; a terminal that receives gets a push notification.</p>
      {route?.[2] === 'share/success' ? (
        <ShareSuccess terminals={terminals} terminalId={route[1]!} onClose={() => void navigate('/account')} />
      ) : null}
      <FormError message={error} />
      {terminals === null || local === undefined ? (
        error ? null : (
          <p role="status">Loading…</p>
        )
      ) : (
        <>
          <ThisBrowser
            key={mine?.id ?? 'none'}
            terminal={mine}
            local={local}
            others={others}
            pushOn={pushOn}
            mobile={platform.mobile}
            onChange={() => void load()}
            onLocal={setLocal}
            onPush={setPushOn}
          />
          <TerminalList terminals={terminals} mine={mine?.id ?? null} inboxOf={inboxOf} onInbox={setInboxOf} onChange={() => void load()} />
          {terminals.length > 0 ? <SendForm terminals={terminals} onSent={() => void load()} /> : null}
          {inboxOf && terminals.some((t) => t.id === inboxOf) ? (
            <Inbox terminal={terminals.find((t) => t.id === inboxOf)!} onClose={() => setInboxOf(null)} onChange={() => void load()} />
          ) : null}
        </>
      )}
    </section>
  );
}

function ShareSuccess({ terminals, terminalId, onClose }: { terminals: TerminalView[] | null; terminalId: string; onClose: () => void }) {
  const from = terminals?.find((t) => t.id === terminalId);
  const to = from?.destination ? terminals?.find((t) => t.id === from.destination) : from;
  return (
    <div className="notice notice-success" role="status">
      <p>
        <strong>Shared.</strong> {to ? `It is in the inbox of ${to.label}.` : 'It was sent.'}
      </p>
      <button type="button" className="button button-small" onClick={onClose}>
        Done
      </button>
    </div>
  );
}

function ThisBrowser(props: {
  terminal: TerminalView | undefined;
  local: LocalTerminal | null;
  others: TerminalView[];
  pushOn: boolean;
  mobile: boolean;
  onChange: () => void;
  onLocal: (local: LocalTerminal | null) => void;
  onPush: (on: boolean) => void;
}) {
  const [label, setLabel] = useState(props.terminal?.label ?? defaultLabel());
  const [send, setSend] = useState(true);
  const [receive, setReceive] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function register(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      const answer = await registerTerminal({
        label,
        send,
        receive,
        active: true,
        details: { userAgent: navigator.userAgent.slice(0, 200) },
        platform: platformOf(props.mobile),
        capabilities: capabilities(),
        remote: false,
      });
      const stored = { terminalId: answer.terminal.id, terminalToken: answer.terminalToken };
      await rememberTerminal(stored);
      props.onLocal(stored);
      sessionStore.notify({
        tag: 'terminal',
        type: 'success',
        content: `This browser is registered as ${answer.terminal.label}.`,
        timeout: 6000,
      });
      props.onChange();
    } catch (failure) {
      setError(registrationError(failure));
    } finally {
      setBusy(false);
    }
  }

  async function act(work: () => Promise<unknown>) {
    setBusy(true);
    setError('');
    try {
      await work();
      props.onChange();
    } catch (failure) {
      setError(failure instanceof PushError ? failure.message : errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  if (!props.terminal || !props.local) {
    return (
      <form className="form form-flat terminal-register" onSubmit={(e) => void register(e)} aria-label="Register this browser">
        <h3>This browser</h3>
        <p className="muted">Not a terminal yet. Register it to receive links and notes from your other browsers.</p>
        <label htmlFor="terminal-label">What to call this browser</label>
        <input id="terminal-label" value={label} maxLength={80} onChange={(e) => setLabel(e.target.value)} required />
        <label className="checkbox">
          <input type="checkbox" checked={send} onChange={(e) => setSend(e.target.checked)} /> Sends shares
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={receive} onChange={(e) => setReceive(e.target.checked)} /> Receives shares
        </label>
        <FormError message={error} />
        <button type="submit" className="button button-primary align-start" disabled={busy || !label.trim()}>
          {busy ? 'Registering…' : 'Register this browser'}
        </button>
      </form>
    );
  }

  const terminal = props.terminal;
  const local = props.local;
  return (
    <div className="form form-flat terminal-this" aria-label="This browser" role="group">
      <h3>This browser: {terminal.label}</h3>
      <form
        className="rename-row"
        onSubmit={(e) => {
          e.preventDefault();
          void act(() => updateTerminal(terminal.id, { label }));
        }}
      >
        <label htmlFor="terminal-rename" className="visually-hidden">
          What to call this browser
        </label>
        <input id="terminal-rename" value={label} maxLength={80} onChange={(e) => setLabel(e.target.value)} />
        <button type="submit" className="button button-small" disabled={busy || !label.trim() || label === terminal.label}>
          Rename
        </button>
      </form>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={props.pushOn}
          disabled={busy}
          onChange={(e) => {
            const on = e.target.checked;
            void act(async () => {
              if (on) await subscribePush(local);
              else await unsubscribePush(local);
              props.onPush(on);
            });
          }}
        />{' '}
        Push notifications on this browser
      </label>
      <label htmlFor="terminal-destination">Shares from this device’s share sheet go to</label>
      <select
        id="terminal-destination"
        value={terminal.destination ?? ''}
        disabled={busy}
        onChange={(e) => void act(() => updateTerminal(terminal.id, { destination: e.target.value || null }))}
      >
        <option value="">This browser’s own inbox</option>
        {props.others.map((t) => (
          <option key={t.id} value={t.id}>
            {t.label}
          </option>
        ))}
      </select>
      <FormError message={error} />
      <button
        type="button"
        className="button button-ghost button-small align-start"
        disabled={busy}
        onClick={() =>
          void (async () => {
            const answer = await sessionStore.prompt({
              tag: 'forget-terminal',
              title: 'Remove this browser?',
              content: `${terminal.label} stops being a terminal: its inbox is deleted and nothing is pushed to it any more.`,
              buttons: [
                { title: 'Keep it', value: 'keep' },
                { title: 'Remove', value: 'remove', primary: true },
              ],
            });
            if (answer !== 'remove') return;
            await act(async () => {
              if (props.pushOn) await unsubscribePush(local).catch(() => undefined);
              await removeTerminal(terminal.id);
              await forgetTerminal();
              props.onLocal(null);
            });
          })()
        }
      >
        Remove this browser
      </button>
    </div>
  );
}

function TerminalList(props: {
  terminals: TerminalView[];
  mine: string | null;
  inboxOf: string | null;
  onInbox: (id: string | null) => void;
  onChange: () => void;
}) {
  const [error, setError] = useState('');
  if (props.terminals.length === 0)
    return <p className="empty-state-text">No terminals yet: register this browser above, then your others.</p>;
  async function remove(t: TerminalView) {
    const answer = await sessionStore.prompt({
      tag: 'remove-terminal',
      title: `Remove ${t.label}?`,
      content: 'Its inbox is deleted and its terminal token stops working.',
      buttons: [
        { title: 'Keep it', value: 'keep' },
        { title: 'Remove', value: 'remove', primary: true },
      ],
    });
    if (answer !== 'remove') return;
    try {
      await removeTerminal(t.id);
      props.onChange();
    } catch (failure) {
      setError(errorText(failure));
    }
  }
  return (
    <>
      <h3>Your terminals</h3>
      <FormError message={error} />
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
              <button
                type="button"
                className="button button-small"
                aria-expanded={props.inboxOf === t.id}
                aria-label={`Inbox of ${t.label}`}
                onClick={() => props.onInbox(props.inboxOf === t.id ? null : t.id)}
              >
                Inbox
              </button>
              <button
                type="button"
                className="button button-small"
                aria-label={`${t.active ? 'Switch off' : 'Switch on'} ${t.label}`}
                onClick={() =>
                  void updateTerminal(t.id, { active: !t.active }).then(props.onChange, (f: unknown) => setError(errorText(f)))
                }
              >
                {t.active ? 'Switch off' : 'Switch on'}
              </button>
              {t.id !== props.mine ? (
                <button
                  type="button"
                  className="button button-small button-ghost"
                  aria-label={`Remove ${t.label}`}
                  onClick={() => void remove(t)}
                >
                  Remove
                </button>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

const isLink = (text: string) => /^https?:\/\/\S+$/i.test(text.trim());

function SendForm({ terminals, onSent }: { terminals: TerminalView[]; onSent: () => void }) {
  const receivers = terminals.filter((t) => t.active && t.receive);
  const [chosen, setTarget] = useState('');
  // The chosen terminal while it can receive, else the first that can.
  const target = receivers.some((t) => t.id === chosen) ? chosen : (receivers[0]?.id ?? '');
  const [content, setContent] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  if (receivers.length === 0) return <p className="muted">None of your terminals receives shares at the moment.</p>;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!content.trim()) return setError('Write a link or a note to send.');
    setBusy(true);
    setError('');
    try {
      const contentType: ShareContentType = isLink(content) ? 'text/x-uri' : 'text/plain';
      const { share } = await shareTo(target, { contentType, content: content.trim(), description: description.trim() });
      const to = terminals.find((t) => t.id === share.terminalId)?.label ?? 'the terminal';
      sessionStore.notify({
        tag: 'share-sent',
        type: 'success',
        content: `Sent to ${to}${share.push === 'pending' ? ' and pushed' : ' (its inbox: push is off there)'}.`,
        timeout: 5000,
      });
      setContent('');
      setDescription('');
      onSent();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form form-flat" onSubmit={(e) => void submit(e)} noValidate aria-label="Send to a terminal">
      <h3>Send to a terminal</h3>
      <label htmlFor="share-target">To</label>
      <select id="share-target" value={target} onChange={(e) => setTarget(e.target.value)}>
        {receivers.map((t) => (
          <option key={t.id} value={t.id}>
            {t.label}
          </option>
        ))}
      </select>
      <label htmlFor="share-content">Link or note</label>
      <textarea id="share-content" rows={2} maxLength={8192} value={content} onChange={(e) => setContent(e.target.value)} />
      <label htmlFor="share-description">Description (optional)</label>
      <input id="share-description" maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
      <FormError message={error} />
      <button type="submit" className="button button-primary align-start" disabled={busy}>
        {busy ? 'Sending…' : 'Send'}
      </button>
    </form>
  );
}

function Inbox({ terminal, onClose, onChange }: { terminal: TerminalView; onClose: () => void; onChange: () => void }) {
  const { profile } = useSession();
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
    removal.mutate(id, { onSuccess: onChange });
  }

  return (
    <div className="inbox" role="region" aria-label={`Inbox of ${terminal.label}`}>
      <div className="section-head">
        <h3>Inbox of {terminal.label}</h3>
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
        <p className="empty-state-text">Nothing here yet. Send a link or a note from another terminal, or from the form above.</p>
      ) : (
        <ul className="file-list" aria-label="Shares">
          {list.shares.map((s) => (
            <li key={s.id} className="file-row">
              <span className="file-name">
                {s.contentType === 'text/x-uri' && isLink(s.content) ? (
                  <a href={s.content} target="_blank" rel="noopener noreferrer">
                    {s.description || s.content}
                  </a>
                ) : (
                  <strong className="share-text">{s.content}</strong>
                )}
                <small>
                  {s.description && s.contentType === 'text/plain' ? `${s.description} · ` : ''}
                  {formatLongDate(s.created, profile?.tz)}
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
