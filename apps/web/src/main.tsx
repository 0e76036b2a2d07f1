/**
 * The entry: lets the browser paint the page first (index.html's static top bar and, for a page that
 * is the same for every visitor, the page itself: src/app/page-shells.tsx), then boots the app
 * (boot.tsx), which replaces it with the same page. Nothing else is fetched before that paint: the
 * boot chunk (react-dom alone is about 200 KB) and the route's own files are requested once a frame
 * has been painted (requestAnimationFrame, then a task; at most 200 ms where frames are not drawn, as
 * in a tab opened in the background).
 */
// The site's stylesheet stays with the entry, so index.html loads it (render-blocking) for that first paint.
import './styles.css';
import { requestShopEarly } from './shared/early-shop';
import { requestProfileEarly } from './shared/session/early-profile';

// Signed in (a session cookie): the profile, which every signed-in page waits for, is asked for now;
// on a shop's page, the shop.
requestProfileEarly();
requestShopEarly(location.pathname);

function afterFirstPaint(): Promise<void> {
  return new Promise((painted) => {
    requestAnimationFrame(() => setTimeout(painted, 0));
    setTimeout(painted, 200);
  });
}

/**
 * The route's page chunk and its imports (and their stylesheets), as the gateway lists them in the page
 * (apps/gateway/src/web/app-page.ts), fetched beside the boot chunk at low priority: the app needs them
 * as soon as it has booted, instead of after its router has asked for them.
 */
function preloadRouteFiles(): void {
  const list = document.getElementById('route-files')?.textContent;
  if (!list) return;
  let files: { scripts?: unknown; styles?: unknown };
  try {
    files = JSON.parse(list) as typeof files;
  } catch {
    return;
  }
  const add = (attributes: Record<string, string>) => {
    const link = document.createElement('link');
    for (const [name, value] of Object.entries(attributes)) link.setAttribute(name, value);
    document.head.appendChild(link);
  };
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  for (const href of strings(files.scripts)) add({ rel: 'modulepreload', crossorigin: '', fetchpriority: 'low', href });
  for (const href of strings(files.styles)) add({ rel: 'preload', as: 'style', crossorigin: '', href });
}

void afterFirstPaint().then(() => {
  const boot = import('./boot');
  preloadRouteFiles();
  return boot;
});
