import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { PATHS, safeNext } from '../../../routes/paths';
import { isOidcProvider } from '@tinkerdesk/contracts/web';
import { Page } from '../../../shared/Page';
import { session } from '../../../shared/session/session';
import { finishSocialSignIn } from '../api';
import { authErrorText } from '../conflict-texts';

/**
 * /login/oauth/{provider}: where an OpenID Connect provider sends the browser back. Exchanges the
 * code (POST /v1/{provider}/credentials/exchange/{code}), starts the session and goes on.
 */
export function OAuthCallbackPage() {
  const { provider = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [error, setError] = useState('');
  const sent = useRef(false);
  const code = params.get('code');
  const state = params.get('state');
  const denied = params.get('error');
  const issuer = params.get('iss');

  useEffect(() => {
    if (sent.current || denied || !code || !state) return;
    sent.current = true; // the code is single use
    void (async () => {
      try {
        if (!isOidcProvider(provider)) throw new Error(`Unknown sign-in provider "${provider}".`);
        const result = await finishSocialSignIn(provider, code, state, issuer);
        await session.login(result);
        await navigate(safeNext(result.returnTo) ?? PATHS.account, { replace: true });
      } catch (failure) {
        setError(authErrorText(failure));
      }
    })();
  }, [provider, code, state, issuer, denied, navigate]);

  const message = denied
    ? `Sign-in was cancelled or refused${params.get('error_description') ? `: ${params.get('error_description')}` : ` (${denied})`}.`
    : !code || !state
      ? 'This sign-in link is incomplete. Please start again.'
      : error;

  return (
    <Page title="Signing you in">
      {message ? (
        <>
          <p className="notice notice-error" role="alert">
            {message}
          </p>
          <p className="actions">
            <Link className="button button-primary" to={PATHS.signIn}>
              Back to sign in
            </Link>
          </p>
        </>
      ) : (
        <p className="loading" role="status">
          Completing sign-in…
        </p>
      )}
    </Page>
  );
}
