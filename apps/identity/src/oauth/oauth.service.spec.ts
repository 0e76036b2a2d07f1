import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { AppError } from '@tinkerdesk/contracts';
import type { GrantRow, OAuthAppRow, OAuthRepository } from './oauth.repository.js';
import { grantScopes, MAX_APPS_PER_USER, OAuthService } from './oauth.service.js';

/** The rules of OAuthService (apps, client metadata, consents) with its repository faked. */

const ADA = '4f1c1c9e-7c57-4c8e-9b57-0c9b1f4b6a11';
const BOB = '9d8e7f6a-5b4c-4d3e-8f2a-1b0c9d8e7f6a';

class FakeRepository {
  apps = new Map<string, OAuthAppRow>();
  grants: Array<GrantRow & { accountId: string }> = [];
  revoked: string[] = [];

  insertApp(app: Omit<OAuthAppRow, 'created'>, max: number): Promise<OAuthAppRow | undefined> {
    if ([...this.apps.values()].filter((a) => a.userId === app.userId).length >= max) return Promise.resolve(undefined);
    const row = { ...app, created: new Date('2026-11-25T10:00:00Z') };
    this.apps.set(row.id, row);
    return Promise.resolve(row);
  }
  app(id: string): Promise<OAuthAppRow | undefined> {
    return Promise.resolve(this.apps.get(id));
  }
  replaceSecret(userId: string, appId: string, secretHash: string): Promise<OAuthAppRow | undefined> {
    const app = this.apps.get(appId);
    if (!app || app.userId !== userId || app.secretHash === null) return Promise.resolve(undefined);
    app.secretHash = secretHash;
    return Promise.resolve(app);
  }
  deleteApp(userId: string, appId: string): Promise<string[] | undefined> {
    const app = this.apps.get(appId);
    if (!app || app.userId !== userId) return Promise.resolve(undefined);
    this.apps.delete(appId);
    return Promise.resolve(this.end((g) => g.clientId === appId));
  }
  liveGrants(accountId: string): Promise<GrantRow[]> {
    return Promise.resolve(this.grants.filter((g) => g.accountId === accountId));
  }
  endConsent(userId: string, id: string): Promise<string[]> {
    const named = this.grants.find((g) => g.accountId === userId && (g.clientId === id || g.id === id));
    return Promise.resolve(named ? this.end((g) => g.accountId === userId && g.clientId === named.clientId) : []);
  }
  private end(which: (g: GrantRow & { accountId: string }) => boolean): string[] {
    const ended = this.grants.filter(which).map((g) => g.id);
    this.grants = this.grants.filter((g) => !which(g));
    this.revoked.push(...ended);
    return ended;
  }
}

let repo: FakeRepository;
let service: OAuthService;

beforeEach(() => {
  repo = new FakeRepository();
  service = new OAuthService(repo as unknown as OAuthRepository);
});

const APP = {
  name: '  Shelf scanner ',
  redirectUris: ['https://a.example/cb', 'https://a.example/cb'],
  scopes: ['terminals', 'openid', 'email'],
} as const;

describe('createApp', () => {
  it('shows a confidential app its secret once and keeps only its SHA-256', async () => {
    const { app, clientSecret } = await service.createApp({
      ...APP,
      scopes: [...APP.scopes],
      redirectUris: [...APP.redirectUris],
      userId: ADA,
    });
    expect(clientSecret).toMatch(/^tds_[A-Za-z0-9_-]{43}$/);
    const stored = repo.apps.get(app.id)!;
    expect(stored.secretHash).toBe(createHash('sha256').update(clientSecret!).digest('hex'));
    expect(JSON.stringify(app)).not.toContain(clientSecret!);
    // Trimmed name, redirect URIs once each, scopes in the catalogue's order.
    expect(app).toMatchObject({ name: 'Shelf scanner', redirectUris: ['https://a.example/cb'], scopes: ['openid', 'email', 'terminals'] });
    expect(app.tokenEndpointAuthMethod).toBe('client_secret_basic');
  });

  it('gives a public app no secret', async () => {
    const { clientSecret, app } = await service.createApp({
      name: 'Phone app',
      redirectUris: ['http://127.0.0.1:7000/cb'],
      scopes: ['profile'],
      tokenEndpointAuthMethod: 'none',
      userId: ADA,
    });
    expect(clientSecret).toBeNull();
    expect(repo.apps.get(app.id)!.secretHash).toBeNull();
  });

  it(`refuses an app past ${MAX_APPS_PER_USER} per account with CONFLICT`, async () => {
    for (let i = 0; i < MAX_APPS_PER_USER; i++)
      await service.createApp({ name: `a${i}`, redirectUris: ['https://a.example/cb'], scopes: ['profile'], userId: ADA });
    const refused = service.createApp({ name: 'one more', redirectUris: ['https://a.example/cb'], scopes: ['profile'], userId: ADA });
    await expect(refused).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(
      service.createApp({ name: 'b', redirectUris: ['https://a.example/cb'], scopes: ['profile'], userId: BOB }),
    ).resolves.toBeDefined();
  });
});

describe('client', () => {
  it('is unknown for a client_id that is not an app', async () => {
    expect(await service.client('not-a-uuid')).toBeNull();
    expect(await service.client('0b7c9e2a-1d3f-4a5b-8c6d-7e8f9a0b1c2d')).toBeNull();
  });

  it("gives oidc-provider the app's metadata: OpenID scopes (openid always) apart from the API's", async () => {
    const { app } = await service.createApp({
      name: 'x',
      redirectUris: ['https://a.example/cb'],
      scopes: ['email', 'passes', 'convert'],
      userId: ADA,
    });
    expect(await service.client(app.id)).toEqual({
      client_id: app.id,
      client_secret: repo.apps.get(app.id)!.secretHash,
      client_name: 'x',
      redirect_uris: ['https://a.example/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: 'openid email',
      api_scope: 'convert passes',
    });
  });
});

describe('deleteApp and withdraw', () => {
  const grant = (id: string, clientId: string, accountId: string, iat: number, payload: Record<string, unknown> = {}) => ({
    id,
    clientId,
    appName: 'x',
    payload,
    created: new Date(iat * 1000),
    accountId,
  });

  it("answers another account's app or consent as missing, and ends nothing", async () => {
    const { app } = await service.createApp({ name: 'x', redirectUris: ['https://a.example/cb'], scopes: ['profile'], userId: ADA });
    await expect(service.deleteApp(BOB, app.id)).rejects.toBeInstanceOf(AppError);
    await expect(service.deleteApp(BOB, app.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    repo.grants.push(grant('grant-1234', app.id, ADA, 1_700_000_000));
    await expect(service.withdraw(BOB, 'grant-1234')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.withdraw(BOB, app.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.withdraw(ADA, 'grant-unknown')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(repo.revoked).toEqual([]);
  });

  it('deleting an app ends every grant of it, and says which', async () => {
    const { app } = await service.createApp({ name: 'x', redirectUris: ['https://a.example/cb'], scopes: ['profile'], userId: ADA });
    repo.grants.push(grant('g-ada', app.id, ADA, 1), grant('g-bob', app.id, BOB, 2), grant('g-other', 'other-app', ADA, 3));
    expect(await service.deleteApp(ADA, app.id)).toEqual({ grantIds: ['g-ada', 'g-bob'] });
    expect(repo.apps.size).toBe(0);
    expect(repo.grants.map((g) => g.id)).toEqual(['g-other']);
  });

  it('lists one consent per app (the grants of every browser together) and withdrawing it ends them all', async () => {
    repo.grants.push(
      grant('g-laptop', 'app-1', ADA, 1_700_000_100, { openid: { scope: 'openid' }, resources: { r: 'terminals' } }),
      grant('g-phone', 'app-1', ADA, 1_700_000_000, { openid: { scope: 'openid email' }, resources: { r: 'profile' } }),
      grant('g-2', 'app-2', ADA, 1_700_000_200, { resources: { r: 'convert' } }),
      grant('g-bob', 'app-1', BOB, 1_700_000_300),
    );
    const { consents } = await service.consents(ADA);
    expect(consents).toEqual([
      {
        id: 'app-1',
        appId: 'app-1',
        appName: 'x',
        scopes: ['openid', 'email', 'profile', 'terminals'],
        created: new Date(1_700_000_000_000).toISOString(),
      },
      { id: 'app-2', appId: 'app-2', appName: 'x', scopes: ['convert'], created: new Date(1_700_000_200_000).toISOString() },
    ]);
    // By the consent's id (the app's), or by one of its grants' ids: every grant of the app for ADA ends, BOB's stays.
    expect(await service.withdraw(ADA, 'app-1')).toEqual({ grantIds: ['g-laptop', 'g-phone'] });
    expect(await service.withdraw(ADA, 'g-2')).toEqual({ grantIds: ['g-2'] });
    expect(repo.grants.map((g) => g.id)).toEqual(['g-bob']);
    expect((await service.consents(ADA)).consents).toEqual([]);
  });
});

describe('replaceSecret', () => {
  it("replaces a server app's secret, refuses a public app (CONFLICT) and answers a stranger's as missing", async () => {
    const { app, clientSecret } = await service.createApp({
      name: 'x',
      redirectUris: ['https://a.example/cb'],
      scopes: ['profile'],
      userId: ADA,
    });
    const renewed = await service.replaceSecret(ADA, app.id);
    expect(renewed.clientSecret).not.toBe(clientSecret);
    expect(repo.apps.get(app.id)!.secretHash).toBe(createHash('sha256').update(renewed.clientSecret!).digest('hex'));
    await expect(service.replaceSecret(BOB, app.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const phone = await service.createApp({
      name: 'p',
      redirectUris: ['http://localhost/cb'],
      scopes: ['profile'],
      tokenEndpointAuthMethod: 'none',
      userId: ADA,
    });
    await expect(service.replaceSecret(ADA, phone.app.id)).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});

describe('grantScopes', () => {
  it('reads the OpenID and resource scopes of a grant, in the catalogue order, ignoring unknown words', () => {
    expect(grantScopes({ openid: { scope: 'openid email' }, resources: { 'https://x/v1': 'terminals profile admin' } })).toEqual([
      'openid',
      'email',
      'profile',
      'terminals',
    ]);
    expect(grantScopes({})).toEqual([]);
    expect(grantScopes({ openid: { scope: 42 }, resources: { a: null } })).toEqual([]);
  });
});
