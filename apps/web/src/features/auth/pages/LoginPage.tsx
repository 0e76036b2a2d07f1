import { Link, useLocation } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { Page } from '../../../shared/Page';

/** /login#!/register and /login#!/login; the forms arrive with the identity work. */
export function LoginPage() {
  const { hash } = useLocation();
  const register = hash.includes('/register');
  return (
    <Page title={register ? 'Sign up' : 'Sign in'}>
      <p className="notice" role="status">
        Accounts are coming soon. Until then every tool works without one.
      </p>
      <p>
        {register ? (
          <>
            Already have an account? <Link to={PATHS.signIn}>Sign in</Link>
          </>
        ) : (
          <>
            New here? <Link to={PATHS.register}>Sign up</Link>
          </>
        )}
      </p>
    </Page>
  );
}
