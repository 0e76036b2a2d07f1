/**
 * The session as the page shells' render sees it (apps/web/route-preloads.ts puts this module in place
 * of shared/session/session.ts when it renders src/app/page-shells.tsx in Node). There is no session
 * when the site is built: a shell is the same for every visitor, so a page that reads the session while
 * it renders has no shell, and this says so at build time instead of rendering some visitor's state.
 */
function noSession(): never {
  throw new Error('page shells: a page that reads the session while it renders cannot have a static shell');
}

export const COOKIE_TOKEN = 'token';
export const COOKIE_LOGGED_IN = 'loggedIn';
export const readCookie = noSession;
export const session = new Proxy({}, { get: noSession });
export const useSession = noSession;
