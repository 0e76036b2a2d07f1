import type { TerminalView } from '@tinkerdesk/contracts/web';
import { useState, type FormEvent } from 'react';
import { ApiError, errorText } from '../../../shared/api';
import { FieldError, focusField, FormError, refusalWords, refusedField } from '../../../shared/forms';
import { useDisclosure } from '../../../shared/disclosure';
import { InlineConfirm } from '../../../shared/InlineConfirm';
import { session as sessionStore } from '../../../shared/session/session';
import { removeTerminal, updateTerminal } from '../api';
import { useRegisterTerminal, useTerminalChange } from '../hooks/queries';
import {
  capabilities,
  defaultLabel,
  forgetTerminal,
  platformOf,
  PushError,
  pushErrorText,
  subscribePush,
  unsubscribePush,
  type LocalTerminal,
} from '../this-browser';

/** The text shown for a failed registration (docs/web-app.md#forms-and-error-texts): the server's detail, or a fixed text. */
function registrationError(error: unknown): string {
  if (error instanceof ApiError) return error.detail ? errorText(error) : 'error registering terminal';
  return 'error registering terminal';
}

/**
 * Set when this browser stops being a terminal from its "Remove this browser": the registration form
 * that takes its place (a new ThisBrowser, keyed by the terminal) gives the focus to its heading.
 */
let focusRegistration = false;
function takeFocusAfterRemoval(heading: HTMLHeadingElement | null): void {
  if (!heading || !focusRegistration) return;
  focusRegistration = false;
  heading.tabIndex = -1;
  heading.focus();
}

/** This browser as a terminal: the registration form, or its name, push, where its shares go, and its removal. */
export function ThisBrowser(props: {
  terminal: TerminalView | undefined;
  local: LocalTerminal | null;
  others: TerminalView[];
  pushOn: boolean;
  mobile: boolean;
}) {
  const [label, setLabel] = useState(props.terminal?.label ?? defaultLabel());
  const [send, setSend] = useState(true);
  const [receive, setReceive] = useState(true);
  const registration = useRegisterTerminal();
  const change = useTerminalChange();
  const busy = registration.isPending || change.isPending;
  // "Remove this browser" asks first (docs/web-app.md#inline-forms).
  const forgetting = useDisclosure();

  function register(event: FormEvent) {
    event.preventDefault();
    registration.mutate(
      {
        label,
        send,
        receive,
        active: true,
        details: { userAgent: navigator.userAgent.slice(0, 200) },
        platform: platformOf(props.mobile),
        capabilities: capabilities(),
        remote: false,
      },
      {
        // A refusal of the name goes under its field, which takes the focus.
        onError: (error) => focusField('terminal', refusedField(error, ['label'])),
        onSuccess: (answer) =>
          sessionStore.notify({
            tag: 'terminal',
            type: 'success',
            content: `This browser is registered as ${answer.terminal.label}.`,
            timeout: 6000,
          }),
      },
    );
  }

  const act = (work: () => Promise<unknown>) => change.mutate(work);

  if (!props.terminal || !props.local) {
    const labelRefused = refusedField(registration.error, ['label']) === 'label';
    const error = registration.error && !labelRefused ? registrationError(registration.error) : '';
    return (
      <form className="form form-flat terminal-register" onSubmit={register} aria-label="Register this browser">
        <h3 ref={takeFocusAfterRemoval}>This browser</h3>
        <p className="muted">Not a terminal yet. Register it to receive links and notes from your other browsers.</p>
        <label htmlFor="terminal-label">What to call this browser</label>
        <input
          id="terminal-label"
          value={label}
          maxLength={80}
          onChange={(e) => setLabel(e.target.value)}
          required
          aria-invalid={labelRefused}
          aria-describedby={labelRefused ? 'terminal-label-error' : undefined}
        />
        <FieldError
          id="terminal-label-error"
          name="Name"
          message={labelRefused ? refusalWords(registration.error, 'label', 'Name') : undefined}
        />
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
  const failure = change.error;
  const error = failure ? (failure instanceof PushError ? pushErrorText(failure) : errorText(failure)) : '';
  return (
    <div className="form form-flat terminal-this" aria-label="This browser" role="group">
      <h3>This browser: {terminal.label}</h3>
      <form
        className="rename-row"
        onSubmit={(e) => {
          e.preventDefault();
          act(() => updateTerminal(terminal.id, { label }));
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
            act(async () => {
              if (on) await subscribePush(local);
              else await unsubscribePush(local);
              return { pushOn: on, terminalId: local.terminalId };
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
        onChange={(e) => {
          // Read now: the mutation runs its work after the controlled select has gone back to the current value.
          const destination = e.target.value || null;
          act(() => updateTerminal(terminal.id, { destination }));
        }}
      >
        <option value="">This browser’s own inbox</option>
        {props.others.map((t) => (
          <option key={t.id} value={t.id}>
            {t.label}
          </option>
        ))}
      </select>
      <FormError message={error} />
      {forgetting.shown ? (
        <InlineConfirm
          label="Remove this browser?"
          question={`${terminal.label} stops being a terminal: its inbox is deleted and nothing is pushed to it any more. Remove it?`}
          action="Remove"
          keep="Keep it"
          busy={busy}
          onConfirm={() =>
            act(async () => {
              if (props.pushOn) await unsubscribePush(local).catch(() => undefined);
              await removeTerminal(terminal.id);
              await forgetTerminal();
              focusRegistration = true;
              return { local: null };
            })
          }
          onCancel={() => forgetting.close()}
        />
      ) : (
        <button type="button" className="button button-ghost button-small align-start" disabled={busy} {...forgetting.opener('open')}>
          Remove this browser
        </button>
      )}
    </div>
  );
}
