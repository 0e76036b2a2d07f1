import { useSyncExternalStore } from 'react';
import { anonymous, authenticateWith, bearer, unwrap } from '../api';
import { handleStorageMessage, kvGet, KV_KEYS, randomId } from '../storage/db';
import { takeEarlyProfile } from './early-profile';
import { SessionStore } from './session-store';
import type { Platform, SessionState } from './types';

/** Login cookie names (docs/web-app.md#session-and-local-database). */
export const COOKIE_TOKEN = 'token';
export const COOKIE_LOGGED_IN = 'loggedIn';
const SESSION_DAYS = 30;
const CHANNEL = 'tinkerdesk-session';

function writeCookie(name: string, value: string, maxAgeSeconds: number): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax${secure}`;
}

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

function detectPlatform(): Platform {
  const ua = navigator.userAgent;
  const tablet = /iPad|Tablet|Android(?!.*Mobile)/i.test(ua) || (navigator.maxTouchPoints > 1 && /Macintosh/.test(ua));
  const mobile = !tablet && (/Mobi|iPhone|Android/i.test(ua) || matchMedia('(max-width: 640px)').matches);
  return { mobile, tablet, desktop: !mobile && !tablet };
}

const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;

// Set when the page starts to be left (beforeunload: a link, a reload; pagehide: when it goes): the
// requests it still has in flight are cancelled by the browser, which is no network failure (SessionDeps.leaving).
// A navigation called off after beforeunload (a download, a "stay" answer) clears it again after a moment.
let leaving = false;
window.addEventListener('beforeunload', () => {
  leaving = true;
  window.setTimeout(() => (leaving = false), 3000);
});
window.addEventListener('pagehide', () => (leaving = true));
window.addEventListener('pageshow', () => (leaving = false));

/** The one session of this page, wired to the gateway, IndexedDB, the cookies and the other tabs. */
export const session = new SessionStore({
  fetchProfile: async (token) => {
    const { success: _ok, ...profile } = await unwrap(
      anonymous.GET('/v1/users/me', {
        params: { query: { include: 'services' } },
        headers: bearer(token),
        // The entry's request (early-profile.ts) when it is this one: the page's first profile.
        fetch: (request) => takeEarlyProfile(request) ?? fetch(request),
      }),
    );
    return profile;
  },
  endSession: async (guid, token) => {
    const result = await unwrap(anonymous.POST('/v1/users/{guid}/logout', { params: { path: { guid } }, headers: bearer(token) }));
    return 'profile' in result ? { profile: result.profile, token: result.token, verified: result.verified } : null;
  },
  exchangeCode: (code) => unwrap(anonymous.POST('/v1/codes/{code}/exchange', { params: { path: { code } } })),
  // The cookie first: it is read at once, while the local database opens only after the page has
  // loaded (storage/db.ts). It is asked when there is no cookie (cleared or expired, the token kept there).
  loadToken: async () => readCookie(COOKIE_TOKEN) || ((await kvGet<string>(KV_KEYS.token).catch(() => undefined)) ?? null),
  saveToken: async (token) => {
    writeCookie(COOKIE_TOKEN, token, SESSION_DAYS * 86_400);
    writeCookie(COOKIE_LOGGED_IN, 'true', SESSION_DAYS * 86_400);
    await handleStorageMessage({ type: 'login', token });
  },
  clearToken: async () => {
    writeCookie(COOKIE_TOKEN, '', 0);
    writeCookie(COOKIE_LOGGED_IN, '', 0);
    await handleStorageMessage({ type: 'logout' });
  },
  platform: detectPlatform,
  broadcast: (message) => channel?.postMessage(message),
  newId: () => randomId(),
  setTimer: (callback, ms) => window.setTimeout(callback, ms),
  clearTimer: (handle) => window.clearTimeout(handle as number),
  leaving: () => leaving,
});

// Every call of the typed client sends this session's token (its auth middleware, set once here).
authenticateWith(() => session.getState().token);

channel?.addEventListener('message', (event: MessageEvent<{ type: 'login'; token: string } | { type: 'logout' }>) => {
  if (event.data.type === 'login') void session.adopt(event.data.token);
  else session.dropped();
});

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState);
}
