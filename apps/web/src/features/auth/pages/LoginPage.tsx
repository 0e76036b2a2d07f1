import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { PATHS, safeNext } from '../../../routes/paths';
import { useSession } from '../../../shared/session/session';
import { useTitle } from '../../../shared/useTitle';
import { CredentialsForm } from '../components/CredentialsForm';
import { ResetPasswordForm, ResetRequestForm } from '../components/ResetForms';
import { SocialSignIn } from '../components/SocialSignIn';
import { useAskingApp } from '../../oauth/hooks';
import { viewOf, type LoginView } from '../hash-routes';

const TITLES: Record<LoginView['name'], string> = {
  register: 'Sign up',
  login: 'Sign in',
  reset: 'Reset your password',
  'reset-token': 'Choose a new password',
};

/** /login#!/register and /login#!/login (docs/web-app.md#routes), plus the password reset views. */
export function LoginPage() {
  const { hash } = useLocation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { ready, loggedIn } = useSession();
  const view = viewOf(hash);
  const next = safeNext(params.get('next'));
  // On the way to an app's consent page: say which app is asking.
  const consent = next ? /^\/oauth2\/consent\/([^/?#]+)$/.exec(next) : null;
  const asking = useAskingApp(consent ? decodeURIComponent(consent[1]!) : null).data;
  const title = TITLES[view.name];
  useTitle(title);

  const signedInView = view.name === 'login' || view.name === 'register';
  useEffect(() => {
    // Signed in already (or just now): go on to where the visitor was going.
    if (ready && loggedIn && signedInView) void navigate(next ?? PATHS.account, { replace: true });
  }, [ready, loggedIn, signedInView, next, navigate]);

  const keep = next ? `?next=${encodeURIComponent(next)}` : '';
  const done = () => void navigate(next ?? PATHS.account, { replace: true });

  return (
    <div className="auth-page">
      <article className="auth-card">
        {signedInView ? (
          <nav aria-label="Account" className="auth-tabs">
            <Link to={`${PATHS.login}${keep}#!/register`} aria-current={view.name === 'register' ? 'page' : undefined}>
              Sign up
            </Link>
            <Link to={`${PATHS.login}${keep}#!/login`} aria-current={view.name === 'login' ? 'page' : undefined}>
              Sign in
            </Link>
          </nav>
        ) : null}
        <h1>{title}</h1>
        {view.name === 'register' || view.name === 'login' ? (
          <>
            {asking ? (
              <p className="notice asking-app" role="note">
                <strong>{asking.name}</strong>
                {asking.developerName ? ` (by ${asking.developerName})` : ''} asks to use your Tinkerdesk account.{' '}
                {view.name === 'register' ? 'Create an account' : 'Sign in'}, then choose what to allow.
              </p>
            ) : null}
            <CredentialsForm key={view.name} mode={view.name} onDone={done} next={next} />
            <SocialSignIn next={next} />
            <p className="form-footer muted">
              {view.name === 'register' ? (
                <>
                  Already have an account? <Link to={`${PATHS.login}${keep}#!/login`}>Sign in</Link>
                </>
              ) : (
                <>
                  New here? <Link to={`${PATHS.login}${keep}#!/register`}>Create an account</Link>
                </>
              )}
            </p>
          </>
        ) : view.name === 'reset' ? (
          <ResetRequestForm />
        ) : (
          <ResetPasswordForm token={view.token} />
        )}
      </article>
    </div>
  );
}
