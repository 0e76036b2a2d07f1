/**
 * The session as an account page's first paint sees it (apps/web/route-preloads.ts bundles
 * src/app/account-shell.tsx with this module in place of shared/session/session.ts). The gateway
 * renders that paint for one signed-in visitor at a time, from its own read of their profile
 * (apps/gateway/src/web/account-page.ts): `showProfile` sets what `useSession` answers for that render,
 * synchronously, before the render starts. Nothing here touches the browser: the render runs in Node,
 * and what a handler or an effect would do never runs there.
 */
import type { Profile, SessionState } from '../shared/session/types';

export const COOKIE_TOKEN = 'token';
export const COOKIE_LOGGED_IN = 'loggedIn';
export const readCookie = (_name: string): string | null => null;

const NOTHING = { mobile: false, tablet: false, desktop: true };

let state: SessionState = signedIn(null);

function signedIn(profile: Profile | null): SessionState {
  return {
    token: null,
    loggedIn: profile !== null,
    active: profile?.active ?? false,
    notifications: [],
    prompts: [],
    ready: true,
    platform: NOTHING,
    context: profile?.context ?? {},
    profile,
    verified: profile?.verified ?? false,
  };
}

/** The profile the next render shows (the gateway's read of GET /v1/users/me?include=services, without `success`). */
export function showProfile(profile: Profile | null): void {
  state = signedIn(profile);
}

function notInShell(): never {
  throw new Error('account shell: the session can only be read while the page renders');
}

/** What a render reads of the session; anything else (a handler's call) is not for a shell. */
export const session = new Proxy(
  {},
  {
    get(_target, key) {
      if (key === 'getState') return () => state;
      if (key === 'subscribe') return () => () => undefined;
      return notInShell;
    },
  },
);

export function useSession(): SessionState {
  return state;
}
