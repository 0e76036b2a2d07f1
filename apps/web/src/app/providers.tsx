import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { useLiveEvents } from '../shared/live/useLiveEvents';
import { session, useSession } from '../shared/session/session';
import { invalidateFor } from './live-updates';

/**
 * The server data cache of the page (TanStack Query). Failures show at once (the pages say what went
 * wrong and offer their own retry), and a query is not refetched just because the window got focus:
 * the pages reload what a mutation changed by invalidating its keys.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

const queryClient = createQueryClient();

/**
 * The session's startup check (the stored token, then the profile), started once the first render is
 * on screen rather than while React renders it in slices: a session that changed during that render
 * made React render the whole page again in one long task (useSyncExternalStore's consistency check).
 * With a token cookie, boot.tsx has started it before the first render (it runs once).
 */
function SessionStart() {
  useEffect(() => {
    void session.start();
  }, []);
  return null;
}

/** Another session (sign-in, sign-out, here or in another tab) sees none of the previous one's data. */
function SessionScope() {
  const { token } = useSession();
  const previous = useRef(token);
  useEffect(() => {
    if (previous.current === token) return;
    previous.current = token;
    void queryClient.resetQueries();
  }, [token]);
  return null;
}

/** The tab's live stream while signed in: each event reloads the queries it affects (live-updates.ts). */
function LiveUpdates() {
  const { token } = useSession();
  useLiveEvents(token, (event) => invalidateFor(queryClient, event));
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionStart />
      <SessionScope />
      <LiveUpdates />
      {children}
    </QueryClientProvider>
  );
}
