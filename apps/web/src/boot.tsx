import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, loadCurrentPage } from './app/App';
import { nextTask } from './shared/next-task';
import { COOKIE_TOKEN, readCookie, session } from './shared/session/session';

// Offline after the first visit (production builds; the dev server has no service worker).
// The app boots after the first paint (main.tsx), sometimes after the load event: then it registers at once.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const register = () =>
    navigator.serviceWorker.register('/serviceworker.js').catch((error: unknown) => console.warn('service worker not registered', error));
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// Signed in (a token cookie): the session's startup check comes first, so that the first render is the
// signed-in page. Its profile, which the entry asked for at once, has usually arrived by now; a session
// that changed after the first render made React render the page again in one long task (a change
// from useSyncExternalStore is never rendered in slices). It waits at most SESSION_WAIT_MS. Without a
// cookie the check (the local database) starts after the first render (app/providers.tsx).
const SESSION_WAIT_MS = 1000;
const sessionChecked = (): Promise<void> =>
  readCookie(COOKIE_TOKEN) === null
    ? Promise.resolve()
    : Promise.race([session.start(), new Promise<void>((resolve) => setTimeout(resolve, SESSION_WAIT_MS))]);

// The router, in a task of its own (loadCurrentPage makes it: app/App.tsx), then the page's module
// (the entry has it fetched already), so the first render replaces the page's static shell with the
// page itself rather than with "Loading…". The first render is a transition so React renders it in
// slices of a few milliseconds, yielding to the browser between them, instead of one long task that
// would hold up input on slow phones.
void nextTask()
  .then(sessionChecked)
  .then(loadCurrentPage)
  .then(() =>
    startTransition(() => {
      createRoot(root).render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    }),
  );
