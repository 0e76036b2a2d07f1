import { describe, expect, it } from '@jest/globals';
import { ApiError, bearer, createApiClient, NetworkError, unwrap } from './index.js';

type Seen = { url: string; method: string; headers: Headers; body: string };

function fakeGateway(answer: (seen: Seen) => Response) {
  const seen: Seen[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const entry = { url: request.url, method: request.method, headers: request.headers, body: await request.text() };
    seen.push(entry);
    return answer(entry);
  };
  return { seen, fetch };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('createApiClient', () => {
  it('adds the session token, encodes path parameters and sends the JSON body', async () => {
    const gateway = fakeGateway(() => json(200, { success: true, sent: true }));
    const client = createApiClient({ baseUrl: 'http://gw.test', token: () => 'tok-1', fetch: gateway.fetch });
    const answer = await unwrap(client.POST('/v1/users/{guid}/requestverification', { params: { path: { guid: 'a/b c' } } }));
    expect(answer.sent).toBe(true);
    expect(gateway.seen[0]).toMatchObject({ url: 'http://gw.test/v1/users/a%2Fb%20c/requestverification', method: 'POST' });
    expect(gateway.seen[0]!.headers.get('authorization')).toBe('Bearer tok-1');
  });

  it("keeps a call's own token over the client's", async () => {
    const gateway = fakeGateway(() => json(200, { success: true, guid: 'g', name: 'n' }));
    const client = createApiClient({ baseUrl: 'http://gw.test', token: 'client-token', fetch: gateway.fetch });
    await unwrap(client.GET('/v1/users/{id}', { params: { path: { id: 'g' } }, headers: bearer('own') }));
    expect(gateway.seen[0]!.headers.get('authorization')).toBe('Bearer own');
  });

  it('sends no authorization without a token', async () => {
    const gateway = fakeGateway(() => json(200, { success: true }));
    const client = createApiClient({ baseUrl: 'http://gw.test', fetch: gateway.fetch });
    await unwrap(client.POST('/v1/account/resetpassword/setup', { body: { email: 'a@example.com' } }));
    expect(gateway.seen[0]!.headers.has('authorization')).toBe(false);
    expect(JSON.parse(gateway.seen[0]!.body)).toEqual({ email: 'a@example.com' });
  });
});

describe('unwrap', () => {
  it('turns the error envelope into an ApiError with code, detail and the displayed text', async () => {
    const gateway = fakeGateway(() => json(410, { success: false, error: 'LINK_INVALID', detail: 'used already' }));
    const client = createApiClient({ baseUrl: 'http://gw.test', fetch: gateway.fetch });
    const failure = await unwrap(client.POST('/v1/account/verify', { body: { token: 'x' } })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 410, error: 'LINK_INVALID', detail: 'used already', message: 'LINK_INVALID - used already' });
  });

  it('names the status when the answer is not the envelope', async () => {
    const gateway = fakeGateway(() => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    const client = createApiClient({ baseUrl: 'http://gw.test', fetch: gateway.fetch });
    const failure = await unwrap(client.GET('/v1/auth/providers')).catch((e: unknown) => e);
    expect(failure).toMatchObject({ status: 502, error: 'HTTP_502', detail: 'Bad Gateway' });
  });

  it('turns no answer at all into a NetworkError, and lets an abort through as itself', async () => {
    const down = createApiClient({
      baseUrl: 'http://gw.test',
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    await expect(unwrap(down.GET('/v1/auth/providers'))).rejects.toBeInstanceOf(NetworkError);
    const aborted = createApiClient({
      baseUrl: 'http://gw.test',
      fetch: () => Promise.reject(new DOMException('stopped', 'AbortError')),
    });
    await expect(unwrap(aborted.GET('/v1/auth/providers'))).rejects.toMatchObject({ name: 'AbortError' });
  });
});
