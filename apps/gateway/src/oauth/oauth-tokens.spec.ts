import { describe, expect, it } from '@jest/globals';
import type { OAuthServer } from './oauth-provider.js';
import { OAUTH_ACCESS_TOKEN, OAuthTokens } from './oauth-tokens.js';

/** The rules of an app's access token on /v1, with oidc-provider's token and grant lookups faked. */

const RESOURCE = 'https://tinkerdesk.test/v1';
const ADA = '4f1c1c9e-7c57-4c8e-9b57-0c9b1f4b6a11';

interface FakeToken {
  isExpired: boolean;
  aud: string | string[];
  grantId?: string;
  accountId?: string;
  clientId?: string;
  scope?: string;
}

function tokens(token: FakeToken | undefined, grants: string[] = ['g1']): OAuthTokens {
  const server = {
    resource: RESOURCE,
    provider: {
      AccessToken: { find: (value: string) => Promise.resolve(value === TOKEN ? token : undefined) },
      Grant: { find: (id: string) => Promise.resolve(grants.includes(id) ? { id } : undefined) },
    },
  } as unknown as OAuthServer;
  return new OAuthTokens(server);
}

const TOKEN = 'l'.repeat(64);
const LIVE: FakeToken = { isExpired: false, aud: RESOURCE, grantId: 'g1', accountId: ADA, clientId: 'app', scope: 'profile terminals' };

describe('OAuthTokens.verify', () => {
  it('refuses an unknown, expired, foreign-audience or grantless token as INVALID_TOKEN', async () => {
    await expect(tokens(LIVE).verify('u'.repeat(64), 'profile')).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await expect(tokens(LIVE).verify(`${TOKEN}x`, 'profile')).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await expect(tokens(LIVE).verify('unknown', 'profile')).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await expect(tokens({ ...LIVE, isExpired: true }).verify(TOKEN, 'profile')).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await expect(tokens({ ...LIVE, aud: 'https://elsewhere/api' }).verify(TOKEN, 'profile')).rejects.toMatchObject({
      code: 'INVALID_TOKEN',
    });
    await expect(tokens(LIVE, []).verify(TOKEN, 'profile')).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await expect(tokens({ ...LIVE, accountId: undefined }).verify(TOKEN, 'profile')).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('refuses a route without a scope, and a scope the token lacks, with FORBIDDEN naming insufficient_scope', async () => {
    await expect(tokens(LIVE).verify(TOKEN, undefined)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('insufficient_scope'),
    });
    await expect(tokens(LIVE).verify(TOKEN, 'convert')).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('it needs the convert scope'),
    });
  });

  it("answers the token's user, app and scopes when its scope covers the route", async () => {
    expect(await tokens({ ...LIVE, aud: [RESOURCE, 'other'] }).verify(TOKEN, 'terminals')).toEqual({
      userId: ADA,
      sessionId: 'oauth:g1',
      clientId: 'app',
      grantId: 'g1',
      scopes: ['profile', 'terminals'],
    });
  });
});

describe('OAuthTokens userinfo and grants', () => {
  it('takes openid as a scope a call may need (userinfo), and tells whether a grant lives', async () => {
    await expect(tokens(LIVE).verify(TOKEN, 'openid')).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('openid'),
    });
    expect(await tokens({ ...LIVE, scope: 'openid email profile' }).verify(TOKEN, 'openid')).toMatchObject({
      scopes: ['openid', 'email', 'profile'],
    });
    expect(await tokens(LIVE).grantLives('g1')).toBe(true);
    expect(await tokens(LIVE, []).grantLives('g1')).toBe(false);
    expect(await tokens(LIVE, []).find(TOKEN)).toBeUndefined();
  });
});

describe('OAUTH_ACCESS_TOKEN', () => {
  it('tells an app token (64 characters) from a session token (43) and a terminal token', () => {
    expect(OAUTH_ACCESS_TOKEN.test('a'.repeat(64))).toBe(true);
    expect(OAUTH_ACCESS_TOKEN.test('a'.repeat(43))).toBe(false);
    expect(OAUTH_ACCESS_TOKEN.test(`tt_${'a'.repeat(43)}`)).toBe(false);
    expect(OAUTH_ACCESS_TOKEN.test(`${'a'.repeat(63)}!`)).toBe(false);
  });
});
