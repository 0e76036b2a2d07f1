import { Link, useLocation } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { useTitle } from '../../../shared/useTitle';

/**
 * /login#!/register (sign up) and /login#!/login (sign in). The hash picks the form; the forms
 * themselves arrive with the identity work.
 */
export function LoginPage() {
  const { hash } = useLocation();
  const register = hash.replace(/^#!?/, '').startsWith('/register');
  const title = register ? 'Sign up' : 'Sign in';
  useTitle(title);
  return (
    <div className="auth-page">
      <article className="auth-card">
        <nav aria-label="Account" className="auth-tabs">
          <Link to={PATHS.register} aria-current={register ? 'page' : undefined}>
            Sign up
          </Link>
          <Link to={PATHS.signIn} aria-current={register ? undefined : 'page'}>
            Sign in
          </Link>
        </nav>
        <h1>{title}</h1>
        <p className="notice" role="status">
          Accounts are coming soon: {register ? 'signing up' : 'signing in'} is not open yet. You do not need an account for the tools.
        </p>
        <p className="muted">
          With an account you will be able to sell from a public page, answer payment requests, manage plans and payment methods, and
          register your browsers as terminals.
        </p>
        <p>
          <Link className="button button-primary" to={PATHS.tools}>
            Use the tools
          </Link>
        </p>
      </article>
    </div>
  );
}
