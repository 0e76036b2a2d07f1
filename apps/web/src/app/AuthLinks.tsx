import { Link } from 'react-router-dom';
import { PATHS } from '../routes/paths';

/**
 * The logged-out account actions (spec section 2: Sign Up and Sign In), shared by the top bar and
 * the mobile sidebar so the signed-in menu can replace them in one place.
 */
export function AuthLinks() {
  return (
    <>
      <Link className="button button-primary" to={PATHS.register}>
        Sign Up
      </Link>
      <Link className="button" to={PATHS.signIn}>
        Sign In
      </Link>
    </>
  );
}
