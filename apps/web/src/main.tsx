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
import { nextTask } from './shared/next-task';
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

/** The list of files in the page's JSON script `id` (written by the build or by the gateway). */
function listed(id: string): { scripts: string[]; styles: string[] } {
  const text = document.getElementById(id)?.textContent;
  let list: unknown;
  try {
    list = text ? JSON.parse(text) : undefined;
  } catch {
    list = undefined;
  }
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  if (Array.isArray(list)) return { scripts: strings(list), styles: [] };
  const files = (typeof list === 'object' && list !== null ? list : {}) as { scripts?: unknown; styles?: unknown };
  return { scripts: strings(files.scripts), styles: strings(files.styles) };
}

function addLink(attributes: Record<string, string>): void {
  const link = document.createElement('link');
  for (const [name, value] of Object.entries(attributes)) link.setAttribute(name, value);
  document.head.appendChild(link);
}

/**
 * The boot's files (boot.tsx's chunk and the chunks it imports, React's among them), as the build
 * lists them in index.html (apps/web/route-preloads.ts): all fetched at once, as Vite's preload helper
 * would for `import('./boot')`, although they are evaluated in stages (below).
 */
function preloadBootFiles(): void {
  for (const href of listed('boot-files').scripts) addLink({ rel: 'modulepreload', crossorigin: '', href });
}

/**
 * The route's page chunk and its imports (and their stylesheets), as the gateway lists them in the page
 * (apps/gateway/src/web/app-page.ts), fetched beside the boot chunk at low priority: the app needs them
 * as soon as it has booted, instead of after its router has asked for them.
 */
function preloadRouteFiles(): void {
  const files = listed('route-files');
  for (const href of files.scripts) addLink({ rel: 'modulepreload', crossorigin: '', fetchpriority: 'low', href });
  for (const href of files.styles) addLink({ rel: 'preload', as: 'style', crossorigin: '', href });
}

// The boot in stages, each a task of its own: the boot's files are asked for, then the route's (each
// preload link costs the main thread about a millisecond, four on a slow phone); React and react-dom
// are evaluated (react-stage.ts, about half of the boot's JavaScript), then the router, the session and
// the app (boot.tsx). The browser evaluates a module and everything it imports in one task: on a slow
// phone the boot was one task of 200-300 ms, during which the page could not answer a tap
// (Lighthouse's Total Blocking Time).
void afterFirstPaint().then(async () => {
  preloadBootFiles();
  const runtime = import('./react-stage');
  await nextTask();
  preloadRouteFiles();
  await runtime;
  await nextTask();
  await import('./boot');
});
