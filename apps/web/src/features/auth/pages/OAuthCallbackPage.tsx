import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { PATHS, safeNext } from '../../../routes/paths';
import { Page } from '../../../shared/Page';
import { authErrorText } from '../conflict-texts';
import { useFinishSocialSignIn } from '../hooks';

/**
 * /login/oauth/{provider}: where an OpenID Connect provider sends the browser back. Exchanges the
 * code (POST /v1/{provider}/credentials/exchange/{code}), starts the session and goes on.
 */
export function OAuthCallbackPage() {
  const { provider = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const exchange = useFinishSocialSignIn();
  const { mutate } = exchange;
  const sent = useRef(false);
  const code = params.get('code');
  const state = params.get('state');
  const denied = params.get('error');
  const issuer = params.get('iss');

  useEffect(() => {
    if (sent.current || denied || !code || !state) return;
    sent.current = true; // the code is single use
    mutate(
      { provider, code, state, issuer },
      { onSuccess: (returnTo) => void navigate(safeNext(returnTo) ?? PATHS.account, { replace: true }) },
    );
  }, [provider, code, state, issuer, denied, navigate, mutate]);

  const message = denied
    ? `Sign-in was cancelled or refused${params.get('error_description') ? `: ${params.get('error_description')}` : ` (${denied})`}.`
    : !code || !state
      ? 'This sign-in link is incomplete. Please start again.'
      : exchange.error
        ? authErrorText(exchange.error)
        : '';

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
