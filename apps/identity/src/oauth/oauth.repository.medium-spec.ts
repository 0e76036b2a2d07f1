import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createUnderKey, serviceDataSourceOptions, sql } from '@tinkerdesk/persistence';
import { RepositoryDatabase, staysBlocked } from '@tinkerdesk/testing';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { dataSourceOptions } from '../database/data-source.js';
import { OAuthRepository, type OAuthAppRow } from './oauth.repository.js';

let db: RepositoryDatabase;
let repository: OAuthRepository;
let accounts: AccountsRepository;

beforeAll(async () => {
  db = await RepositoryDatabase.create((url) => serviceDataSourceOptions(dataSourceOptions(url)));
  repository = new OAuthRepository(db.dataSource);
  accounts = new AccountsRepository(db.dataSource);
});

afterAll(() => db?.close());

async function user(): Promise<string> {
  return (await accounts.insertUser(`${randomUUID()}@example.test`, 'hash')).id;
}

function newApp(userId: string, secretHash: string | null = 'secret'): Omit<OAuthAppRow, 'created'> {
  return {
    id: randomUUID(),
    userId,
    name: 'App',
    redirectUris: ['https://app.example/cb'],
    scopes: ['openid', 'profile'],
    authMethod: secretHash ? 'client_secret_basic' : 'none',
    secretHash,
    developerName: null,
    developerContact: null,
    homepageUrl: null,
    privacyUrl: null,
    termsUrl: null,
  };
}

/** A grant of `accountId` to the app, with a token issued under it. */
async function grant(accountId: string, clientId: string, iat = 1): Promise<string> {
  const grantId = randomUUID();
  await repository.upsert('Grant', grantId, { accountId, clientId, iat }, 3600);
  await repository.upsert('AccessToken', randomUUID(), { grantId, accountId, clientId }, 3600);
  return grantId;
}

const count = async (where: string, params: unknown[]): Promise<number> =>
  (await sql.one<{ n: number }>(db.dataSource, `SELECT count(*)::int AS "n" FROM "identity"."oauth_record" WHERE ${where}`, params)).n;

describe('records', () => {
  it('upserts a record with its lookup columns and finds it by id or session uid', async () => {
    await repository.upsert('Session', 's1', { uid: 'u1', accountId: 'a1' }, 60);
    await repository.upsert('Session', 's1', { uid: 'u2', accountId: 'a1' }, 60);
    await expect(repository.find('Session', 's1')).resolves.toEqual({ uid: 'u2', accountId: 'a1' });
    await expect(repository.findSessionByUid('u2')).resolves.toEqual({ uid: 'u2', accountId: 'a1' });
    await expect(repository.findSessionByUid('u1')).resolves.toBeNull();
    const row = await sql.one<{ uid: string; account_id: string; grant_id: string | null }>(
      db.dataSource,
      `SELECT "uid", "account_id", "grant_id" FROM "identity"."oauth_record" WHERE "model" = 'Session' AND "id" = 's1'`,
    );
    expect(row).toEqual({ uid: 'u2', account_id: 'a1', grant_id: null });
  });

  it('never expires a record upserted with no lifetime, hides an expired one', async () => {
    await repository.upsert('ReplayDetection', 'forever', { a: 1 }, 0);
    await expect(repository.find('ReplayDetection', 'forever')).resolves.toEqual({ a: 1 });
    await sql.execute(
      db.dataSource,
      `UPDATE "identity"."oauth_record" SET "expires_at" = now() - interval '1 second' WHERE "id" = 'forever'`,
    );
    await expect(repository.find('ReplayDetection', 'forever')).resolves.toBeNull();
  });

  it('marks a record consumed (seconds since the epoch) and destroys it', async () => {
    await repository.upsert('AuthorizationCode', 'code1', { grantId: 'g' }, 60);
    const before = Math.floor(Date.now() / 1000);
    await repository.consume('AuthorizationCode', 'code1');
    const found = await repository.find('AuthorizationCode', 'code1');
    expect(found?.grantId).toBe('g');
    expect(Math.abs(Number(found?.consumed) - before)).toBeLessThanOrEqual(2);
    await repository.destroy('AuthorizationCode', 'code1');
    await expect(repository.find('AuthorizationCode', 'code1')).resolves.toBeNull();
  });

  it('sweeps records expired for more than a day, at most once a minute', async () => {
    const fresh = new OAuthRepository(db.dataSource);
    await repository.upsert('Interaction', 'old', {}, 60);
    await sql.execute(db.dataSource, `UPDATE "identity"."oauth_record" SET "expires_at" = now() - interval '2 days' WHERE "id" = 'old'`);
    await fresh.upsert('Interaction', 'trigger', {}, 60);
    await expect(count(`"id" = 'old'`, [])).resolves.toBe(0);
  });

  it('revokes a grant with every record issued under it', async () => {
    const grantId = await grant('acc', 'client');
    await repository.revokeGrant(grantId);
    await expect(count(`"id" = $1 OR "grant_id" = $1`, [grantId])).resolves.toBe(0);
  });
});

describe('apps', () => {
  it('inserts with the database time and lists newest first', async () => {
    const owner = await user();
    const first = await repository.insertApp(newApp(owner), 5);
    const second = await repository.insertApp(newApp(owner, null), 5);
    expect(first?.created).toBeInstanceOf(Date);
    await expect(repository.app(first!.id)).resolves.toEqual(first);
    await expect(repository.app(randomUUID())).resolves.toBeUndefined();
    const listed = await repository.apps(owner);
    expect(listed.map((a) => a.id)).toEqual([second!.id, first!.id]);
    expect(listed[0]).toMatchObject({
      secretHash: null,
      authMethod: 'none',
      redirectUris: ['https://app.example/cb'],
      scopes: ['openid', 'profile'],
    });
  });

  it('refuses past the limit per account, also for a concurrent burst (advisory lock)', async () => {
    const owner = await user();
    const results = await Promise.all([1, 2, 3, 4].map(() => repository.insertApp(newApp(owner), 2)));
    expect(results.filter(Boolean)).toHaveLength(2);
    await expect(repository.apps(owner)).resolves.toHaveLength(2);
  });

  it('under an Idempotency-Key: parallel registrations make one app, each answered with it; a retry at the limit still answers it', async () => {
    const owner = await user();
    const create = createUnderKey('oauth.app.create', owner, { name: 'App', idempotencyKey: `k-${owner}` });
    const answers = await Promise.all(Array.from({ length: 8 }, () => repository.insertApp(newApp(owner), 2, create)));
    await expect(repository.apps(owner)).resolves.toHaveLength(1);
    expect(new Set(answers.map((a) => a?.id)).size).toBe(1);
    await repository.insertApp(newApp(owner), 2);
    expect(await repository.insertApp(newApp(owner), 2)).toBeUndefined();
    expect((await repository.insertApp(newApp(owner), 2, create))?.id).toBe(answers[0]!.id);
    // Another request under the key is refused; a full account's new key is refused by the limit, its key left free.
    const other = createUnderKey('oauth.app.create', owner, { name: 'Other', idempotencyKey: `k-${owner}` });
    await expect(repository.insertApp(newApp(owner), 2, other)).rejects.toMatchObject({ code: 'CONFLICT' });
    const fresh = createUnderKey('oauth.app.create', owner, { name: 'App', idempotencyKey: `k2-${owner}` });
    expect(await repository.insertApp(newApp(owner), 2, fresh)).toBeUndefined();
    expect(await repository.insertApp(newApp(owner), 3, fresh)).toBeDefined();
  });

  it('a registration waits while another holds the account lock', async () => {
    const owner = await user();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = db.dataSource.transaction(async (tx) => {
      await sql.execute(tx, `SELECT pg_advisory_xact_lock(hashtext('oauth_app:' || $1))`, [owner]);
      entered();
      await held;
    });
    await inside;
    const second = repository.insertApp(newApp(owner), 5);
    expect(await staysBlocked(second)).toBe(true);
    release();
    await first;
    await expect(second).resolves.toBeDefined();
  });

  it('replaces the secret only of the owner’s confidential app', async () => {
    const owner = await user();
    const confidential = await repository.insertApp(newApp(owner), 5);
    const publicApp = await repository.insertApp(newApp(owner, null), 5);
    await expect(repository.replaceSecret(owner, confidential!.id, 'new')).resolves.toMatchObject({
      id: confidential!.id,
      secretHash: 'new',
    });
    await expect(repository.replaceSecret(await user(), confidential!.id, 'x')).resolves.toBeUndefined();
    await expect(repository.replaceSecret(owner, publicApp!.id, 'x')).resolves.toBeUndefined();
    await expect(repository.app(publicApp!.id)).resolves.toMatchObject({ secretHash: null });
  });

  it('deletes the owner’s app with its records and answers the grants that ended', async () => {
    const owner = await user();
    const app = await repository.insertApp(newApp(owner), 5);
    const grantId = await grant('someone', app!.id);
    await expect(repository.deleteApp(await user(), app!.id)).resolves.toBeUndefined();
    await expect(repository.deleteApp(owner, app!.id)).resolves.toEqual([grantId]);
    await expect(repository.app(app!.id)).resolves.toBeUndefined();
    await expect(count(`"client_id" = $1`, [app!.id])).resolves.toBe(0);
  });
});

describe('consent', () => {
  it('lists live grants with their app, newest first, and ends a consent by app id or grant id', async () => {
    const owner = await user();
    const app = await repository.insertApp(newApp(owner), 5);
    const other = await repository.insertApp(newApp(owner), 5);
    const older = await grant('reader', app!.id, 100);
    const newer = await grant('reader', app!.id, 200);
    const kept = await grant('reader', other!.id, 150);
    const somebodyElse = await grant('another', app!.id, 300);
    const grants = await repository.liveGrants('reader');
    expect(grants.map((g) => g.id)).toEqual([newer, kept, older]);
    expect(grants[0]).toMatchObject({ clientId: app!.id, appName: 'App', created: new Date(200_000) });

    await expect(repository.endConsent('reader', older)).resolves.toEqual(expect.arrayContaining([older, newer]));
    await expect(count(`"grant_id" = ANY($1::text[]) OR "id" = ANY($1::text[])`, [[older, newer]])).resolves.toBe(0);
    await expect(count(`"grant_id" = $1`, [kept])).resolves.toBe(1);
    await expect(count(`"id" = $1`, [somebodyElse])).resolves.toBe(1);
    await expect(repository.endConsent('reader', app!.id)).resolves.toEqual([]);
    await expect(repository.endConsent('reader', other!.id)).resolves.toEqual([kept]);
  });

  it('locks the grants it ends (FOR UPDATE): a concurrent writer of a grant waits', async () => {
    const owner = await user();
    const app = await repository.insertApp(newApp(owner), 5);
    const grantId = await grant('locker', app!.id);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = db.dataSource.transaction(async (tx) => {
      await sql.execute(tx, `SELECT 1 FROM "identity"."oauth_record" WHERE "id" = $1 FOR UPDATE`, [grantId]);
      entered();
      await held;
    });
    await inside;
    const ending = repository.endConsent('locker', app!.id);
    expect(await staysBlocked(ending)).toBe(true);
    release();
    await first;
    await expect(ending).resolves.toEqual([grantId]);
  });
});
