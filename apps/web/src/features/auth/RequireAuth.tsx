import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { signInPath } from '../../routes/paths';
import { useSession } from '../../shared/session/session';

/** Pages for signed-in users: anonymous visitors go to sign-in and come back here after it. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { ready, loggedIn } = useSession();
  const location = useLocation();
  if (!ready) {
    return (
      <p className="page loading" role="status">
        Loading…
      </p>
    );
  }
  if (!loggedIn) return <Navigate replace to={signInPath(location.pathname + location.search + location.hash)} />;
  return children;
}
