import {
  formatLongDate,
  OAUTH_AUTH_METHODS,
  OAUTH_SCOPE_NAMES,
  OAUTH_SCOPES,
  type OAuthAppCreated,
  type OAuthAppView,
  type OAuthAuthMethod,
  type OAuthConsentView,
  type OAuthScope,
} from '@tinkerdesk/contracts/web';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { InlineConfirm } from '../../../shared/InlineConfirm';
import { useSession } from '../../../shared/session/session';
import { CopyButton } from '../../../shared/ui/actions';
import { createApp, deleteApp, DISCOVERY_URL, listApps, listConsents, replaceSecret, withdrawConsent } from '../api';

const AUTH_METHOD_LABELS: Record<OAuthAuthMethod, string> = {
  client_secret_basic: 'Server app, secret in the Authorization header (client_secret_basic)',
  client_secret_post: 'Server app, secret in the form body (client_secret_post)',
  none: 'Browser or mobile app without a secret (PKCE only)',
};

/**
 * /account: the apps this user allowed (consents, withdrawable) and, for integrators, the apps they
 * registered (OAuth clients: the secret is shown once, right after registering).
 */
export function AppsSection() {
  const { token } = useSession();
  const [consents, setConsents] = useState<OAuthConsentView[] | undefined>();
  const [apps, setApps] = useState<OAuthAppView[] | undefined>();
  const [error, setError] = useState('');

  const reload = useCallback(
    (): Promise<void> =>
      Promise.all([listConsents(), listApps()]).then(
        ([c, a]) => {
          setConsents(c.consents);
          setApps(a.apps);
          setError('');
        },
        (failure: unknown) => setError(errorText(failure)),
      ),
    [],
  );

  useEffect(() => {
    void reload();
  }, [reload, token]);

  return (
    <section className="card account-card apps-section" id="apps" aria-labelledby="apps-heading">
      <h2 id="apps-heading">Apps and access</h2>
      <FormError message={error} />
      <h3>Apps you allowed</h3>
      {consents === undefined ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : consents.length === 0 ? (
        <p className="muted">You have not allowed any app to use your account.</p>
      ) : (
        <ul className="plain-list consent-list">
          {consents.map((c) => (
            <ConsentRow key={c.id} consent={c} onChange={reload} />
          ))}
        </ul>
      )}
      <h3>Your apps (for developers)</h3>
      <p className="muted">
        Register an app to call the /v1 API for other people with OAuth 2 (authorization code with PKCE). Endpoints:{' '}
        <a href={DISCOVERY_URL}>OpenID configuration</a>.
      </p>
      {apps && apps.length > 0 ? (
        <ul className="plain-list app-list">
          {apps.map((a) => (
            <AppRow key={a.id} app={a} onChange={reload} />
          ))}
        </ul>
      ) : apps ? (
        <p className="muted">No apps registered yet.</p>
      ) : null}
      <RegisterApp onCreated={reload} />
    </section>
  );
}

function ConsentRow({ consent, onChange }: { consent: OAuthConsentView; onChange: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  async function withdraw() {
    setBusy(true);
    try {
      await withdrawConsent(consent.id);
      await onChange();
    } catch (failure) {
      setError(errorText(failure));
      setBusy(false);
    }
  }
  return (
    <li className="consent-row">
      <div>
        <strong>{consent.appName}</strong>
        <span className="muted"> · since {formatLongDate(consent.created)}</span>
        <div className="muted">{consent.scopes.map((s) => OAUTH_SCOPES[s]).join('; ') || 'No scopes'}</div>
      </div>
      {asking ? (
        <InlineConfirm
          label={`Withdraw ${consent.appName}'s access?`}
          question="Withdraw its access now?"
          action="Withdraw"
          busy={busy}
          onConfirm={() => void withdraw()}
          onCancel={() => setAsking(false)}
        />
      ) : (
        <button type="button" className="button button-small" onClick={() => setAsking(true)}>
          Withdraw access
        </button>
      )}
      <FormError message={error} />
    </li>
  );
}

function AppRow({ app, onChange }: { app: OAuthAppView; onChange: () => Promise<void> }) {
  const [asking, setAsking] = useState<'delete' | 'secret' | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [renewed, setRenewed] = useState<OAuthAppCreated | undefined>();
  async function act(action: () => Promise<void>) {
    setBusy(true);
    setError('');
    try {
      await action();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
      setAsking(undefined);
    }
  }
  return (
    <li className="app-row">
      <div className="app-row-head">
        <strong>{app.name}</strong>
        {asking === 'delete' ? (
          <InlineConfirm
            label={`Delete ${app.name}?`}
            question="Delete it? Everyone's access through it ends."
            action="Delete"
            busy={busy}
            onConfirm={() =>
              void act(async () => {
                await deleteApp(app.id);
                await onChange();
              })
            }
            onCancel={() => setAsking(undefined)}
          />
        ) : asking === 'secret' ? (
          <InlineConfirm
            label={`Replace the secret of ${app.name}?`}
            question="Replace its secret? The old one stops working at once."
            action="Replace secret"
            busy={busy}
            onConfirm={() => void act(async () => setRenewed(await replaceSecret(app.id)))}
            onCancel={() => setAsking(undefined)}
          />
        ) : (
          <span className="app-row-actions">
            {app.tokenEndpointAuthMethod !== 'none' ? (
              <button type="button" className="button button-small" onClick={() => setAsking('secret')}>
                New secret
              </button>
            ) : null}
            <button type="button" className="button button-small button-ghost" onClick={() => setAsking('delete')}>
              Delete
            </button>
          </span>
        )}
      </div>
      {renewed ? <SecretNotice created={renewed} heading="has a new secret" onDone={() => setRenewed(undefined)} /> : null}
      <dl className="app-facts">
        <dt>Client ID</dt>
        <dd>
          <code>{app.id}</code> <CopyButton text={app.id} label="Copy ID" />
        </dd>
        <dt>Redirect URIs</dt>
        <dd>
          {app.redirectUris.map((u) => (
            <code key={u} className="app-uri">
              {u}
            </code>
          ))}
        </dd>
        <dt>Scopes</dt>
        <dd>{app.scopes.join(' ')}</dd>
        <dt>Token endpoint</dt>
        <dd>{app.tokenEndpointAuthMethod}</dd>
      </dl>
      <FormError message={error} />
    </li>
  );
}

/** An app's client id and secret right after they were made: the secret is shown this once. */
function SecretNotice({ created, heading, onDone }: { created: OAuthAppCreated; heading: string; onDone: () => void }) {
  return (
    <div className="notice notice-success app-created" role="status">
      <p>
        <strong>{created.app.name}</strong> {heading}.
      </p>
      <p>
        Client ID: <code>{created.app.id}</code> <CopyButton text={created.app.id} label="Copy ID" />
      </p>
      {created.clientSecret ? (
        <p>
          Client secret: <code className="app-secret">{created.clientSecret}</code>{' '}
          <CopyButton text={created.clientSecret} label="Copy secret" />
          <br />
          <strong>Copy the secret now: it is shown only once.</strong>
        </p>
      ) : (
        <p>A public app has no secret: it proves itself with PKCE.</p>
      )}
      <button type="button" className="button button-small" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

function RegisterApp({ onCreated }: { onCreated: () => Promise<void> }) {
  const [name, setName] = useState('');
  const [uris, setUris] = useState('');
  const [scopes, setScopes] = useState<OAuthScope[]>(['openid', 'profile']);
  const [method, setMethod] = useState<OAuthAuthMethod>('client_secret_basic');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [created, setCreated] = useState<OAuthAppCreated | undefined>();
  // The form opens on request: most people only ever allow apps, and its fields stay out of their way.
  const [open, setOpen] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      const redirectUris = uris
        .split(/\s+/)
        .map((u) => u.trim())
        .filter(Boolean);
      const answer = await createApp({ name, redirectUris, scopes, tokenEndpointAuthMethod: method });
      setCreated(answer);
      setName('');
      setUris('');
      setOpen(false);
      await onCreated();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      {created ? <SecretNotice created={created} heading="is registered" onDone={() => setCreated(undefined)} /> : null}
      {open ? (
        <form className="form form-flat" onSubmit={(e) => void submit(e)} aria-label="Register an app">
          <label htmlFor="app-name">What to call the app</label>
          <input id="app-name" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} required />
          <label htmlFor="app-uris">Redirect URIs (one per line)</label>
          <textarea
            id="app-uris"
            rows={2}
            value={uris}
            placeholder="https://app.example.com/callback"
            onChange={(e) => setUris(e.target.value)}
            required
          />
          <fieldset className="app-scopes">
            <legend>Scopes it may ask for</legend>
            {OAUTH_SCOPE_NAMES.map((s) => (
              <label key={s} className="checkbox">
                <input
                  type="checkbox"
                  checked={scopes.includes(s)}
                  onChange={(e) => setScopes((list) => (e.target.checked ? [...list, s] : list.filter((x) => x !== s)))}
                />
                <span>
                  <code>{s}</code> {OAUTH_SCOPES[s]}
                </span>
              </label>
            ))}
          </fieldset>
          <label htmlFor="app-method">Kind of app</label>
          <select id="app-method" value={method} onChange={(e) => setMethod(e.target.value as OAuthAuthMethod)}>
            {OAUTH_AUTH_METHODS.map((m) => (
              <option key={m} value={m}>
                {AUTH_METHOD_LABELS[m]}
              </option>
            ))}
          </select>
          <FormError message={error} />
          <button type="submit" className="button button-primary align-start" disabled={busy || !name.trim() || scopes.length === 0}>
            {busy ? 'Registering…' : 'Register app'}
          </button>
          <button type="button" className="button button-ghost align-start" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" className="button button-primary align-start" onClick={() => setOpen(true)}>
          Register an app
        </button>
      )}
    </>
  );
}
