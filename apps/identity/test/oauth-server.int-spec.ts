import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CookieJar, LiveStreamReader, TestPlatform, uniqueEmail } from '@tinkerdesk/testing';
import { createRemoteJWKSet, jwtVerify } from 'jose';

/**
 * Tinkerdesk as an OAuth 2 authorization server, driven the way an integrator's app and a user's
 * browser drive it, through the real gateway (oidc-provider with its records in identity) and the
 * real identity and terminals services: app registration, discovery and JWKS, the authorization
 * code flow with PKCE through consent (allow and refuse), every refusal of the protocol (wrong
 * redirect URI, missing and wrong PKCE verifier, a code used twice, an expired code), scoped access
 * tokens on /v1, refresh rotation with reuse detection, revocation and withdrawal of a consent.
 */
let platform: TestPlatform;
let client: Server;
let clientUrl: string;
/** Every query the app's loopback callback received. */
const callbacks: URLSearchParams[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

interface User {
  token: string;
}

async function user(tag: string): Promise<User> {
  const created = await call('POST', '/v1/users', { email: uniqueEmail(tag), password: 'oauth password 1' });
  expect(created.status).toBe(201);
  return { token: created.body.token as string };
}

interface App {
  id: string;
  secret: string;
  redirectUri: string;
}

async function registerApp(owner: User, scopes = ['openid', 'profile', 'terminals']): Promise<App> {
  const redirectUri = `${clientUrl}/callback`;
  const answer = await call('POST', '/v1/oauth2/apps', { name: 'Shelf scanner', redirectUris: [redirectUri], scopes }, owner.token);
  expect(answer.status).toBe(201);
  return { id: (answer.body.app as { id: string }).id, secret: answer.body.clientSecret as string, redirectUri };
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A browser: keeps cookies and follows redirects inside the site; stops at the app's callback (which it opens) or a page. */
class Browser {
  readonly jar = new CookieJar();

  constructor(readonly signedIn?: User) {}

  async open(url: string): Promise<{ status: number; url: URL; text: string }> {
    let current = new URL(url, platform.url);
    for (let hops = 0; hops < 10; hops++) {
      if (current.origin === new URL(clientUrl).origin) {
        const res = await fetch(current);
        return { status: res.status, url: current, text: await res.text() };
      }
      const cookies = [this.jar.header(), this.signedIn ? `token=${this.signedIn.token}` : ''].filter(Boolean).join('; ');
      const res = await fetch(current, { redirect: 'manual', headers: cookies ? { cookie: cookies } : {} });
      this.jar.store(res);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { status: res.status, url: current, text: await res.text() };
      current = new URL(location, current);
    }
    throw new Error('too many redirects');
  }

  /** A call the consent page makes (fetch from the site: its cookies and the user's bearer token). */
  async api(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${platform.url}${path}`, {
      headers: { cookie: this.jar.header(), ...(this.signedIn ? { authorization: `Bearer ${this.signedIn.token}` } : {}) },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
}

function authorizeUrl(app: App, params: Record<string, string | undefined>): string {
  const url = new URL(`${platform.url}/v1/oauth2/auth`);
  const all: Record<string, string | undefined> = {
    client_id: app.id,
    redirect_uri: app.redirectUri,
    response_type: 'code',
    scope: 'openid profile terminals',
    state: randomBytes(8).toString('hex'),
    code_challenge_method: 'S256',
    ...params,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** The browser goes to the app's authorization URL, lands on the consent page, and the user allows. */
async function authorize(browser: Browser, app: App, params: Record<string, string | undefined> = {}): Promise<URLSearchParams> {
  const consent = await browser.open(authorizeUrl(app, params));
  const uid = /\/oauth2\/consent\/([A-Za-z0-9_-]+)$/.exec(consent.url.pathname)?.[1];
  expect(uid).toBeDefined();
  const back = await browser.open(`/v1/oauth2/setup?interaction=${uid}`);
  expect(back.url.origin).toBe(new URL(clientUrl).origin);
  return back.url.searchParams;
}

/** A form POST of the app to one of the provider's endpoints, with its client authentication (Basic). */
async function asApp(app: App, path: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${platform.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(app.id)}:${encodeURIComponent(app.secret)}`).toString('base64')}`,
    },
    body: new URLSearchParams(form),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

const token = (app: App, form: Record<string, string>) => asApp(app, '/v1/oauth2/token', form);

async function codeFor(browser: Browser, app: App, scope = 'openid profile terminals') {
  const { verifier, challenge } = pkce();
  const back = await authorize(browser, app, { code_challenge: challenge, scope });
  return { code: back.get('code') ?? '', verifier, back };
}

async function tokensFor(browser: Browser, app: App, scope?: string) {
  const { code, verifier } = await codeFor(browser, app, scope);
  const answer = await token(app, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, code_verifier: verifier });
  expect(answer.status).toBe(200);
  return answer.body as { access_token: string; refresh_token: string; id_token: string; scope: string; token_type: string };
}

beforeAll(async () => {
  client = createServer((req, res) => {
    callbacks.push(new URL(req.url ?? '/', 'http://x').searchParams);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('the app got its answer');
  });
  await new Promise<void>((r) => client.listen(0, '127.0.0.1', () => r()));
  clientUrl = `http://127.0.0.1:${(client.address() as AddressInfo).port}`;
  const port = await freePort();
  platform = await TestPlatform.start(['identity', 'terminals', 'gateway'], {
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    OAUTH_CODE_TTL_SECONDS: '3',
    // This file signs up more accounts than one address may in an hour.
    RATE_LIMIT_FACTOR: '100',
  });
}, 120_000);

afterAll(async () => {
  await platform?.close();
  await new Promise<void>((r) => client?.close(() => r()));
});

describe('apps', () => {
  it('registers an app with a secret shown once, lists and deletes it; refuses bad input and strangers', async () => {
    const owner = await user('oauth-apps');
    const app = await registerApp(owner);
    expect(app.secret).toMatch(/^tds_[A-Za-z0-9_-]{43}$/);
    const list = await call('GET', '/v1/oauth2/apps', undefined, owner.token);
    expect(list.body.apps).toEqual([
      expect.objectContaining({
        id: app.id,
        name: 'Shelf scanner',
        redirectUris: [app.redirectUri],
        tokenEndpointAuthMethod: 'client_secret_basic',
      }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(app.secret);

    const bad = [
      { name: '', redirectUris: ['https://a.example/cb'], scopes: ['profile'] },
      { name: 'x', redirectUris: ['http://a.example/cb'], scopes: ['profile'] },
      { name: 'x', redirectUris: ['https://a.example/cb#frag'], scopes: ['profile'] },
      { name: 'x', redirectUris: [], scopes: ['profile'] },
      { name: 'x', redirectUris: ['https://a.example/cb'], scopes: ['admin'] },
      { name: 'x', redirectUris: ['https://a.example/cb'], scopes: ['profile'], tokenEndpointAuthMethod: 'private_key_jwt' },
    ];
    for (const body of bad) {
      const answer = await call('POST', '/v1/oauth2/apps', body, owner.token);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ success: false, error: 'VALIDATION_FAILED', detail: expect.any(String) });
    }
    expect((await call('POST', '/v1/oauth2/apps', bad[0])).status).toBe(401);

    const stranger = await user('oauth-stranger');
    expect((await call('DELETE', `/v1/oauth2/apps/${app.id}`, undefined, stranger.token)).status).toBe(404);
    expect((await call('DELETE', '/v1/oauth2/apps/not-a-uuid', undefined, owner.token)).status).toBe(400);
    expect((await call('DELETE', `/v1/oauth2/apps/${app.id}`, undefined, owner.token)).status).toBe(204);
    expect((await call('DELETE', `/v1/oauth2/apps/${app.id}`, undefined, owner.token)).status).toBe(404);
    expect((await call('GET', '/v1/oauth2/apps', undefined, owner.token)).body.apps).toEqual([]);
  });

  it('registers who made an app and its links; the owner edits name, redirect URIs and links, checked as at registration; others get 404', async () => {
    const owner = await user('oauth-edit');
    const created = await call(
      'POST',
      '/v1/oauth2/apps',
      {
        name: 'Shelf scanner',
        redirectUris: [`${clientUrl}/callback`],
        scopes: ['openid', 'profile'],
        developerName: 'Shelf Tools Ltd',
        developerContact: 'support@shelf.example.com',
        homepageUrl: 'https://shelf.example.com',
      },
      owner.token,
    );
    expect(created.status).toBe(201);
    const app = created.body.app as { id: string };
    expect(created.body.app).toMatchObject({
      developerName: 'Shelf Tools Ltd',
      developerContact: 'support@shelf.example.com',
      homepageUrl: 'https://shelf.example.com',
      privacyUrl: null,
      termsUrl: null,
    });

    const edited = await call(
      'PATCH',
      `/v1/oauth2/apps/${app.id}`,
      {
        name: '  Shelf scanner 2 ',
        redirectUris: ['https://shelf.example.com/cb', 'http://localhost:5173/cb'],
        privacyUrl: 'https://shelf.example.com/privacy',
        homepageUrl: '',
      },
      owner.token,
    );
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      success: true,
      app: {
        id: app.id,
        name: 'Shelf scanner 2',
        redirectUris: ['https://shelf.example.com/cb', 'http://localhost:5173/cb'],
        developerName: 'Shelf Tools Ltd',
        homepageUrl: null,
        privacyUrl: 'https://shelf.example.com/privacy',
        scopes: ['openid', 'profile'],
      },
    });
    const listed = (await call('GET', '/v1/oauth2/apps', undefined, owner.token)).body.apps as Array<Record<string, unknown>>;
    expect(listed[0]).toMatchObject({ name: 'Shelf scanner 2', privacyUrl: 'https://shelf.example.com/privacy', homepageUrl: null });

    // The new redirect URIs are the ones the authorization server knows now: the old one is refused.
    const browser = new Browser(owner);
    const authorize = (redirect: string) =>
      `/v1/oauth2/auth?${new URLSearchParams({
        client_id: app.id,
        redirect_uri: redirect,
        response_type: 'code',
        scope: 'openid',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      })}`;
    const old = await browser.open(authorize(`${clientUrl}/callback`));
    expect(old.status).toBe(400);
    expect(old.text).toContain('redirect_uri');
    const fresh = await browser.open(authorize('https://shelf.example.com/cb'));
    expect(fresh.url.pathname).toMatch(/^\/oauth2\/consent\//);

    const bad = [
      { redirectUris: ['http://shelf.example.com/cb'] },
      { redirectUris: ['https://shelf.example.com/cb#frag'] },
      { redirectUris: [] },
      { name: '   ' },
      { homepageUrl: 'javascript:alert(1)' },
      { privacyUrl: 'ftp://shelf.example.com/privacy' },
      { termsUrl: 'https://user:pw@shelf.example.com/terms' },
      { developerName: 'x'.repeat(81) },
    ];
    for (const body of bad) {
      const answer = await call('PATCH', `/v1/oauth2/apps/${app.id}`, body, owner.token);
      expect({ body, status: answer.status }).toEqual({ body, status: 400 });
      expect(answer.body).toMatchObject({ success: false, error: 'VALIDATION_FAILED', detail: expect.any(String) });
    }
    expect((await call('PATCH', `/v1/oauth2/apps/${app.id}`, { name: 'Mine now' })).status).toBe(401);
    const stranger = await user('oauth-edit-stranger');
    const theirs = await call('PATCH', `/v1/oauth2/apps/${app.id}`, { name: 'Mine now' }, stranger.token);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ success: false, error: 'NOT_FOUND' });
    expect((await call('GET', '/v1/oauth2/apps', undefined, owner.token)).body.apps).toEqual([
      expect.objectContaining({ name: 'Shelf scanner 2' }),
    ]);
  });
});

describe('discovery', () => {
  it('publishes the OpenID configuration and a JWKS whose key signs the ID tokens', async () => {
    const discovery = await call('GET', '/v1/oauth2/.well-known/openid-configuration');
    expect(discovery.status).toBe(200);
    const issuer = `${platform.url}/v1/oauth2`;
    expect(discovery.body).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/auth`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      revocation_endpoint: `${issuer}/token/revocation`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
    expect(discovery.body.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    const jwks = (await (await fetch(`${issuer}/jwks`)).json()) as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', use: 'sig', alg: 'RS256', kid: expect.any(String) });
    expect(Object.keys(jwks.keys[0]!).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);

    const owner = await user('oauth-idtoken');
    const app = await registerApp(owner, ['openid', 'email', 'profile']);
    const tokens = await tokensFor(new Browser(owner), app, 'openid email profile');
    const { payload } = await jwtVerify(tokens.id_token, createRemoteJWKSet(new URL(`${issuer}/jwks`)), { issuer, audience: app.id });
    const me = await call('GET', '/v1/users/me', undefined, owner.token);
    expect(payload.sub).toBe((me.body as { guid: string }).guid);
  });
});

describe('authorization code flow', () => {
  let owner: User;
  let app: App;

  beforeAll(async () => {
    owner = await user('oauth-flow');
    app = await registerApp(owner);
  });

  it('shows the consent page the app and its scopes, grants, and the token works only within its scopes', async () => {
    const browser = new Browser(owner);
    const { challenge, verifier } = pkce();
    const state = 'state-123';
    const consent = await browser.open(authorizeUrl(app, { code_challenge: challenge, state }));
    const uid = consent.url.pathname.split('/').pop()!;
    expect(consent.url.pathname).toBe(`/oauth2/consent/${uid}`);
    const details = await browser.api(`/v1/oauth2/interaction/${uid}`);
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({
      interaction: uid,
      app: { id: app.id, name: 'Shelf scanner' },
      redirectOrigin: clientUrl,
      scopes: [
        { name: 'openid', description: expect.any(String) },
        { name: 'profile', description: expect.any(String) },
        { name: 'terminals', description: expect.any(String) },
      ],
    });
    const back = await browser.open(`/v1/oauth2/setup?interaction=${uid}`);
    expect(back.url.pathname).toBe('/callback');
    expect(back.url.searchParams.get('state')).toBe(state);
    expect(back.url.searchParams.get('iss')).toBe(`${platform.url}/v1/oauth2`);
    expect(callbacks.at(-1)?.get('code')).toBe(back.url.searchParams.get('code'));

    const tokens = await token(app, {
      grant_type: 'authorization_code',
      code: back.url.searchParams.get('code')!,
      redirect_uri: app.redirectUri,
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', scope: expect.stringContaining('terminals') });
    const access = tokens.body.access_token as string;
    expect(access).toMatch(/^[A-Za-z0-9_-]{64}$/);

    const me = await call('GET', '/v1/users/me', undefined, access);
    expect(me.status).toBe(200);
    expect((await call('GET', '/v1/terminals', undefined, access)).status).toBe(200);
    // Outside its scopes: convert was not granted; the account's own areas never take an app's token.
    for (const [method, path] of [
      ['GET', '/v1/convert/formats'],
      ['GET', '/v1/oauth2/apps'],
      ['GET', '/v1/oauth2/consents'],
      ['GET', '/v1/timeline'],
      ['GET', '/v1/paymentinstruments'],
    ] as const) {
      const refused = await call(method, path, undefined, access);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ success: false, error: 'FORBIDDEN', detail: expect.stringContaining('insufficient_scope') });
    }
    const altered = `${access.slice(0, 63)}${access.endsWith('x') ? 'y' : 'x'}`;
    expect((await call('GET', '/v1/users/me', undefined, altered)).status).toBe(401);
  });

  it('names the app asking to a signed-out browser (the sign-in page before consent), only in the browser that started the request', async () => {
    const browser = new Browser();
    const consent = await browser.open(authorizeUrl(app, { code_challenge: pkce().challenge }));
    const uid = consent.url.pathname.split('/').pop()!;
    expect(consent.url.pathname).toBe(`/oauth2/consent/${uid}`);
    const asking = await browser.api(`/v1/oauth2/interaction/${uid}/app`);
    expect(asking).toMatchObject({ status: 200, body: { success: true, app: { id: app.id, name: 'Shelf scanner' } } });
    expect(Object.keys(asking.body).sort()).toEqual(['app', 'success']);
    // The consent details themselves still need the signed-in user.
    expect((await browser.api(`/v1/oauth2/interaction/${uid}`)).status).toBe(401);
    // Another browser (without the request's cookie) learns nothing.
    expect(await new Browser().api(`/v1/oauth2/interaction/${uid}/app`)).toMatchObject({
      status: 410,
      body: { success: false, error: 'LINK_INVALID' },
    });
    expect((await browser.api('/v1/oauth2/interaction/bad!/app')).status).toBe(400);
  });

  it('a refusal returns the browser to the app with error=access_denied', async () => {
    const browser = new Browser(owner);
    const consent = await browser.open(authorizeUrl(app, { code_challenge: pkce().challenge, state: 'no-thanks' }));
    const uid = consent.url.pathname.split('/').pop()!;
    const back = await browser.open(`/v1/oauth2/reject?interaction=${uid}`);
    expect(back.url.pathname).toBe('/callback');
    expect(back.url.searchParams.get('error')).toBe('access_denied');
    expect(back.url.searchParams.get('state')).toBe('no-thanks');
    expect(back.url.searchParams.get('code')).toBeNull();
  });

  it('setup needs the browser that started the request, and a signed-in user', async () => {
    const browser = new Browser(owner);
    const consent = await browser.open(authorizeUrl(app, { code_challenge: pkce().challenge }));
    const uid = consent.url.pathname.split('/').pop()!;
    // Another browser (without the request's cookies) cannot finish it, even signed in.
    const other = await new Browser(owner).open(`/v1/oauth2/setup?interaction=${uid}`);
    expect(other.status).toBe(410);
    // No session: 401.
    const anonymous = new Browser();
    for (const [k, v] of Object.entries(
      Object.fromEntries(
        browser.jar
          .header()
          .split('; ')
          .map((c) => c.split('=')),
      ),
    )) {
      anonymous.jar.store(new Response(null, { headers: { 'set-cookie': `${k}=${v}` } }));
    }
    expect((await anonymous.open(`/v1/oauth2/setup?interaction=${uid}`)).status).toBe(401);
    expect((await browser.open('/v1/oauth2/setup?interaction=bad!')).status).toBe(400);
  });

  it('a wrong redirect URI is never redirected to; a request without PKCE is refused', async () => {
    const browser = new Browser(owner);
    const wrong = await browser.open(authorizeUrl(app, { code_challenge: pkce().challenge, redirect_uri: `${clientUrl}/elsewhere` }));
    expect(wrong.url.origin).toBe(platform.url);
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('redirect_uri');

    const before = callbacks.length;
    const noPkce = await browser.open(authorizeUrl(app, { code_challenge: undefined, code_challenge_method: undefined }));
    expect(noPkce.url.pathname).toBe('/callback');
    expect(noPkce.url.searchParams.get('error')).toBe('invalid_request');
    expect(callbacks.length).toBe(before + 1);
  });

  it('refuses a wrong or missing verifier, a code used twice (ending its tokens) and an expired code', async () => {
    const browser = new Browser(owner);
    let grant = await codeFor(browser, app);
    const exchange = (code: string, verifier?: string) =>
      token(app, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: app.redirectUri,
        ...(verifier ? { code_verifier: verifier } : {}),
      });
    expect((await exchange(grant.code, pkce().verifier)).body.error).toBe('invalid_grant');
    grant = await codeFor(browser, app);
    expect((await exchange(grant.code)).body.error).toBe('invalid_grant');

    grant = await codeFor(browser, app);
    const first = await exchange(grant.code, grant.verifier);
    expect(first.status).toBe(200);
    const second = await exchange(grant.code, grant.verifier);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    expect((await call('GET', '/v1/users/me', undefined, first.body.access_token as string)).status).toBe(401);

    grant = await codeFor(browser, app);
    await new Promise((r) => setTimeout(r, 4000));
    expect((await exchange(grant.code, grant.verifier)).body.error).toBe('invalid_grant');

    const otherApp = await registerApp(owner);
    grant = await codeFor(browser, app);
    const stolen = await token(otherApp, {
      grant_type: 'authorization_code',
      code: grant.code,
      redirect_uri: otherApp.redirectUri,
      code_verifier: grant.verifier,
    });
    expect(stolen.body.error).toBe('invalid_grant');
    const badSecret = await token({ ...app, secret: 'tds_wrong' }, { grant_type: 'authorization_code', code: 'x', code_verifier: 'y' });
    expect(badSecret.status).toBe(401);
    expect(badSecret.body.error).toBe('invalid_client');
  });

  it('rotates refresh tokens, and a reused one ends the whole grant', async () => {
    const tokens = await tokensFor(new Browser(owner), app);
    const rotated = await token(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(rotated.status).toBe(200);
    const next = rotated.body as { access_token: string; refresh_token: string };
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect((await call('GET', '/v1/terminals', undefined, next.access_token)).status).toBe(200);

    const reused = await token(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(reused.body.error).toBe('invalid_grant');
    expect((await token(app, { grant_type: 'refresh_token', refresh_token: next.refresh_token })).body.error).toBe('invalid_grant');
    expect((await call('GET', '/v1/terminals', undefined, next.access_token)).status).toBe(401);
  });

  it("replaces an app's secret: the new one is shown once, the old one stops at once; a public app has none", async () => {
    const mine = await registerApp(owner);
    const stranger = await user('oauth-secret-stranger');
    expect((await call('POST', `/v1/oauth2/apps/${mine.id}/secret`, undefined, stranger.token)).status).toBe(404);
    const replaced = await call('POST', `/v1/oauth2/apps/${mine.id}/secret`, undefined, owner.token);
    expect(replaced.status).toBe(200);
    const secret = replaced.body.clientSecret as string;
    expect(secret).toMatch(/^tds_/);
    expect(secret).not.toBe(mine.secret);
    const grant = await codeFor(new Browser(owner), mine);
    const form = { grant_type: 'authorization_code', code: grant.code, redirect_uri: mine.redirectUri, code_verifier: grant.verifier };
    expect((await token(mine, form)).body.error).toBe('invalid_client');
    expect((await token({ ...mine, secret }, form)).status).toBe(200);

    const publicApp = await call(
      'POST',
      '/v1/oauth2/apps',
      { name: 'Phone', redirectUris: [`${clientUrl}/callback`], scopes: ['profile'], tokenEndpointAuthMethod: 'none' },
      owner.token,
    );
    expect(publicApp.body.clientSecret).toBeNull();
    const id = (publicApp.body.app as { id: string }).id;
    expect((await call('POST', `/v1/oauth2/apps/${id}/secret`, undefined, owner.token)).status).toBe(409);
  });

  it('revokes a token at the revocation endpoint', async () => {
    const tokens = await tokensFor(new Browser(owner), app);
    const res = await asApp(app, '/v1/oauth2/token/revocation', { token: tokens.access_token });
    expect(res.status).toBe(200);
    expect((await call('GET', '/v1/terminals', undefined, tokens.access_token)).status).toBe(401);
  });

  it('lists consents in the account; withdrawing one ends its tokens; another user cannot see or withdraw it', async () => {
    const person = await user('oauth-withdraw');
    const tokens = await tokensFor(new Browser(person), app);
    const consents = await call('GET', '/v1/oauth2/consents', undefined, person.token);
    const list = consents.body.consents as Array<{ id: string; appId: string; appName: string; scopes: string[] }>;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ appId: app.id, appName: 'Shelf scanner', scopes: ['openid', 'profile', 'terminals'] });

    const stranger = await user('oauth-withdraw-stranger');
    expect((await call('GET', '/v1/oauth2/consents', undefined, stranger.token)).body.consents).toEqual([]);
    expect((await call('DELETE', `/v1/oauth2/consents/${list[0]!.id}`, undefined, stranger.token)).status).toBe(404);
    expect((await call('GET', '/v1/terminals', undefined, tokens.access_token)).status).toBe(200);

    expect((await call('DELETE', `/v1/oauth2/consents/${list[0]!.id}`, undefined, person.token)).status).toBe(204);
    expect((await call('GET', '/v1/terminals', undefined, tokens.access_token)).status).toBe(401);
    expect((await token(app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).body.error).toBe('invalid_grant');
    expect((await call('GET', '/v1/oauth2/consents', undefined, person.token)).body.consents).toEqual([]);
    expect((await call('DELETE', `/v1/oauth2/consents/${list[0]!.id}`, undefined, person.token)).status).toBe(404);
  });
});

/** A terminal's fields (an app registers it on the user's behalf). */
const TERMINAL = {
  label: 'Shelf scanner terminal',
  send: true,
  receive: true,
  active: true,
  platform: 'Browser (desktop)',
  capabilities: [],
  remote: false,
};

/** A terminal registered through an app's access token (scope terminals). */
async function terminalThroughApp(access: string): Promise<{ id: string; token: string }> {
  const created = await call('POST', '/v1/terminals', TERMINAL, access);
  expect(created.status).toBe(201);
  return { id: (created.body.terminal as { id: string }).id, token: created.body.terminalToken as string };
}

/** What a terminal token can still do: read its terminal, its inbox, and share. */
async function terminalWorks(terminal: { id: string; token: string }): Promise<number[]> {
  return [
    (await call('GET', `/v1/terminals/${terminal.id}`, undefined, terminal.token)).status,
    (await call('GET', `/v1/terminals/${terminal.id}/inbox`, undefined, terminal.token)).status,
    (await call('POST', `/v1/terminals/${terminal.id}/share`, { contentType: 'text/plain', content: 'hello' }, terminal.token)).status,
  ];
}

const introspect = (app: App, value: string) => asApp(app, '/v1/oauth2/token/introspection', { token: value });

describe('one consent per user and app (issue 27, item 7)', () => {
  let owner: User;
  let app: App;

  beforeAll(async () => {
    owner = await user('oauth-consent-owner');
    app = await registerApp(owner);
  });

  it('two browsers authorize the app: one consent is listed, and withdrawing it ends every token and terminal of both', async () => {
    const person = await user('oauth-two-browsers');
    const laptop = await tokensFor(new Browser(person), app);
    const phone = await tokensFor(new Browser(person), app);
    // Each browser's refresh token rotates on its own (one grant per browser).
    const rotated = await token(app, { grant_type: 'refresh_token', refresh_token: phone.refresh_token });
    expect(rotated.status).toBe(200);
    const phoneNow = rotated.body as { access_token: string; refresh_token: string };
    const terminal = await terminalThroughApp(laptop.access_token);
    expect(await terminalWorks(terminal)).toEqual([200, 200, 200]);
    // The list names the app that made the terminal; the user's own terminals name none.
    await call('POST', '/v1/terminals', { ...TERMINAL, label: 'Own desk' }, person.token);
    const terminals = (await call('GET', '/v1/terminals', undefined, person.token)).body.terminals as Array<Record<string, unknown>>;
    expect(terminals.map((t) => [t.label, t.app])).toEqual([
      ['Shelf scanner terminal', { id: app.id, name: 'Shelf scanner' }],
      ['Own desk', null],
    ]);

    const consents = (await call('GET', '/v1/oauth2/consents', undefined, person.token)).body.consents as Array<Record<string, unknown>>;
    expect(consents).toEqual([
      { id: app.id, appId: app.id, appName: 'Shelf scanner', scopes: ['openid', 'profile', 'terminals'], created: expect.any(String) },
    ]);
    // The account's open pages hear of the app's terminal going, as of one removed by hand.
    const live = (await LiveStreamReader.open(platform.url, person.token)).stream!;
    expect((await call('DELETE', `/v1/oauth2/consents/${app.id}`, undefined, person.token)).status).toBe(204);
    try {
      expect((await live.event('terminal.removed', { terminalId: terminal.id })).ids).toEqual({ terminalId: terminal.id });
    } finally {
      live.close();
    }

    for (const access of [laptop.access_token, phone.access_token, phoneNow.access_token])
      expect((await call('GET', '/v1/terminals', undefined, access)).status).toBe(401);
    for (const refresh of [laptop.refresh_token, phoneNow.refresh_token])
      expect((await token(app, { grant_type: 'refresh_token', refresh_token: refresh })).body.error).toBe('invalid_grant');
    expect(await terminalWorks(terminal)).toEqual([401, 401, 401]);
    const left = (await call('GET', '/v1/terminals', undefined, person.token)).body.terminals as Array<Record<string, unknown>>;
    expect(left.map((t) => t.label)).toEqual(['Own desk']);
    expect((await call('GET', '/v1/oauth2/consents', undefined, person.token)).body.consents).toEqual([]);
    expect((await call('DELETE', `/v1/oauth2/consents/${app.id}`, undefined, person.token)).status).toBe(404);
  });

  it('a code issued before the withdrawal cannot be exchanged after it', async () => {
    const person = await user('oauth-late-code');
    await tokensFor(new Browser(person), app);
    const pending = await codeFor(new Browser(person), app);
    expect((await call('DELETE', `/v1/oauth2/consents/${app.id}`, undefined, person.token)).status).toBe(204);
    const late = await token(app, {
      grant_type: 'authorization_code',
      code: pending.code,
      redirect_uri: app.redirectUri,
      code_verifier: pending.verifier,
    });
    expect(late.body.error).toBe('invalid_grant');
  });

  it("deleting the app ends its terminals' tokens for every user who allowed it", async () => {
    const maker = await user('oauth-delete-maker');
    const doomed = await registerApp(maker);
    const person = await user('oauth-delete-person');
    const tokens = await tokensFor(new Browser(person), doomed);
    const terminal = await terminalThroughApp(tokens.access_token);
    expect(await terminalWorks(terminal)).toEqual([200, 200, 200]);
    expect((await call('DELETE', `/v1/oauth2/apps/${doomed.id}`, undefined, maker.token)).status).toBe(204);
    expect(await terminalWorks(terminal)).toEqual([401, 401, 401]);
    expect((await call('GET', '/v1/terminals', undefined, person.token)).body.terminals).toEqual([]);
    expect((await call('GET', '/v1/oauth2/consents', undefined, person.token)).body.consents).toEqual([]);
  });

  it('a reused refresh token ends its grant with the terminals registered under it, not those of another browser', async () => {
    const person = await user('oauth-reuse-terminal');
    const first = await tokensFor(new Browser(person), app);
    const second = await tokensFor(new Browser(person), app);
    const doomed = await terminalThroughApp(first.access_token);
    const kept = await terminalThroughApp(second.access_token);
    expect((await token(app, { grant_type: 'refresh_token', refresh_token: first.refresh_token })).status).toBe(200);
    expect((await token(app, { grant_type: 'refresh_token', refresh_token: first.refresh_token })).body.error).toBe('invalid_grant');
    expect(await terminalWorks(doomed)).toEqual([401, 401, 401]);
    expect(await terminalWorks(kept)).toEqual([200, 200, 200]);
    const ids = ((await call('GET', '/v1/terminals', undefined, person.token)).body.terminals as Array<{ id: string }>).map((t) => t.id);
    expect(ids).toEqual([kept.id]);
  });

  it('a withdrawal while the terminals service is down still ends the terminal token, and the terminal goes when it is back', async () => {
    const person = await user('oauth-terminals-down');
    const tokens = await tokensFor(new Browser(person), app);
    const terminal = await terminalThroughApp(tokens.access_token);
    await platform.stopProcess('terminals');
    try {
      expect((await call('DELETE', `/v1/oauth2/consents/${app.id}`, undefined, person.token)).status).toBe(204);
    } finally {
      await platform.startProcess('terminals');
    }
    // The terminals service never heard of it: the list (checking each app's grant) and the token both refuse it.
    expect((await call('GET', '/v1/terminals', undefined, person.token)).body.terminals).toEqual([]);
    expect(await terminalWorks(terminal)).toEqual([401, 401, 401]);
  });
});

describe('userinfo (issue 27, item 8)', () => {
  it('a grant of openid email profile keeps them in the token, and userinfo answers sub, email and name', async () => {
    const owner = await user('oauth-userinfo');
    await call('POST', '/v1/users/me', { name: 'Ada Lovelace' }, owner.token);
    const app = await registerApp(owner, ['openid', 'email', 'profile']);
    const tokens = await tokensFor(new Browser(owner), app, 'openid email profile');
    expect(tokens.scope.split(' ').sort()).toEqual(['email', 'openid', 'profile']);
    const me = (await call('GET', '/v1/users/me', undefined, owner.token)).body as { guid: string; email: string; tz: string };
    const expected = { sub: me.guid, email: me.email, email_verified: false, name: 'Ada Lovelace', zoneinfo: me.tz };
    for (const method of ['GET', 'POST']) {
      const res = await fetch(`${platform.url}/v1/oauth2/me`, { method, headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual(expected);
    }
    // A browser app reads it from its own origin (that of its redirect URI), not from another one.
    const preflight = await fetch(`${platform.url}/v1/oauth2/me`, {
      method: 'OPTIONS',
      headers: { origin: clientUrl, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(clientUrl);
    const fromApp = await fetch(`${platform.url}/v1/oauth2/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}`, origin: clientUrl },
    });
    expect(fromApp.headers.get('access-control-allow-origin')).toBe(clientUrl);
    const fromElsewhere = await fetch(`${platform.url}/v1/oauth2/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}`, origin: 'https://elsewhere.example' },
    });
    expect(fromElsewhere.headers.get('access-control-allow-origin')).toBeNull();
    // The same token still works on /v1 within its scopes.
    expect((await call('GET', '/v1/users/me', undefined, tokens.access_token)).status).toBe(200);
    const discovery = (await call('GET', '/v1/oauth2/.well-known/openid-configuration')).body;
    expect(discovery.userinfo_endpoint).toBe(`${platform.url}/v1/oauth2/me`);
    expect(discovery.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
    expect(discovery.claims_supported).toEqual(expect.arrayContaining(['sub', 'email', 'email_verified', 'name', 'zoneinfo']));

    // Only what was granted: openid alone answers sub alone.
    const narrow = await tokensFor(new Browser(owner), app, 'openid');
    const res = await fetch(`${platform.url}/v1/oauth2/me`, { headers: { authorization: `Bearer ${narrow.access_token}` } });
    expect(await res.json()).toEqual({ sub: me.guid });
  });

  it('refuses a token without openid (403 insufficient_scope), an unknown one (401) and a malformed header (400)', async () => {
    const owner = await user('oauth-userinfo-refusals');
    const app = await registerApp(owner);
    const tokens = await tokensFor(new Browser(owner), app, 'profile terminals');
    const ask = async (authorization?: string) => {
      const res = await fetch(`${platform.url}/v1/oauth2/me`, { headers: authorization ? { authorization } : {} });
      return { status: res.status, body: (await res.json()) as Record<string, unknown>, challenge: res.headers.get('www-authenticate') };
    };
    const noOpenid = await ask(`Bearer ${tokens.access_token}`);
    expect(noOpenid).toMatchObject({ status: 403, body: { error: 'insufficient_scope' } });
    expect(noOpenid.challenge).toContain('error="insufficient_scope"');
    expect(await ask(`Bearer ${'x'.repeat(64)}`)).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
    expect(await ask(`Bearer ${'x'.repeat(5000)}`)).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
    expect(await ask('Bearer a%00b')).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await ask('Basic abc')).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await ask()).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });
});

describe('hostile values at the protocol endpoints (issue 27, item 9)', () => {
  const HOSTILE = ['x'.repeat(201), 'x'.repeat(5000), 'abc\u0000def', '%00', '\u0000', '🦄'.repeat(60)];

  it('answers the protocol errors, never 500, for long and NUL client_id, code, refresh_token and token values', async () => {
    const owner = await user('oauth-hostile');
    const app = await registerApp(owner);
    const tokens = await tokensFor(new Browser(owner), app);
    for (const value of HOSTILE) {
      const what = JSON.stringify(value.slice(0, 12));
      const auth = await fetch(authorizeUrl({ ...app, id: value }, { code_challenge: pkce().challenge }), { redirect: 'manual' });
      expect([what, auth.status]).toEqual([what, 400]);
      expect(await auth.text()).toContain('invalid_client');
      // %00 in the query string itself (a NUL once decoded).
      const raw = await fetch(`${platform.url}/v1/oauth2/auth?client_id=${encodeURIComponent(value)}%00&response_type=code`, {
        redirect: 'manual',
      });
      expect([what, raw.status]).toEqual([what, 400]);

      const code = await token(app, {
        grant_type: 'authorization_code',
        code: value,
        redirect_uri: app.redirectUri,
        code_verifier: 'v'.repeat(43),
      });
      expect([what, code.status, code.body.error]).toEqual([what, 400, 'invalid_grant']);
      const refresh = await token(app, { grant_type: 'refresh_token', refresh_token: value });
      expect([what, refresh.status, refresh.body.error]).toEqual([what, 400, 'invalid_grant']);
      const stranger = await token({ ...app, id: value }, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      // An unknown client, or (NUL) a malformed client_id: the RFC's errors.
      expect([what, `${stranger.status} ${stranger.body.error as string}`]).toEqual([
        what,
        expect.stringMatching(/^(401 invalid_client|400 invalid_request)$/),
      ]);
      expect([what, await introspect(app, value)]).toEqual([what, { status: 200, body: { active: false } }]);
      const revoked = await asApp(app, '/v1/oauth2/token/revocation', { token: value });
      expect([what, revoked.status]).toEqual([what, 200]);
      const me = await fetch(`${platform.url}/v1/oauth2/me`, { headers: { authorization: `Bearer ${encodeURIComponent(value)}` } });
      expect([what, me.status < 500 && me.status >= 400]).toEqual([what, true]);
    }
    // The app's own token still works: nothing above broke the provider.
    expect((await introspect(app, tokens.access_token)).body.active).toBe(true);
  });

  it('refuses an app with 100,000 redirect URIs (or scopes) at once, by the list size', async () => {
    const owner = await user('oauth-huge-list');
    for (const body of [
      { name: 'x', redirectUris: Array.from({ length: 100_000 }, () => 'a'), scopes: ['profile'] },
      { name: 'x', redirectUris: ['https://a.example/cb'], scopes: Array.from({ length: 100_000 }, () => 'profile') },
    ]) {
      const answer = await call('POST', '/v1/oauth2/apps', body, owner.token);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        error: 'VALIDATION_FAILED',
        detail: expect.stringMatching(/may have at most (10 URIs|20 scopes)/),
      });
    }
  });
});

describe('introspection across apps (issue 27, item 10)', () => {
  it('only the app a token was issued to learns about it; another registered app gets active: false', async () => {
    const owner = await user('oauth-introspect');
    const mine = await registerApp(owner);
    const other = await registerApp(await user('oauth-introspect-other'));
    const tokens = await tokensFor(new Browser(owner), mine);
    const own = await introspect(mine, tokens.access_token);
    expect(own).toMatchObject({ status: 200, body: { active: true, client_id: mine.id, sub: expect.any(String) } });
    for (const value of [tokens.access_token, tokens.refresh_token]) {
      expect(await introspect(other, value)).toEqual({ status: 200, body: { active: false } });
    }
    expect((await introspect(mine, tokens.refresh_token)).body.active).toBe(true);
  });
});
