import { describe, expect, it } from '@jest/globals';
import { ApiError, NetworkError } from '../api';
import { SessionStore, type SessionDeps } from './session-store';
import type { AuthResult, Profile } from './types';

const profile: Profile = { guid: 'u1', name: 'Ada', tz: 'UTC', active: true, email: 'ada@example.com', verified: true, context: {} };
const result = (token: string, p: Profile = profile): AuthResult => ({ profile: p, token, verified: p.verified ?? false });

/** Fakes for the store's outside world (only the rules are under test here). */
function harness(overrides: Partial<SessionDeps> = {}, stored: string | null = 'stored-token') {
  const storage = { token: stored, cleared: 0, saved: [] as string[] };
  const timers: { callback: () => void; ms: number; cancelled: boolean }[] = [];
  let ids = 0;
  const deps: SessionDeps = {
    fetchProfile: async () => profile,
    endSession: async () => null,
    exchangeCode: async () => result('exchanged'),
    loadToken: async () => storage.token,
    saveToken: async (token) => {
      storage.token = token;
      storage.saved.push(token);
    },
    clearToken: async () => {
      storage.token = null;
      storage.cleared += 1;
    },
    platform: () => ({ mobile: false, tablet: false, desktop: true }),
    newId: () => `id${++ids}`,
    setTimer: (callback, ms) => {
      const timer = { callback, ms, cancelled: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (handle) => {
      (handle as { cancelled: boolean }).cancelled = true;
    },
    ...overrides,
  };
  const fire = () => timers.splice(0).forEach((t) => !t.cancelled && t.callback());
  return { store: new SessionStore(deps), storage, timers, fire };
}

describe('session state machine (docs/web-app.md#session-and-local-database)', () => {
  it('starts logged out and not ready', () => {
    const { store } = harness();
    expect(store.getState()).toMatchObject({ loggedIn: false, ready: false, token: null, profile: null });
  });

  it('a stored token that refreshes logs in, then ready', async () => {
    const { store } = harness();
    await store.start();
    expect(store.getState()).toMatchObject({ loggedIn: true, ready: true, token: 'stored-token', verified: true, active: true });
    expect(store.getState().profile?.email).toBe('ada@example.com');
  });

  it('no stored token: logged out and ready', async () => {
    const { store } = harness({}, null);
    await store.start();
    expect(store.getState()).toMatchObject({ loggedIn: false, ready: true, token: null });
  });

  it.each(['INVALID_TOKEN', 'IDENTIFIER_NOT_FOUND'])('%s clears the token and the cookies', async (code) => {
    const { store, storage } = harness({
      fetchProfile: async () => {
        throw new ApiError(401, code, 'gone');
      },
    });
    await store.start();
    expect(store.getState()).toMatchObject({ loggedIn: false, ready: true, token: null });
    expect(storage.cleared).toBe(1);
    expect(storage.token).toBeNull();
  });

  /** Fires each retry timer as soon as the store sets it, until `done` settles. */
  async function withTimers(timers: { callback: () => void; cancelled: boolean; ms: number }[], done: Promise<void>): Promise<number[]> {
    const waited: number[] = [];
    let settled = false;
    void done.finally(() => (settled = true));
    while (!settled) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      for (const timer of timers.splice(0)) {
        waited.push(timer.ms);
        if (!timer.cancelled) timer.callback();
      }
    }
    return waited;
  }

  it('UNAVAILABLE (a busy server) is asked again: the session survives a moment of load', async () => {
    let calls = 0;
    const { store, timers } = harness({
      fetchProfile: async () => {
        if (++calls < 3) throw new ApiError(503, 'UNAVAILABLE', 'identity is not answering');
        return profile;
      },
    });
    const waited = await withTimers(timers, store.start());
    expect(calls).toBe(3);
    expect(waited).toEqual([500, 1000]);
    expect(store.getState()).toMatchObject({ loggedIn: true, ready: true, token: 'stored-token' });
  });

  it('UNAVAILABLE that lasts marks logged out and keeps the token; other server failures are not asked again', async () => {
    let calls = 0;
    const { store, storage, timers } = harness({
      fetchProfile: async () => {
        calls += 1;
        throw new ApiError(503, 'UNAVAILABLE', 'identity is not answering');
      },
    });
    expect(await withTimers(timers, store.start())).toEqual([500, 1000, 2000]);
    expect(calls).toBe(4);
    expect(store.getState()).toMatchObject({ loggedIn: false, ready: true, token: 'stored-token' });
    expect(storage.cleared).toBe(0);

    let other = 0;
    const second = harness({
      fetchProfile: async () => {
        other += 1;
        throw new ApiError(500, 'INTERNAL', 'broken');
      },
    });
    await second.store.start();
    expect(other).toBe(1);
    expect(second.store.getState()).toMatchObject({ loggedIn: false, ready: true, token: 'stored-token' });
  });

  it('any other server failure marks logged out and keeps the token', async () => {
    const { store, storage } = harness({
      fetchProfile: async () => {
        throw new ApiError(500, 'INTERNAL', 'something broke');
      },
    });
    await store.start();
    expect(store.getState()).toMatchObject({ loggedIn: false, ready: true, token: 'stored-token' });
    expect(storage.cleared).toBe(0);
    expect(storage.token).toBe('stored-token');
  });

  it('a network failure clears the token', async () => {
    const { store, storage } = harness({
      fetchProfile: async () => {
        throw new NetworkError(new TypeError('Failed to fetch'));
      },
    });
    await store.start();
    expect(store.getState()).toMatchObject({ loggedIn: false, ready: true, token: null });
    expect(storage.cleared).toBe(1);
  });

  it('a request cut because the page is being left keeps the token (no network failure)', async () => {
    const { store, storage } = harness({
      fetchProfile: async () => {
        throw new NetworkError(new TypeError('Failed to fetch'));
      },
      leaving: () => true,
    });
    await store.start();
    expect(storage.cleared).toBe(0);
    expect(store.getState()).toMatchObject({ ready: true });
  });

  it('login saves the token (the login message); logout clears it', async () => {
    const { store, storage } = harness({}, null);
    await store.start();
    await store.login(result('fresh'));
    expect(storage.saved).toEqual(['fresh']);
    expect(store.getState()).toMatchObject({ loggedIn: true, token: 'fresh' });
    expect(await store.logout()).toBe('ended');
    expect(store.getState()).toMatchObject({ loggedIn: false, token: null, profile: null });
    expect(storage.token).toBeNull();
  });

  it('a logout that returns a new session replaces the session', async () => {
    const admin: Profile = { ...profile, guid: 'admin', email: 'admin@example.com' };
    const { store, storage } = harness({ endSession: async () => result('admin-token', admin) });
    await store.start();
    expect(await store.logout()).toBe('replaced');
    expect(store.getState()).toMatchObject({ loggedIn: true, token: 'admin-token' });
    expect(store.getState().profile?.guid).toBe('admin');
    expect(storage.token).toBe('admin-token');
  });

  it('logout ends the local session even when the server call fails', async () => {
    const { store } = harness({
      endSession: async () => {
        throw new NetworkError(new TypeError('offline'));
      },
    });
    await store.start();
    expect(await store.logout()).toBe('ended');
    expect(store.getState().loggedIn).toBe(false);
  });

  it('a code exchange logs in', async () => {
    const { store } = harness({}, null);
    await store.start();
    await store.exchangeCode('abc');
    expect(store.getState()).toMatchObject({ loggedIn: true, token: 'exchanged' });
  });

  it('a refresh that started before a login cannot undo it', async () => {
    let answer: ((p: Profile) => void) | undefined;
    let asking: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (asking = resolve));
    const { store } = harness({
      fetchProfile: () =>
        new Promise<Profile>((resolve) => {
          answer = resolve;
          asking();
        }),
    });
    const started = store.start();
    await asked;
    await store.login(result('newer', { ...profile, guid: 'u2' }));
    answer!(profile);
    await started;
    expect(store.getState()).toMatchObject({ token: 'newer', loggedIn: true });
    expect(store.getState().profile?.guid).toBe('u2');
  });

  it('whenReady polls every 100 ms until ready', async () => {
    const { store, timers, fire } = harness({}, null);
    let resolved = false;
    void store.whenReady().then(() => (resolved = true));
    expect(timers.map((t) => t.ms)).toEqual([100]);
    await store.start();
    fire();
    await Promise.resolve();
    expect(resolved).toBe(true);
  });
});

describe('notifications and prompts', () => {
  it('a notification with the same tag replaces the earlier one', () => {
    const { store } = harness();
    store.notify({ tag: 'save', type: 'info', content: 'Saving…' });
    store.notify({ tag: 'other', type: 'info', content: 'Other' });
    store.notify({ tag: 'save', type: 'success', content: 'Saved', heading: 'Profile', button: { title: 'View', target: '/account' } });
    const list = store.getState().notifications;
    expect(list.map((n) => n.content)).toEqual(['Other', 'Saved']);
    expect(list[1]).toMatchObject({ heading: 'Profile', button: { title: 'View', target: '/account' }, close: true });
  });

  it('a timeout closes it; replacing cancels the old timer', () => {
    const { store, timers, fire } = harness();
    store.notify({ tag: 't', type: 'info', content: 'one', timeout: 5000 });
    store.notify({ tag: 't', type: 'info', content: 'two', timeout: 8000 });
    expect(timers.map((t) => [t.ms, t.cancelled])).toEqual([
      [5000, true],
      [8000, false],
    ]);
    fire();
    expect(store.getState().notifications).toEqual([]);
  });

  it('a prompt resolves with the chosen button; the same tag replaces (the old one answers undefined)', async () => {
    const { store } = harness();
    const first = store.prompt({ tag: 'q', title: 'Delete?', content: 'Sure?', buttons: [{ title: 'Delete', value: 'yes' }] });
    const second = store.prompt({ tag: 'q', title: 'Delete?', content: 'Really?', buttons: [{ title: 'Delete', value: 'yes' }] });
    expect(await first).toBeUndefined();
    expect(store.getState().prompts.map((p) => p.content)).toEqual(['Really?']);
    store.answer(store.getState().prompts[0]!.id, 'yes');
    expect(await second).toBe('yes');
    expect(store.getState().prompts).toEqual([]);
  });
});
