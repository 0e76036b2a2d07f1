// eslint-disable-next-line no-restricted-imports -- a test of the Node run reads the committed document; the client itself stays browser-safe
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { createApiClient, NetworkError, unwrap } from './index.js';
import { isKeyedCreate, KEYED_ROUTES } from './retries.js';

type Seen = { url: string; method: string; key: string | null; body: string };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A gateway that answers each request in turn from `answers` (a Response, or a thrown network failure). */
function gateway(answers: Array<Response | Error>) {
  const seen: Seen[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    seen.push({ url: request.url, method: request.method, key: request.headers.get('idempotency-key'), body: await request.text() });
    const next = answers.shift() ?? json(500, { success: false, error: 'INTERNAL' });
    if (next instanceof Error) throw next;
    return next;
  };
  return { seen, fetch };
}

const unavailable = () => json(503, { success: false, error: 'UNAVAILABLE', detail: 'the terminals service is not available' });
const registered = () => json(201, { success: true, terminal: { id: 't1' }, terminalToken: 'tt_1' });
const TERMINAL = {
  label: 'Tablet',
  send: true,
  receive: true,
  active: true,
  platform: 'Browser (desktop)' as const,
  capabilities: [] as string[],
  remote: false,
};

describe('creates are keyed and retried with the same key', () => {
  it('a create after a 503 and a network failure is sent again with the same key and body; the answer is the last one', async () => {
    const gw = gateway([unavailable(), new TypeError('fetch failed'), registered()]);
    const client = createApiClient({ baseUrl: 'http://gw.test', fetch: gw.fetch, retryDelaysMs: [1, 1] });
    const answer = await unwrap(client.POST('/v1/terminals', { body: TERMINAL }));
    expect(answer.terminalToken).toBe('tt_1');
    expect(gw.seen).toHaveLength(3);
    const key = gw.seen[0]!.key;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(gw.seen.map((s) => [s.key, JSON.parse(s.body)])).toEqual([
      [key, TERMINAL],
      [key, TERMINAL],
      [key, TERMINAL],
    ]);
  });

  it('each call is its own key; a call that names its own key keeps it', async () => {
    const gw = gateway([registered(), registered(), registered()]);
    const client = createApiClient({ baseUrl: 'http://gw.test', fetch: gw.fetch, retryDelaysMs: [1] });
    await unwrap(client.POST('/v1/terminals', { body: TERMINAL }));
    await unwrap(client.POST('/v1/terminals', { body: TERMINAL }));
    await unwrap(client.POST('/v1/terminals', { body: TERMINAL, params: { header: { 'Idempotency-Key': 'mine' } } } as never));
    expect(gw.seen[0]!.key).not.toBe(gw.seen[1]!.key);
    expect(gw.seen[2]!.key).toBe('mine');
  });

  it('gives up after its retries: the last 503 is the answer, a network failure a NetworkError', async () => {
    const down = gateway([unavailable(), unavailable(), unavailable()]);
    const client = createApiClient({ baseUrl: 'http://gw.test', fetch: down.fetch, retryDelaysMs: [1, 1] });
    await expect(unwrap(client.POST('/v1/terminals', { body: TERMINAL }))).rejects.toMatchObject({ status: 503, error: 'UNAVAILABLE' });
    expect(down.seen).toHaveLength(3);
    const cut = gateway([new TypeError('a'), new TypeError('b')]);
    const again = createApiClient({ baseUrl: 'http://gw.test', fetch: cut.fetch, retryDelaysMs: [1] });
    await expect(unwrap(again.POST('/v1/terminals', { body: TERMINAL }))).rejects.toBeInstanceOf(NetworkError);
    expect(new Set(cut.seen.map((s) => s.key)).size).toBe(1);
  });

  it('sends every other call once and unkeyed, whatever it answers (a 409 or 400 is no reason to retry either)', async () => {
    const gw = gateway([unavailable(), json(409, { success: false, error: 'CONFLICT', detail: 'x' })]);
    const client = createApiClient({ baseUrl: 'http://gw.test', fetch: gw.fetch, retryDelaysMs: [1, 1] });
    await expect(unwrap(client.POST('/v1/account/resetpassword/setup', { body: { email: 'a@example.com' } }))).rejects.toMatchObject({
      status: 503,
    });
    await expect(unwrap(client.POST('/v1/terminals', { body: TERMINAL }))).rejects.toMatchObject({ status: 409 });
    expect(gw.seen.map((s) => [s.url.replace('http://gw.test', ''), s.key === null])).toEqual([
      ['/v1/account/resetpassword/setup', true],
      ['/v1/terminals', false],
    ]);
  });

  it('stops waiting when the call is aborted', async () => {
    const gw = gateway([unavailable(), registered()]);
    const client = createApiClient({ baseUrl: 'http://gw.test', fetch: gw.fetch, retryDelaysMs: [10_000] });
    const abort = new AbortController();
    const call = unwrap(client.POST('/v1/terminals', { body: TERMINAL, signal: abort.signal }));
    setTimeout(() => abort.abort(), 20);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(gw.seen).toHaveLength(1);
  });
});

describe('KEYED_ROUTES', () => {
  it('is exactly the POST routes openapi.json documents with an Idempotency-Key header', () => {
    const document = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as {
      paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>>;
    };
    const documented = Object.entries(document.paths)
      .filter(([, operations]) => operations.post?.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'))
      .map(([path]) => path);
    expect([...KEYED_ROUTES].sort()).toEqual(documented.sort());
  });

  it('matches a route with its parameters filled in, and no other path or method', () => {
    const at = (method: string, path: string) => isKeyedCreate(new Request(`http://gw.test${path}`, { method }));
    expect(at('POST', '/v1/users/u1/services/s1/order')).toBe(true);
    expect(at('POST', '/v1/terminals/t1/share')).toBe(true);
    expect(at('POST', '/v1/terminals/t1')).toBe(false);
    expect(at('POST', '/v1/files/f1/complete')).toBe(false);
    expect(at('GET', '/v1/terminals')).toBe(false);
    // Creates are keyed; the updates on the same paths with an id are not (saving them twice changes nothing more).
    expect(at('POST', '/v1/users')).toBe(true);
    expect(at('POST', '/v1/users/me')).toBe(false);
    expect(at('POST', '/v1/users/u1/services')).toBe(true);
    expect(at('POST', '/v1/users/u1/services/s1')).toBe(false);
    expect(at('POST', '/v1/users/u1/services/s1/products')).toBe(true);
    expect(at('POST', '/v1/users/u1/services/s1/products/p1')).toBe(false);
    expect(at('POST', '/v1/paymentmethods')).toBe(true);
    expect(at('POST', '/v1/paymentmethods/m1/default')).toBe(false);
    expect(at('POST', '/v1/oauth2/apps')).toBe(true);
    expect(at('POST', '/v1/oauth2/apps/a1/secret')).toBe(false);
    expect(at('POST', '/v1/orders/o1/reply')).toBe(true);
    expect(at('POST', '/v1/contact')).toBe(true);
  });
});
