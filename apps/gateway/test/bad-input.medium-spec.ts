import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { uniqueEmail } from '@tinkerdesk/testing';
import { startMediumGateway, type MediumGateway } from './medium.js';

// Bad input never reaches a 500: each cause a fuzz of every route once found, through the real
// gateway and services. Each answers a 4xx in the envelope, and nothing is written.

let gateway: MediumGateway;
let token: string;
let guid: string;

/** A raw JSON text sent as it is (for bodies JSON.stringify cannot make, or would reject). */
async function rawJson(method: string, path: string, text: string, auth?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth) headers.authorization = `Bearer ${auth}`;
  const res = await fetch(`${gateway.url}${path}`, { method, headers, body: text });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

/** Bytes written on a socket as they are; resolves to the whole answer as text. */
function rawHttp(request: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
  });
}

function parseRaw(answer: string): { status: number; headers: string; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body) };
}

const nested = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const nestedArray = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

beforeAll(async () => {
  gateway = await startMediumGateway();
  const signUp = await gateway.call('POST', '/v1/users', { email: uniqueEmail('bad-input'), password: 'correct horse battery' });
  token = signUp.body.token as string;
  guid = (signUp.body.profile as { guid: string }).guid;
}, 90_000);

afterAll(async () => {
  await gateway?.close();
});

describe('deeply nested JSON', () => {
  it('is refused before validation on every kind of JSON route (1,500 levels in 3 KB would overflow the stack)', async () => {
    for (const [path, auth] of [
      ['/v1/users', undefined],
      ['/v1/contact', undefined],
      ['/v1/users/me', token],
      [`/v1/users/${guid}/signin`, undefined],
    ] as const) {
      for (const text of [nested(1500), nestedArray(1500), `{"name":${nested(40)}}`]) {
        const res = await rawJson('POST', path, text, auth);
        expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 400, error: 'VALIDATION_FAILED' });
        expect(res.body.detail).toMatch(/nests deeper than 32 levels/);
      }
    }
  });

  it('still accepts ordinary bodies', async () => {
    const res = await rawJson('POST', '/v1/users/me', JSON.stringify({ name: 'Ada' }), token);
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Ada');
  });
});

describe('null in an optional field', () => {
  it('is refused (optional means absent, not null) and changes nothing', async () => {
    await gateway.call('POST', '/v1/users/me', { name: 'Before', tz: 'Europe/Paris' }, token);
    for (const body of [{ name: null }, { tz: null }, { name: 'After', tz: null }]) {
      const res = await gateway.call('POST', '/v1/users/me', body, token);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('VALIDATION_FAILED');
      expect(res.body.detail).toMatch(/(name|tz) must not be null: leave it out instead/);
    }
    const me = await gateway.call('GET', '/v1/users/me', undefined, token);
    expect(me.body).toMatchObject({ name: 'Before', tz: 'Europe/Paris' });
  });

  it('is refused in the query and in other bodies too', async () => {
    const code = await gateway.call('POST', '/v1/users/me/codes', { kind: 'tokenswap', user: null }, token);
    expect(code.status).toBe(400);
    const authorize = await gateway.call('POST', '/v1/auth/google/authorize', { returnTo: null });
    expect(authorize.status).toBe(400);
  });

  it('leaves a left-out field alone', async () => {
    const res = await gateway.call('POST', '/v1/users/me', { tz: 'Asia/Tokyo' }, token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Before', tz: 'Asia/Tokyo' });
  });
});

describe('the NUL character', () => {
  it('is refused in any text of a body, naming the field', async () => {
    const name = await gateway.call('POST', '/v1/users/me', { name: 'Ada\u0000Lovelace' }, token);
    expect(name).toMatchObject({
      status: 400,
      body: { error: 'VALIDATION_FAILED', detail: 'name must not contain the NUL character (\\u0000)' },
    });

    // The database is shared with the other medium tests: look for this test's own address only.
    const asker = uniqueEmail('nul-asker');
    const contact = await gateway.call('POST', '/v1/contact', { name: 'Ada', email: asker, question: 'why\u0000?' });
    expect(contact).toMatchObject({
      status: 400,
      body: { error: 'VALIDATION_FAILED', detail: 'question must not contain the NUL character (\\u0000)' },
    });
    const stored = await gateway.query<{ n: string }>('SELECT count(*) AS n FROM identity.contact_message WHERE email = $1', [asker]);
    expect(stored[0]?.n).toBe('0');

    const email = await gateway.call('POST', '/v1/users', { email: 'a\u0000b@example.com', password: 'correct horse battery' });
    expect(email.status).toBe(400);
    const key = await rawJson('POST', '/v1/contact', '{"na\\u0000me":"x","name":"Ada","email":"ada@example.com","question":"q"}');
    expect(key.status).toBe(400);
    expect(key.body.detail).toMatch(/field name .* NUL/);
  });

  it('is refused in a path segment and in the query', async () => {
    const signIn = await gateway.call('POST', '/v1/users/a%00/signin', { password: 'whatever-it-is' });
    expect(signIn).toMatchObject({
      status: 400,
      body: { error: 'VALIDATION_FAILED', detail: 'path parameter guid must not contain the NUL character (\\u0000)' },
    });
    for (const path of ['/v1/users/%00', '/v1/codes/ab%00cd/exchange', '/v1/users/me?include=services%00']) {
      const method = path.includes('exchange') ? 'POST' : 'GET';
      const res = await gateway.call(method, path, undefined, token);
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 400, error: 'VALIDATION_FAILED' });
    }
  });

  it("is refused in an upload's file name, and nothing is queued", async () => {
    // A raw NUL in a part header is malformed multipart; the RFC 5987 form decodes to one.
    const boundary = 'tinkerdeskboundary';
    const part = (disposition: string) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="to"\r\n\r\nwebp\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: image/png\r\n\r\n`),
        Buffer.from([137, 80, 78, 71]),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const send = (body: Buffer) =>
      fetch(`${gateway.url}/v1/convert/upload`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` },
        body: new Uint8Array(body),
      });
    const encoded = await send(part("filename*=UTF-8''evil%00.png"));
    expect(encoded.status).toBe(400);
    expect(await encoded.json()).toEqual({
      success: false,
      error: 'VALIDATION_FAILED',
      detail: 'the file name must not contain the NUL character (\\u0000)',
    });
    const raw = await send(part('filename="evil\u0000.png"'));
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ success: false, error: 'VALIDATION_FAILED' });
    const jobs = await gateway.query<{ n: string }>('SELECT count(*) AS n FROM conversion.job WHERE owner_id = $1', [guid]);
    expect(jobs[0]?.n).toBe('0');
  });
});

describe("errors Node's HTTP parser answers before the app", () => {
  it('answers a bad request line in the envelope', async () => {
    const answer = parseRaw(await rawHttp('THIS IS NOT HTTP\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.headers).toContain('content-type: application/json');
    expect(answer.body).toMatchObject({ success: false, error: 'BAD_REQUEST' });
  });

  it('answers headers too large with 431 in the envelope', async () => {
    const answer = parseRaw(await rawHttp(`GET /v1/health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual({
      success: false,
      error: 'HEADERS_TOO_LARGE',
      detail: 'the request headers are larger than this server accepts',
    });
  });

  it('answers a broken chunked body in the envelope', async () => {
    const answer = parseRaw(
      await rawHttp(
        'POST /v1/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      ),
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, error: 'BAD_REQUEST' });
  });
});

describe('a method a route does not have', () => {
  it('answers 405 with the allowed methods when the path exists', async () => {
    for (const [method, path, allow] of [
      ['DELETE', '/v1/users/me', 'GET, HEAD, POST'],
      ['GET', '/v1/contact', 'POST'],
      ['PUT', `/v1/users/${guid}/signin`, 'POST'],
      ['POST', '/v1/health', 'GET, HEAD'],
    ] as const) {
      const res = await fetch(`${gateway.url}${path}`, { method });
      expect({ path, method, status: res.status, allow: res.headers.get('allow') }).toEqual({ path, method, status: 405, allow });
      expect(await res.json()).toMatchObject({ success: false, error: 'METHOD_NOT_ALLOWED' });
    }
  });

  it('answers 404 for a path no route has', async () => {
    const res = await gateway.call('POST', '/v1/no/such/route', {});
    expect(res).toMatchObject({ status: 404, body: { success: false, error: 'NOT_FOUND' } });
  });
});

describe('lists longer than their bound', () => {
  it('are refused at once, before every item is validated (100,000 redirect URIs)', async () => {
    // Short items, so the body stays within BODY_LIMIT and reaches validation.
    const redirectUris = new Array(100_000).fill('h');
    const answer = await gateway.call('POST', '/v1/oauth2/apps', { name: 'Long list', redirectUris, scopes: ['profile'] }, token);
    expect(answer).toMatchObject({
      status: 400,
      body: { success: false, error: 'VALIDATION_FAILED', detail: 'redirectUris may have at most 10 URIs' },
    });
    const apps = await gateway.call('GET', '/v1/oauth2/apps', undefined, token);
    expect(apps.body.apps).toEqual([]);
  });

  it('are refused past the ceiling of any list, whatever the route', async () => {
    const answer = await gateway.call('POST', '/v1/contact', {
      name: 'A',
      email: 'a@example.com',
      question: 'hi',
      extra: new Array(10_001).fill(1),
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { success: false, error: 'VALIDATION_FAILED', detail: 'extra may hold at most 10000 items' },
    });
  });
});

describe('sharing nothing', () => {
  it('refuses an empty or blank share content for links and notes, and the inbox stays empty', async () => {
    const registered = await gateway.call(
      'POST',
      '/v1/terminals',
      {
        label: 'Empty share target',
        send: true,
        receive: true,
        active: true,
        platform: 'Browser (desktop)',
        capabilities: [],
        remote: false,
      },
      token,
    );
    expect(registered.status).toBe(201);
    const id = (registered.body.terminal as { id: string }).id;
    for (const contentType of ['text/x-uri', 'text/plain']) {
      for (const content of ['', '   ', '\n\t']) {
        const answer = await gateway.call('POST', `/v1/terminals/${id}/share`, { contentType, content }, token);
        expect({ contentType, content, status: answer.status, body: answer.body }).toMatchObject({
          contentType,
          content,
          status: 400,
          body: { success: false, error: 'VALIDATION_FAILED', detail: 'content must not be empty: share a link or some text' },
        });
      }
    }
    const inbox = await gateway.call('GET', `/v1/terminals/${id}/inbox`, undefined, token);
    expect(inbox).toMatchObject({ status: 200, body: { shares: [], total: 0 } });
  });
});
