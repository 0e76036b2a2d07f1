import { OAUTH_PATH, type OAuthAppPublicView } from '@tinkerdesk/contracts/web';
import { useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { signInPath } from '../../../routes/paths';
import { errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { Page } from '../../../shared/Page';
import { session, useSession } from '../../../shared/session/session';
import { RequireAuth } from '../../auth/RequireAuth';
import { allowUrl, refuseUrl } from '../api';
import { useInteraction } from '../hooks';

/**
 * /oauth2/consent/{interaction}: where an app's authorization request sends the browser (after
 * signing in when needed). It names the app, what it asks for and where the browser goes back to;
 * Allow and Don't allow are navigations to the gateway, which returns the browser to the app.
 */
export function ConsentPage() {
  return (
    <RequireAuth>
      <Consent />
    </RequireAuth>
  );
}

function Consent() {
  const { interaction = '' } = useParams();
  const { profile } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const { data: details, error: failure } = useInteraction(interaction);
  const error = failure ? errorText(failure) : '';
  const [leaving, setLeaving] = useState<'allow' | 'refuse' | undefined>();

  function go(kind: 'allow' | 'refuse') {
    setLeaving(kind);
    window.location.assign(kind === 'allow' ? allowUrl(interaction) : refuseUrl(interaction));
  }

  if (error) {
    return (
      <Page title="Allow an app">
        <FormError message={error} />
        <p>
          Go back to the app and start again. Apps ask for access through {OAUTH_PATH}; a request works once, for an hour, in the browser
          that started it.
        </p>
      </Page>
    );
  }
  if (!details) {
    return (
      <p className="page loading" role="status">
        Loading…
      </p>
    );
  }
  const again = details.scopes.every((s) => details.grantedBefore.includes(s.name));
  return (
    <Page title={`Allow ${details.app.name}?`} lead={<>An app wants to use your Tinkerdesk account.</>}>
      <section className="card consent-card" aria-labelledby="consent-heading">
        <h2 id="consent-heading">
          <strong>{details.app.name}</strong> asks to:
        </h2>
        {details.scopes.length > 0 ? (
          <ul className="consent-scopes">
            {details.scopes.map((s) => (
              <li key={s.name}>
                <span>{s.description}</span> <code className="muted">{s.name}</code>
              </li>
            ))}
          </ul>
        ) : (
          <p>Nothing beyond knowing that you allowed it.</p>
        )}
        {again ? <p className="muted">You allowed this app these before.</p> : null}
        <AppMaker app={details.app} />
        <p className="muted">
          You are signed in as <strong>{profile?.email}</strong>.{' '}
          <button
            type="button"
            className="link-button"
            onClick={() =>
              void (async () => {
                // Sign out, then sign in as someone else and come back to this same request.
                await session.logout();
                void navigate(signInPath(location.pathname));
              })()
            }
          >
            Not you? Use another account
          </button>
        </p>
        <p className="muted">
          Afterwards your browser goes back to <strong>{details.redirectOrigin}</strong>. You can withdraw access at any time on your
          Account page.
        </p>
        <div className="consent-actions">
          <button type="button" className="button button-primary" disabled={leaving !== undefined} onClick={() => go('allow')}>
            {leaving === 'allow' ? 'Allowing…' : 'Allow'}
          </button>
          <button type="button" className="button" disabled={leaving !== undefined} onClick={() => go('refuse')}>
            {leaving === 'refuse' ? 'Going back…' : 'Don’t allow'}
          </button>
        </div>
      </section>
    </Page>
  );
}

const LINKS = [
  ['homepageUrl', 'Website'],
  ['privacyUrl', 'Privacy policy'],
  ['termsUrl', 'Terms'],
] as const;

/** Who made the app and its links, as its developer gave them at registration; says so when they gave none. */
function AppMaker({ app }: { app: OAuthAppPublicView }) {
  const links = LINKS.filter(([key]) => app[key]);
  return (
    <div className="consent-maker">
      <p className="muted">
        {app.developerName ? (
          <>
            Made by <strong>{app.developerName}</strong>
            {app.developerContact ? <> (contact: {app.developerContact})</> : null}.
          </>
        ) : (
          'Its developer gave no name; only allow apps you trust.'
        )}
      </p>
      {links.length > 0 ? (
        <ul className="consent-links" aria-label={`Links of ${app.name}`}>
          {links.map(([key, label]) => (
            <li key={key}>
              <a href={app[key]!} target="_blank" rel="noopener noreferrer nofollow">
                {label}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
