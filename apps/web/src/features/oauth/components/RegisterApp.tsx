import { OAUTH_AUTH_METHODS, OAUTH_SCOPE_NAMES, OAUTH_SCOPES, type OAuthAuthMethod, type OAuthScope } from '@tinkerdesk/contracts/web';
import { useState, type FormEvent } from 'react';
import { errorText } from '../../../shared/api';
import { useDisclosure } from '../../../shared/disclosure';
import { FormError } from '../../../shared/forms';
import type { AppDetails } from '../api';
import { useCreateApp } from '../hooks';
import { DETAIL_FIELDS, fieldOf, inputTypeOf, maxLengthOf, type AppFieldKey, type DetailKey } from './app-fields';
import { SecretNotice } from './SecretNotice';

const NO_DETAILS: Record<DetailKey, string> = { developerName: '', developerContact: '', homepageUrl: '', privacyUrl: '', termsUrl: '' };

/** The details given (trimmed); one left empty is not sent. */
function detailsOf(values: Record<DetailKey, string>): AppDetails {
  const details: AppDetails = {};
  for (const [key] of DETAIL_FIELDS) {
    const value = values[key].trim();
    if (value !== '') details[key] = value;
  }
  return details;
}

const AUTH_METHOD_LABELS: Record<OAuthAuthMethod, string> = {
  client_secret_basic: 'Server app, secret in the Authorization header (client_secret_basic)',
  client_secret_post: 'Server app, secret in the form body (client_secret_post)',
  none: 'Browser or mobile app without a secret (PKCE only)',
};

/** Registering an OAuth client: the form opens on request, and the secret is shown once after. */
export function RegisterApp() {
  const [name, setName] = useState('');
  const [uris, setUris] = useState('');
  const [scopes, setScopes] = useState<OAuthScope[]>(['openid', 'profile']);
  const [method, setMethod] = useState<OAuthAuthMethod>('client_secret_basic');
  const [details, setDetails] = useState(NO_DETAILS);
  const create = useCreateApp();
  // A refusal that names a field shows on that field; any other above the buttons.
  const onField = fieldOf(create.error);
  const message = create.error ? errorText(create.error) : '';
  const fieldError = (key: AppFieldKey) =>
    onField === key ? (
      <span className="field-error" id={`app-${key}-error`}>
        {message}
      </span>
    ) : null;
  const described = (key: AppFieldKey) => ({
    'aria-invalid': onField === key,
    'aria-describedby': onField === key ? `app-${key}-error` : undefined,
  });
  // The form opens on request: most people only ever allow apps, and its fields stay out of their way.
  // Focus into it on opening, back to "Register an app" on closing; Escape closes (shared/disclosure.tsx).
  const disclosure = useDisclosure();
  const open = disclosure.shown !== null;
  const setOpen = (next: boolean) => (next ? disclosure.open('open') : disclosure.close());

  function submit(event: FormEvent) {
    event.preventDefault();
    const redirectUris = uris
      .split(/\s+/)
      .map((u) => u.trim())
      .filter(Boolean);
    create.mutate(
      { name, redirectUris, scopes, tokenEndpointAuthMethod: method, ...detailsOf(details) },
      {
        onSuccess: () => {
          setName('');
          setUris('');
          setDetails(NO_DETAILS);
          setOpen(false);
        },
      },
    );
  }

  return (
    <>
      {create.data ? <SecretNotice created={create.data} heading="is registered" onDone={() => create.reset()} /> : null}
      {open ? (
        <form className="form form-flat inline-panel" onSubmit={submit} aria-label="Register an app" {...disclosure.panel}>
          <label htmlFor="app-name">What to call the app</label>
          <input id="app-name" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} required {...described('name')} />
          {fieldError('name')}
          <label htmlFor="app-uris">Redirect URIs (one per line)</label>
          <textarea
            id="app-uris"
            rows={2}
            value={uris}
            placeholder="https://app.example.com/callback"
            onChange={(e) => setUris(e.target.value)}
            required
            {...described('redirectUris')}
          />
          {fieldError('redirectUris')}
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
          <fieldset className="app-details">
            <legend>Who makes it (optional; the consent page shows these)</legend>
            {DETAIL_FIELDS.map(([key, label]) => (
              <div key={key} className="form-field">
                <label htmlFor={`app-${key}`}>{label}</label>
                <input
                  id={`app-${key}`}
                  value={details[key]}
                  maxLength={maxLengthOf(key)}
                  type={inputTypeOf(key)}
                  onChange={(e) => setDetails((d) => ({ ...d, [key]: e.target.value }))}
                  {...described(key)}
                />
                {fieldError(key)}
              </div>
            ))}
          </fieldset>
          <FormError message={onField ? '' : message} />
          <button
            type="submit"
            className="button button-primary align-start"
            disabled={create.isPending || !name.trim() || scopes.length === 0}
          >
            {create.isPending ? 'Registering…' : 'Register app'}
          </button>
          <button type="button" className="button button-ghost align-start" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" className="button button-primary align-start" {...disclosure.opener('open')}>
          Register an app
        </button>
      )}
    </>
  );
}
