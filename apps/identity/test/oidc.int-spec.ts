import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import {
  oidcSubjectOf,
  signInAtOidcProvider,
  startOidcProvider,
  TestPlatform,
  uniqueEmail,
  type OidcTestPerson,
  type RunningOidcProvider,
} from '@tinkerdesk/testing';

const PUBLIC_URL = 'http://localhost:18099';
const GOOGLE = { clientId: 'tinkerdesk-google', clientSecret: 'google test secret' };
const GITHUB = { clientId: 'tinkerdesk-github', clientSecret: 'github test secret' };

let platform: TestPlatform;
let google: RunningOidcProvider;
let github: RunningOidcProvider;
/** Accepts connections and never answers: the Facebook issuer that hangs. */
let silent: Server;
const sockets: Socket[] = [];

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Starts a sign-in and drives the provider's login page: answers the redirect back to the web app. */
async function throughProvider(provider: string, person: OidcTestPerson, returnTo?: string): Promise<URL> {
  const started = await call('POST', `/v1/auth/${provider}/authorize`, returnTo === undefined ? undefined : { returnTo });
  expect(started.status).toBe(200);
  return signInAtOidcProvider(started.body.url as string, person);
}

function exchangePath(provider: string, back: URL): string {
  const query = new URLSearchParams({ state: back.searchParams.get('state') ?? '' });
  const iss = back.searchParams.get('iss');
  if (iss) query.set('iss', iss);
  return `/v1/${provider}/credentials/exchange/${encodeURIComponent(back.searchParams.get('code') ?? '')}?${query.toString()}`;
}

async function socialSignIn(provider: string, person: OidcTestPerson, returnTo?: string) {
  return call('POST', exchangePath(provider, await throughProvider(provider, person, returnTo)));
}

beforeAll(async () => {
  google = await startOidcProvider({ clients: [{ ...GOOGLE, redirectUris: [`${PUBLIC_URL}/login/oauth/google`] }] });
  github = await startOidcProvider({
    clients: [{ ...GITHUB, redirectUris: [`${PUBLIC_URL}/login/oauth/github`] }],
    claimsInIdToken: false,
  });
  silent = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const silentPort = (silent.address() as { port: number }).port;
  platform = await TestPlatform.start(['identity', 'gateway'], {
    PUBLIC_URL,
    OIDC_GOOGLE_ISSUER: google.issuer,
    OIDC_GOOGLE_CLIENT_ID: GOOGLE.clientId,
    OIDC_GOOGLE_CLIENT_SECRET: GOOGLE.clientSecret,
    OIDC_GITHUB_ISSUER: github.issuer,
    OIDC_GITHUB_CLIENT_ID: GITHUB.clientId,
    OIDC_GITHUB_CLIENT_SECRET: GITHUB.clientSecret,
    OIDC_FACEBOOK_ISSUER: `http://127.0.0.1:${silentPort}`,
    OIDC_FACEBOOK_CLIENT_ID: 'tinkerdesk-facebook',
    OIDC_TIMEOUT_MS: '1000',
  });
}, 90_000);

afterAll(async () => {
  await platform?.close();
  await google?.close();
  await github?.close();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
});

describe('social sign-in (OpenID Connect)', () => {
  it('lists the configured providers in display order', async () => {
    expect(await call('GET', '/v1/auth/providers')).toEqual({
      status: 200,
      body: {
        success: true,
        providers: [
          { id: 'google', name: 'Google' },
          { id: 'github', name: 'GitHub' },
          { id: 'facebook', name: 'Facebook' },
        ],
      },
    });
  });

  it("answers the provider's authorization URL with PKCE (S256), state and nonce, and keeps only the state's hash", async () => {
    const res = await call('POST', '/v1/auth/google/authorize', { returnTo: '/account?tab=1' });
    expect(res.status).toBe(200);
    const url = new URL(res.body.url as string);
    expect(`${url.origin}${url.pathname}`).toBe(`${google.issuer}/auth`);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      response_type: 'code',
      client_id: GOOGLE.clientId,
      redirect_uri: `${PUBLIC_URL}/login/oauth/google`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(q.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const rows = await platform.query<{ state_hash: string; code_verifier: string; provider: string; return_to: string; minutes: number }>(
      `SELECT state_hash, code_verifier, provider, return_to, extract(epoch FROM expires_at - now()) / 60 AS minutes
       FROM identity.oidc_login WHERE state_hash = $1`,
      [sha256(q.state ?? '')],
    );
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({ provider: 'google', return_to: '/account?tab=1' });
    expect(createHash('sha256').update(row.code_verifier).digest('base64url')).toBe(q.code_challenge);
    expect(Number(row.minutes)).toBeGreaterThan(9.5);
    expect(Number(row.minutes)).toBeLessThanOrEqual(10);
    const stored = await platform.query(`SELECT 1 FROM identity.oidc_login WHERE state_hash = $1 OR code_verifier = $1`, [q.state]);
    expect(stored).toHaveLength(0);

    expect((await call('POST', '/v1/auth/google/authorize')).status).toBe(200);
    for (const returnTo of ['//evil.example', 'https://evil.example/', '/\\evil.example', 'account', `/${'a'.repeat(500)}`]) {
      expect(await call('POST', '/v1/auth/google/authorize', { returnTo })).toMatchObject({
        status: 400,
        body: { error: 'VALIDATION_FAILED' },
      });
    }
  });

  it('signs up through the provider, signs in again as the same account, and never with a password', async () => {
    const email = uniqueEmail('google');
    const first = await socialSignIn('google', { email, name: 'Ada Lovelace' }, '/account');
    expect(first).toMatchObject({
      status: 200,
      body: { success: true, verified: true, returnTo: '/account', profile: { email, name: 'Ada Lovelace', verified: true } },
    });
    const token = first.body.token as string;
    const guid = (first.body.profile as { guid: string }).guid;
    expect(await call('GET', '/v1/users/me', undefined, token)).toMatchObject({ status: 200, body: { guid, email } });
    const [row] = await platform.query<{ provider: string; provider_subject: string; password_hash: string | null }>(
      `SELECT provider, provider_subject, password_hash FROM identity."user" WHERE id = $1`,
      [guid],
    );
    expect(row).toEqual({ provider: 'google', provider_subject: oidcSubjectOf(email), password_hash: null });

    const again = await socialSignIn('google', { email: email.toUpperCase(), name: 'Someone Else' });
    expect(again).toMatchObject({ status: 200, body: { returnTo: null, profile: { guid, email, name: 'Ada Lovelace' } } });
    expect(again.body.token).not.toBe(token);

    const wrongPassword = await call('POST', `/v1/users/${encodeURIComponent(email)}/signin`, { password: 'no password at all' });
    const noAccount = await call('POST', `/v1/users/${encodeURIComponent(uniqueEmail('nobody'))}/signin`, {
      password: 'no password at all',
    });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body).toEqual(noAccount.body);
  });

  it('takes email, email_verified and name from userinfo when the ID token does not carry them', async () => {
    const email = uniqueEmail('github');
    const res = await socialSignIn('github', { email, name: 'Grace Hopper', emailVerified: false });
    expect(res).toMatchObject({
      status: 200,
      body: { verified: false, returnTo: null, profile: { email, name: 'Grace Hopper', verified: false } },
    });
  });

  it('answers 409 with the key of the provider when the email belongs to another account', async () => {
    const email = uniqueEmail('taken');
    expect((await call('POST', '/v1/users', { email, password: 'password of the owner' })).status).toBe(201);
    expect(await socialSignIn('google', { email: email.toUpperCase() })).toEqual({
      status: 409,
      body: { success: false, error: 'EMAIL_IN_USE', detail: 'this email address is already in use', key: 'error_email_in_use_google' },
    });

    const viaGithub = uniqueEmail('via-github');
    expect((await socialSignIn('github', { email: viaGithub })).status).toBe(200);
    expect(await socialSignIn('google', { email: viaGithub })).toMatchObject({ status: 409, body: { key: 'error_email_in_use_google' } });
  });

  it('answers 409 error_email_in_use_internal to a password sign-up with the email of a social account', async () => {
    const email = uniqueEmail('social-first');
    expect((await socialSignIn('google', { email })).status).toBe(200);
    expect(await call('POST', '/v1/users', { email, password: 'a password for it' })).toMatchObject({
      status: 409,
      body: { error: 'EMAIL_IN_USE', key: 'error_email_in_use_internal' },
    });
  });

  it('accepts a state once, for its own provider, within ten minutes', async () => {
    const back = await throughProvider('google', { email: uniqueEmail('once') });
    expect((await call('POST', exchangePath('google', back))).status).toBe(200);
    const reused = await call('POST', exchangePath('google', back));
    expect(reused).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED' } });
    expect(reused.body.detail).toContain('start the sign-in again');

    expect(await call('POST', '/v1/google/credentials/exchange/some-code?state=never-issued')).toMatchObject({
      status: 400,
      body: { error: 'VALIDATION_FAILED' },
    });
    expect(await call('POST', '/v1/google/credentials/exchange/some-code')).toMatchObject({
      status: 400,
      body: { error: 'VALIDATION_FAILED', detail: expect.stringContaining('state is required') },
    });

    const other = await throughProvider('github', { email: uniqueEmail('mixup') });
    const mixed = await call('POST', exchangePath('google', other));
    expect(mixed).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED' } });
    expect(mixed.body.detail).toContain('started with github');

    const late = await throughProvider('google', { email: uniqueEmail('late') });
    await platform.query(`UPDATE identity.oidc_login SET expires_at = now() - interval '1 second' WHERE state_hash = $1`, [
      sha256(late.searchParams.get('state') ?? ''),
    ]);
    expect(await call('POST', exchangePath('google', late))).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED' } });
  });

  it('answers 401 (not 500) when the provider does not accept the code', async () => {
    const back = await throughProvider('google', { email: uniqueEmail('forged') });
    back.searchParams.set('code', 'forged-code-forged-code-forged-code');
    const res = await call('POST', exchangePath('google', back));
    expect(res).toMatchObject({ status: 401, body: { error: 'UNAUTHORIZED' } });
    expect(res.body.detail).toContain('Google did not accept the sign-in code');
  });

  it('answers 404 for an unknown provider', async () => {
    expect(await call('POST', '/v1/auth/myspace/authorize')).toMatchObject({
      status: 404,
      body: { error: 'NOT_FOUND', detail: expect.stringContaining("unknown sign-in provider 'myspace'") },
    });
    expect(await call('POST', '/v1/myspace/credentials/exchange/code?state=x')).toMatchObject({
      status: 404,
      body: { error: 'NOT_FOUND' },
    });
  });

  it('answers 503 quickly when a provider hangs or is down', async () => {
    const started = Date.now();
    const hanging = await call('POST', '/v1/auth/facebook/authorize');
    expect(hanging).toMatchObject({
      status: 503,
      body: { error: 'UNAVAILABLE', detail: expect.stringContaining('Facebook sign-in is not available') },
    });
    expect(Date.now() - started).toBeLessThan(5000);

    const back = await throughProvider('github', { email: uniqueEmail('down') });
    await github.close();
    const down = await call('POST', exchangePath('github', back));
    expect(down).toMatchObject({
      status: 503,
      body: { error: 'UNAVAILABLE', detail: expect.stringContaining('GitHub sign-in is not available') },
    });
  });
});
