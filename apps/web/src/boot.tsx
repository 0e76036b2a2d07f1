import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, loadCurrentPage } from './app/App';
import { nextTask } from './shared/next-task';

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
// The router, in a task of its own (loadCurrentPage makes it: app/App.tsx), then the page's module
// (the entry has it fetched already), so the first render replaces the page's static shell with the
// page itself rather than with "Loading…". The first render is a transition so React renders it in
// slices of a few milliseconds, yielding to the browser between them, instead of one long task that
// would hold up input on slow phones.
void nextTask()
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
