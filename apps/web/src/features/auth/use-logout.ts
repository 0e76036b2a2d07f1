import { useNavigate } from 'react-router-dom';
import { PATHS } from '../../routes/paths';
import { session } from '../../shared/session/session';

/**
 * Log out (docs/web-app.md#session-and-local-database): ends the session and goes to '/'; when the server answers with a
 * new session (the end of an impersonation) the page reloads at '/'.
 */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  return async () => {
    const outcome = await session.logout();
    if (outcome === 'replaced') window.location.assign(PATHS.root);
    else void navigate(PATHS.root);
  };
}
