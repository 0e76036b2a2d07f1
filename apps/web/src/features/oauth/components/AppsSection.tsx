import { errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { DISCOVERY_URL } from '../api';
import { useOAuthAccess } from '../hooks';
import { AppRow } from './AppRow';
import { ConsentRow } from './ConsentRow';
import { RegisterApp } from './RegisterApp';

/**
 * /account: the apps this user allowed (consents, withdrawable) and, for integrators, the apps they
 * registered (OAuth clients: the secret is shown once, right after registering).
 */
export function AppsSection() {
  const access = useOAuthAccess();
  const consents = access.data?.consents;
  const apps = access.data?.apps;

  return (
    <section className="card account-card apps-section" id="apps" aria-labelledby="apps-heading">
      <h2 id="apps-heading">Apps and access</h2>
      <FormError message={access.error ? errorText(access.error) : ''} />
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
            <ConsentRow key={c.id} consent={c} />
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
            <AppRow key={a.id} app={a} />
          ))}
        </ul>
      ) : apps ? (
        <p className="muted">No apps registered yet.</p>
      ) : null}
      <RegisterApp />
    </section>
  );
}
