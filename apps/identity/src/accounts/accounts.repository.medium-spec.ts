import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { serviceDataSourceOptions, sql } from '@tinkerdesk/persistence';
import { RepositoryDatabase, staysBlocked } from '@tinkerdesk/testing';
import { dataSourceOptions } from '../database/data-source.js';
import { AccountsRepository, EmailTakenError } from './accounts.repository.js';

let db: RepositoryDatabase;
let repository: AccountsRepository;

beforeAll(async () => {
  db = await RepositoryDatabase.create((url) => serviceDataSourceOptions(dataSourceOptions(url)));
  repository = new AccountsRepository(db.dataSource);
});

afterAll(() => db?.close());

const soon = (): Date => new Date(Date.now() + 60_000);
const past = (): Date => new Date(Date.now() - 60_000);
const email = (): string => `${randomUUID()}@example.test`;

describe('users', () => {
  it('inserts with the defaults and finds by id, email in any letter case and provider subject', async () => {
    const address = email();
    const user = await repository.insertUser(address, 'hash');
    expect(user).toMatchObject({ email: address, passwordHash: 'hash', provider: 'internal', role: 'user', verified: false, tz: 'UTC' });
    await expect(repository.findById(user.id)).resolves.toMatchObject({ id: user.id });
    await expect(repository.findByEmail(address.toUpperCase())).resolves.toMatchObject({ id: user.id });
    const social = await repository.insertUser(email(), null, { provider: 'google', providerSubject: 'sub-1', name: 'N', verified: true });
    await expect(repository.findByProviderSubject('google', 'sub-1')).resolves.toMatchObject({ id: social.id, verified: true });
  });

  it('maps a taken email (any case) and a taken provider subject to EmailTakenError', async () => {
    const address = email();
    await repository.insertUser(address, 'hash');
    await expect(repository.insertUser(address.toUpperCase(), 'hash')).rejects.toBeInstanceOf(EmailTakenError);
    await repository.insertUser(email(), null, { provider: 'github', providerSubject: 'taken', name: '', verified: true });
    await expect(
      repository.insertUser(email(), null, { provider: 'github', providerSubject: 'taken', name: '', verified: true }),
    ).rejects.toBeInstanceOf(EmailTakenError);
  });

  it('updates the profile and the role', async () => {
    const user = await repository.insertUser(email(), 'hash');
    await repository.updateProfile(user.id, { name: 'Ada', tz: 'Europe/Paris' });
    await expect(repository.setRole(user.email, 'admin')).resolves.toBe(true);
    await expect(repository.setRole(email(), 'admin')).resolves.toBe(false);
    await expect(repository.findById(user.id)).resolves.toMatchObject({ name: 'Ada', tz: 'Europe/Paris', role: 'admin' });
  });
});

describe('sessions', () => {
  it('finds only a live session and ends it', async () => {
    const user = await repository.insertUser(email(), 'hash');
    const session = await repository.insertSession(user.id, `live-${user.id}`, soon());
    await repository.insertSession(user.id, `expired-${user.id}`, past());
    await expect(repository.findLiveSession(`live-${user.id}`)).resolves.toMatchObject({ id: session.id, impersonatorId: null });
    await expect(repository.findLiveSession(`expired-${user.id}`)).resolves.toBeNull();
    await repository.endSession(session.id);
    await expect(repository.findLiveSession(`live-${user.id}`)).resolves.toBeNull();
  });
});

describe('known devices', () => {
  it('finds a live device among the hashes, renews it, ignores expired ones and other accounts', async () => {
    const user = await repository.insertUser(email(), 'hash');
    const other = await repository.insertUser(email(), 'hash');
    await expect(repository.findKnownDevice(user.id, [])).resolves.toBeUndefined();
    await repository.insertKnownDevice(user.id, `d1-${user.id}`, soon());
    await repository.insertKnownDevice(user.id, `d2-${user.id}`, past());
    await repository.insertKnownDevice(other.id, `d3-${user.id}`, soon());
    const found = await repository.findKnownDevice(user.id, ['nope', `d1-${user.id}`, `d3-${user.id}`]);
    expect(found).toEqual({ id: expect.any(String), hash: `d1-${user.id}` });
    await expect(repository.findKnownDevice(user.id, [`d2-${user.id}`])).resolves.toBeUndefined();
    await repository.renewKnownDevice(found!.id, past());
    await expect(repository.findKnownDevice(user.id, [`d1-${user.id}`])).resolves.toBeUndefined();
  });

  it('refuses a token hash twice (unique)', async () => {
    const user = await repository.insertUser(email(), 'hash');
    await repository.insertKnownDevice(user.id, `same-${user.id}`, soon());
    await expect(repository.insertKnownDevice(user.id, `same-${user.id}`, soon())).rejects.toThrow(/unique/);
  });
});

describe('exchange codes', () => {
  it('consumes a code once and never an expired one', async () => {
    const user = await repository.insertUser(email(), 'hash');
    const admin = await repository.insertUser(email(), 'hash');
    await repository.insertCode(user.id, 'impersonate', `c-${user.id}`, admin.id, soon());
    await repository.insertCode(user.id, 'tokenswap', `old-${user.id}`, user.id, past());
    await expect(repository.consumeCode(`c-${user.id}`)).resolves.toEqual({ userId: user.id, kind: 'impersonate', issuedBy: admin.id });
    await expect(repository.consumeCode(`c-${user.id}`)).resolves.toBeUndefined();
    await expect(repository.consumeCode(`old-${user.id}`)).resolves.toBeUndefined();
  });

  it('lets only one of two concurrent uses win (the row lock of the UPDATE)', async () => {
    const user = await repository.insertUser(email(), 'hash');
    await repository.insertCode(user.id, 'tokenswap', `race-${user.id}`, user.id, soon());
    const results = await Promise.all([repository.consumeCode(`race-${user.id}`), repository.consumeCode(`race-${user.id}`)]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});

describe('action tokens', () => {
  it('verifies with a live token once, atomically with marking the account verified', async () => {
    const user = await repository.insertUser(email(), 'hash');
    await repository.insertActionToken(user.id, 'verify', `v-${user.id}`, soon());
    await expect(repository.isLiveActionToken(`v-${user.id}`, 'verify')).resolves.toBe(true);
    await expect(repository.isLiveActionToken(`v-${user.id}`, 'reset')).resolves.toBe(false);
    await expect(repository.verifyWithToken(`v-${user.id}`)).resolves.toBe(user.id);
    await expect(repository.findById(user.id)).resolves.toMatchObject({ verified: true });
    await expect(repository.isLiveActionToken(`v-${user.id}`, 'verify')).resolves.toBe(false);
    await expect(repository.verifyWithToken(`v-${user.id}`)).resolves.toBeUndefined();
  });

  it('records identity.email.verified with the verification, and with an account a provider vouches for; never otherwise', async () => {
    const events = (userId: string) =>
      sql.rows<{ name: string; payload: unknown }>(
        db.dataSource,
        `SELECT "name", "payload" FROM "identity"."outbox_event" WHERE "aggregate_id" = $1`,
        [userId],
      );
    const user = await repository.insertUser(email(), 'hash');
    await expect(events(user.id)).resolves.toEqual([]);
    await repository.insertActionToken(user.id, 'verify', `e-${user.id}`, soon());
    await repository.verifyWithToken(`e-${user.id}`);
    await repository.verifyWithToken(`e-${user.id}`);
    await expect(events(user.id)).resolves.toEqual([{ name: 'identity.email.verified', payload: { userId: user.id, email: user.email } }]);
    const vouched = await repository.insertUser(email(), null, {
      provider: 'google',
      providerSubject: randomUUID(),
      name: '',
      verified: true,
    });
    await expect(events(vouched.id)).resolves.toEqual([
      { name: 'identity.email.verified', payload: { userId: vouched.id, email: vouched.email } },
    ]);
    const unvouched = await repository.insertUser(email(), null, {
      provider: 'google',
      providerSubject: randomUUID(),
      name: '',
      verified: false,
    });
    await expect(events(unvouched.id)).resolves.toEqual([]);
  });

  it('resets the password and ends every session in one transaction; an expired token does nothing', async () => {
    const user = await repository.insertUser(email(), 'old');
    await repository.insertSession(user.id, `s-${user.id}`, soon());
    await repository.insertActionToken(user.id, 'reset', `r-${user.id}`, soon());
    await repository.insertActionToken(user.id, 'reset', `late-${user.id}`, past());
    await expect(repository.resetWithToken(`late-${user.id}`, 'new')).resolves.toBeUndefined();
    await expect(repository.resetWithToken(`r-${user.id}`, 'new')).resolves.toBe(user.id);
    await expect(repository.findById(user.id)).resolves.toMatchObject({ passwordHash: 'new' });
    await expect(repository.findLiveSession(`s-${user.id}`)).resolves.toBeNull();
  });

  it('a second use waits for the first transaction (the token row stays locked until it commits)', async () => {
    const user = await repository.insertUser(email(), 'old');
    await repository.insertActionToken(user.id, 'reset', `lock-${user.id}`, soon());
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = db.dataSource.transaction(async (tx) => {
      await sql.execute(tx, `UPDATE "identity"."action_token" SET "used_at" = now() WHERE "token_hash" = $1`, [`lock-${user.id}`]);
      entered();
      await held;
    });
    await inside;
    const second = repository.resetWithToken(`lock-${user.id}`, 'new');
    expect(await staysBlocked(second)).toBe(true);
    release();
    await first;
    await expect(second).resolves.toBeUndefined();
  });
});
