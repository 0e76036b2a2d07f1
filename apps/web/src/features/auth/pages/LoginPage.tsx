import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { PATHS, safeNext } from '../../../routes/paths';
import { useSession } from '../../../shared/session/session';
import { useTitle } from '../../../shared/useTitle';
import { CredentialsForm } from '../components/CredentialsForm';
import { ResetPasswordForm, ResetRequestForm } from '../components/ResetForms';
import { SocialSignIn } from '../components/SocialSignIn';
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
