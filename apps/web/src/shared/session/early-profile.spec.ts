/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';

// The module keeps one early request per page: each test loads a fresh copy.
async function load() {
  jest.resetModules();
  return import('./early-profile');
}

const request = (path: string, token: string, method = 'GET') =>
  new Request(`http://localhost${path}`, { method, headers: { authorization: `Bearer ${token}` } });

describe('the early profile request', () => {
  let calls: Array<{ url: string; authorization: string | null }>;
  const realFetch = globalThis.fetch;

  beforeEach(() => {
    calls = [];
    globalThis.fetch = ((url: string, init?: RequestInit) => {
      calls.push({ url, authorization: new Headers(init?.headers).get('authorization') });
      return Promise.resolve(new Response('{"success":true}', { status: 200 }));
    }) as typeof fetch;
  });

  afterEach(() => {
    globalThis.fetch = realFetch;
    document.cookie = 'token=; Max-Age=0; Path=/';
  });

  it('is not sent without a session cookie', async () => {
    const early = await load();
    early.requestProfileEarly();
    expect(calls).toEqual([]);
    expect(early.takeEarlyProfile(request(early.EARLY_PROFILE_PATH, 'tok'))).toBeUndefined();
  });

  it('is sent once with the cookie’s token and answers the same request once', async () => {
    document.cookie = `token=${encodeURIComponent('tok/1=')}; Path=/`;
    const early = await load();
    early.requestProfileEarly();
    early.requestProfileEarly();
    expect(calls).toEqual([{ url: '/v1/users/me?include=services', authorization: 'Bearer tok/1=' }]);
    const answer = early.takeEarlyProfile(request(early.EARLY_PROFILE_PATH, 'tok/1='));
    expect(answer).toBeDefined();
    expect((await answer!).status).toBe(200);
    expect(early.takeEarlyProfile(request(early.EARLY_PROFILE_PATH, 'tok/1='))).toBeUndefined();
  });

  it('does not answer another request, another token or another method', async () => {
    document.cookie = 'token=tok2; Path=/';
    const early = await load();
    early.requestProfileEarly();
    expect(early.takeEarlyProfile(request('/v1/users/me', 'tok2'))).toBeUndefined();
    expect(early.takeEarlyProfile(request(early.EARLY_PROFILE_PATH, 'other'))).toBeUndefined();
    expect(early.takeEarlyProfile(request(early.EARLY_PROFILE_PATH, 'tok2', 'DELETE'))).toBeUndefined();
    expect(early.takeEarlyProfile(request(early.EARLY_PROFILE_PATH, 'tok2'))).toBeDefined();
  });

  describe('with the answer the gateway put in the page', () => {
    const put = (text: string) => {
      const script = document.createElement('script');
      script.type = 'application/json';
      script.id = 'account-answer';
      script.textContent = text;
      document.head.append(script);
    };
    afterEach(() => document.getElementById('account-answer')?.remove());

    it('answers the first profile request from it, sending none', async () => {
      document.cookie = 'token=tok3; Path=/';
      put(JSON.stringify({ status: 200, body: { success: true, guid: 'g1', email: 'a@example.com' } }));
      const early = await load();
      early.requestProfileEarly();
      expect(calls).toEqual([]);
      const answer = await early.takeEarlyProfile(request(early.EARLY_PROFILE_PATH, 'tok3'))!;
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(await answer.json()).toEqual({ success: true, guid: 'g1', email: 'a@example.com' });
      expect(early.takeEarlyProfile(request(early.EARLY_PROFILE_PATH, 'tok3'))).toBeUndefined();
    });

    it('is not used without a session cookie', async () => {
      put(JSON.stringify({ status: 200, body: { success: true } }));
      const early = await load();
      early.requestProfileEarly();
      expect(calls).toEqual([]);
      expect(early.takeEarlyProfile(request(early.EARLY_PROFILE_PATH, 'tok3'))).toBeUndefined();
    });

    it.each(['not json', '{"status":404,"body":{"success":false}}', '{"status":200,"body":null}', '{"status":200}'])(
      'sends the request when the answer is unusable: %s',
      async (text) => {
        document.cookie = 'token=tok4; Path=/';
        put(text);
        const early = await load();
        early.requestProfileEarly();
        expect(calls).toEqual([{ url: '/v1/users/me?include=services', authorization: 'Bearer tok4' }]);
      },
    );
  });
});
