import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ROOT, uniqueEmail } from '@tinkerdesk/testing';
import { existsSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { startMediumGateway, type MediumGateway } from './medium.js';

/**
 * A signed-in visitor's /account is painted by the gateway from its own read of their account
 * (apps/gateway/src/web/account-page.ts), with that read inlined for the app: only for the visitor the
 * `token` cookie names while their session lives, never stored by a cache, and the same page as
 * everyone's otherwise. Against the real build (`npm run build` runs before the tests).
 */
const WEB_DIST = join(ROOT, 'apps/web/dist');
const NAME = 'Ada </script><script>alert(1)</script> & Co';

let gateway: MediumGateway;
let token: string;
let guid: string;
let address: string;

/** The page as a browser with this Cookie header gets it (supertest decodes no brotli: asked for as it is). */
async function page(path: string, cookie?: string) {
  let test = gateway.http.get(path).set('accept-encoding', 'identity');
  if (cookie !== undefined) test = test.set('cookie', cookie);
  const res = await test;
  return { status: res.status, html: res.text, headers: res.headers as Record<string, string> };
}

/** The inlined answer of the page, or none. */
const inlined = (html: string): unknown => {
  const json = /<script type="application\/json" id="account-answer">(.*?)<\/script>/s.exec(html)?.[1];
  return json === undefined ? undefined : JSON.parse(json);
};

beforeAll(async () => {
  if (!existsSync(join(WEB_DIST, 'shells', 'account.mjs'))) throw new Error(`${WEB_DIST} is not built: run npm run build first`);
  gateway = await startMediumGateway({ WEB_DIST });
  address = uniqueEmail('account-page');
  const created = await gateway.call('POST', '/v1/users', { email: address, password: 'account pages in medium tests' });
  token = created.body.token as string;
  guid = (created.body.profile as { guid: string }).guid;
  expect((await gateway.call('POST', '/v1/users/me', { name: NAME, tz: 'Europe/Berlin' }, token)).status).toBe(200);
}, 90_000);

afterAll(async () => {
  await gateway?.close();
});

describe("a signed-in visitor's /account", () => {
  it('is painted from their account, with the same answer GET /v1/users/me?include=services gives, never stored', async () => {
    const me = await gateway.call('GET', '/v1/users/me?include=services', undefined, token);
    for (const path of ['/account', '/account/', '/account/profile']) {
      const { status, html, headers } = await page(path, `loggedIn=true; token=${encodeURIComponent(token)}`);
      expect([path, status]).toEqual([path, 200]);
      expect(headers['cache-control']).toBe('private, no-store');
      expect(headers['vary']).toBe('Accept-Encoding, Cookie');
      expect(inlined(html)).toEqual({ status: 200, body: me.body });
      // The dashboard's Profile section, with the visitor's own name and address in it, escaped.
      const main = /<main id="main"[\s\S]*<\/main>/.exec(html)?.[0] ?? '';
      expect(main).toContain('<h1>Account</h1>');
      expect(main).toContain(`<strong>${address}</strong>`);
      expect(main).toContain('value="Ada &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co"');
      expect(main).toContain('<option value="Europe/Berlin" selected="">Europe/Berlin</option>');
      expect(main).toContain('inert=""');
      expect(html).not.toContain('<script>alert(1)');
    }
  });

  it('is sent compressed as the browser accepts it', async () => {
    // node:http, which decodes nothing: the bytes on the wire.
    const { headers, body } = await new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = request(
        new URL('/account', gateway.url),
        { headers: { 'accept-encoding': 'gzip, deflate, br', cookie: `token=${token}` } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(headers['content-encoding']).toBe('br');
    expect(headers['cache-control']).toBe('private, no-store');
    expect(brotliDecompressSync(body).toString()).toContain(`<strong>${address}</strong>`);
  });

  it('is everyone’s page without the cookie, with a cookie that names no live session, and on every other page', async () => {
    const cases: Array<[string, string | undefined]> = [
      ['/account', undefined],
      ['/account', 'loggedIn=true'],
      ['/account', 'token=not-a-session'],
      ['/account', `token=${'A'.repeat(64)}`], // the shape of an app's OAuth access token
      ['/account', 'token=%E0%A4%A'],
      ['/account/selling', `token=${token}`],
      ['/', `token=${token}`],
      ['/tools/', `token=${token}`],
    ];
    for (const [path, cookie] of cases) {
      const { status, html, headers } = await page(path, cookie);
      expect([path, cookie, status]).toEqual([path, cookie, 200]);
      expect([path, cookie, inlined(html)]).toEqual([path, cookie, undefined]);
      expect(html).not.toContain(address);
      expect(headers['cache-control']).toBe('no-cache');
      if (path === '/account') expect(headers['vary']).toBe('Accept-Encoding, Cookie');
    }
  });

  it('is everyone’s page once the session has ended', async () => {
    const other = await gateway.call('POST', '/v1/users', { email: uniqueEmail('account-page-out'), password: 'account pages log out' });
    const otherToken = other.body.token as string;
    const otherGuid = (other.body.profile as { guid: string }).guid;
    expect(inlined((await page('/account', `token=${otherToken}`)).html)).toBeDefined();
    expect((await gateway.call('POST', `/v1/users/${otherGuid}/logout`, undefined, otherToken)).status).toBe(200);
    const after = await page('/account', `token=${otherToken}`);
    expect(inlined(after.html)).toBeUndefined();
    expect(after.headers['cache-control']).toBe('no-cache');
    // The first visitor's page is theirs still.
    expect(inlined((await page('/account', `token=${token}`)).html)).toMatchObject({ body: { guid } });
  });
});
