import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { uniqueEmail } from '@tinkerdesk/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMediumGateway, type MediumGateway } from './medium.js';

/**
 * POST /v1/users/{guid}/fetch through the real gateway and identity: a loopback "site" on the
 * allow-list (FETCH_ALLOWED_HOSTS=127.0.0.1) proves the good path; the same site by another name
 * (localhost, [::1], 2130706433) is refused, as is every inside address; only the account itself
 * may use its guid.
 */
let gateway: MediumGateway;
let site: Server;
let port: number;
let hits = 0;
let token: string;
let guid: string;

beforeAll(async () => {
  site = createServer((req, res) => {
    hits++;
    if (req.url === '/hello.json') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ hello: 'world', auth: req.headers.authorization ?? null }));
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(4096));
    } else if (req.url?.startsWith('/to-inside')) {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    } else {
      res.writeHead(404, 'Not Found').end();
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  port = (site.address() as AddressInfo).port;
  gateway = await startMediumGateway({
    FETCH_ALLOWED_HOSTS: '127.0.0.1',
    FETCH_MAX_BYTES: '2048',
    FETCH_TIMEOUT_MS: '3000',
    RATE_LIMIT_FACTOR: '1000',
  });
  const created = await gateway.call('POST', '/v1/users', { email: uniqueEmail('fetch'), password: 'fetching password' });
  token = created.body.token as string;
  guid = (created.body.profile as { guid: string }).guid;
}, 90_000);

afterAll(async () => {
  await gateway?.close();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

/** `bearer` null: no Authorization header. */
const fetchAs = (body: unknown, who = guid, bearer: string | null = token) =>
  gateway.call('POST', `/v1/users/${who}/fetch`, body, bearer ?? undefined);

describe('POST /v1/users/{guid}/fetch', () => {
  it('fetches an allowed URL and answers its content in base64 with type, name and size', async () => {
    const answer = await fetchAs({ url: `http://127.0.0.1:${port}/hello.json`, headers: { Authorization: 'Bearer upstream' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      success: true,
      contentType: 'application/json',
      filename: 'hello.json',
      url: `http://127.0.0.1:${port}/hello.json`,
    });
    const content = Buffer.from(answer.body.content as string, 'base64').toString();
    expect(JSON.parse(content)).toEqual({ hello: 'world', auth: 'Bearer upstream' });
    expect(answer.body.size).toBe(Buffer.byteLength(content));
  });

  it('needs a token, and answers 404 for another account’s guid as for an unknown one', async () => {
    expect(await fetchAs({ url: `http://127.0.0.1:${port}/hello.json` }, guid, null)).toMatchObject({
      status: 401,
      body: { error: 'UNAUTHORIZED' },
    });
    const other = await gateway.call('POST', '/v1/users', { email: uniqueEmail('other'), password: 'another password' });
    const theirs = await fetchAs({ url: `http://127.0.0.1:${port}/hello.json` }, (other.body.profile as { guid: string }).guid);
    const unknown = await fetchAs({ url: `http://127.0.0.1:${port}/hello.json` }, '6f1c3a52-1f6e-4c8a-9d3b-6a2f7c1e9b40');
    expect(theirs).toMatchObject({ status: 404, body: { success: false, error: 'NOT_FOUND' } });
    expect(unknown).toMatchObject({ status: 404, body: theirs.body });
  });

  it.each([
    ['the allowed site under another name', 'http://localhost:PORT/hello.json'],
    ['IPv6 loopback', 'http://[::1]:PORT/hello.json'],
    ['a decimal spelling of 127.0.0.2 (loopback, not on the list)', 'http://2130706434:PORT/'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['a private address', 'http://10.0.0.1/'],
    ['an IPv4-mapped IPv6 address', 'http://[::ffff:10.0.0.1]/'],
    ['a file URL', 'file:///etc/passwd'],
  ])('refuses %s with 403 URL_NOT_ALLOWED, without connecting', async (_what, url) => {
    const before = hits;
    const answer = await fetchAs({ url: url.replace('PORT', String(port)) });
    expect(answer).toMatchObject({ status: 403, body: { success: false, error: 'URL_NOT_ALLOWED' } });
    expect(typeof answer.body.detail).toBe('string');
    expect(hits).toBe(before);
  });

  it('checks a redirect again: an allowed site sending the fetch inside is refused', async () => {
    expect(await fetchAs({ url: `http://127.0.0.1:${port}/to-inside` })).toMatchObject({ status: 403, body: { error: 'URL_NOT_ALLOWED' } });
  });

  it('answers the site’s error, a too-large body and bad input in the envelope', async () => {
    const missing = await fetchAs({ url: `http://127.0.0.1:${port}/nothing` });
    expect(missing).toMatchObject({
      status: 502,
      body: { success: false, error: 'UPSTREAM_ERROR', detail: `127.0.0.1:${port} answered 404 Not Found` },
    });
    expect(await fetchAs({ url: `http://127.0.0.1:${port}/big` })).toMatchObject({ status: 413, body: { error: 'PAYLOAD_TOO_LARGE' } });
    expect(await fetchAs({})).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED' } });
    expect(await fetchAs({ url: 'not a url' })).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED' } });
    expect(await fetchAs({ url: `http://127.0.0.1:${port}/`, headers: ['x'] })).toMatchObject({
      status: 400,
      body: { error: 'VALIDATION_FAILED' },
    });
    expect(await fetchAs({ url: `http://127.0.0.1:${port}/`, headers: { 'x-a': 'b\r\nx-b: c' } })).toMatchObject({
      status: 400,
      body: { error: 'VALIDATION_FAILED' },
    });
    expect(await fetchAs({ url: `http://127.0.0.1:${port}/`, headers: null })).toMatchObject({ status: 400 });
  });

  it('answers an unreachable site with 503 UNAVAILABLE', async () => {
    // a port on the allowed host where nothing listens
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await fetchAs({ url: `http://127.0.0.1:${freePort}/` })).toMatchObject({ status: 503, body: { error: 'UNAVAILABLE' } });
  });
});
