import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { serviceDataSourceOptions, sql } from '@tinkerdesk/persistence';
import { RepositoryDatabase } from '@tinkerdesk/testing';
import { dataSourceOptions } from '../database/data-source.js';
import { OidcLoginsRepository } from './oidc-logins.repository.js';

let db: RepositoryDatabase;
let repository: OidcLoginsRepository;

beforeAll(async () => {
  db = await RepositoryDatabase.create((url) => serviceDataSourceOptions(dataSourceOptions(url)));
  repository = new OidcLoginsRepository(db.dataSource);
});

afterAll(() => db?.close());

const login = (stateHash: string, expiresAt: Date) => ({
  stateHash,
  expiresAt,
  provider: 'google',
  codeVerifier: 'v',
  nonce: 'n',
  returnTo: '/account',
});

describe('OidcLoginsRepository', () => {
  it('consumes a pending sign-in once; never an expired or unknown one', async () => {
    const state = randomUUID();
    await repository.insert(login(state, new Date(Date.now() + 60_000)));
    await expect(repository.consume(state)).resolves.toEqual({ provider: 'google', codeVerifier: 'v', nonce: 'n', returnTo: '/account' });
    await expect(repository.consume(state)).resolves.toBeUndefined();
    await expect(repository.consume(randomUUID())).resolves.toBeUndefined();
    const late = randomUUID();
    await repository.insert(login(late, new Date(Date.now() - 1000)));
    await expect(repository.consume(late)).resolves.toBeUndefined();
  });

  it('lets one of two concurrent uses win', async () => {
    const state = randomUUID();
    await repository.insert(login(state, new Date(Date.now() + 60_000)));
    const results = await Promise.all([repository.consume(state), repository.consume(state)]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('drops sign-ins that expired more than a day ago when it stores one, keeps recent ones', async () => {
    const old = randomUUID();
    const recent = randomUUID();
    await repository.insert(login(old, new Date(Date.now() - 2 * 86_400_000)));
    await repository.insert(login(recent, new Date(Date.now() - 3_600_000)));
    await repository.insert(login(randomUUID(), new Date(Date.now() + 60_000)));
    const left = await sql.rows<{ state_hash: string }>(
      db.dataSource,
      `SELECT "state_hash" FROM "identity"."oidc_login" WHERE "state_hash" = ANY($1::text[])`,
      [[old, recent]],
    );
    expect(left).toEqual([{ state_hash: recent }]);
  });

  it('refuses a state twice (unique)', async () => {
    const state = randomUUID();
    await repository.insert(login(state, new Date(Date.now() + 60_000)));
    await expect(repository.insert(login(state, new Date(Date.now() + 60_000)))).rejects.toThrow(/unique/);
  });
});
