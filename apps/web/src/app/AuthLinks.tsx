import { Link } from 'react-router-dom';
import { useLogout } from '../features/auth/use-logout';
import { PATHS } from '../routes/paths';
import { useSession } from '../shared/session/session';
import { ProfileMenu } from './ProfileMenu';

/**
 * The account actions (docs/web-app.md#routes). Logged out: Sign Up and Sign In. Logged in: in the top bar
 * a drop-down with the profile email; in the mobile sidebar account, billing and logout.
 */
export function AuthLinks({ place }: { place: 'top-bar' | 'sidebar' }) {
  const { loggedIn, ready } = useSession();
  const logout = useLogout();
  if (!ready) return <span className="auth-pending" aria-hidden="true" />;
  if (loggedIn && place === 'top-bar') return <ProfileMenu />;
  if (loggedIn) {
    return (
      <ul className="sidebar-account-links">
        <li>
          <Link to={PATHS.account}>Account</Link>
        </li>
        <li>
          <Link to={PATHS.billing}>Billing</Link>
        </li>
        <li>
          <button type="button" className="link-button" onClick={() => void logout()}>
            Log out
          </button>
        </li>
      </ul>
    );
  }
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
