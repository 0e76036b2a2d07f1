import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { createLogger } from '@tinkerdesk/nest-common';
import {
  deleteExpiredBatch,
  outboxRetentionRules,
  RetentionSweeper,
  serviceDataSourceOptions,
  sql,
  type RetentionRule,
} from '@tinkerdesk/persistence';
import { RepositoryDatabase } from '@tinkerdesk/testing';
import { dataSourceOptions } from '../database/data-source.js';
import { IdentityOutbox } from '../events/identity-outbox.js';
import { AccountsRepository } from './accounts.repository.js';
import { accountsRetentionRules } from './retention.repository.js';

// The retention rules of identity (its accounts' records and its outbox tables) and the sweeper that
// runs them (libs/persistence retention.ts), against the real PostgreSQL.
let db: RepositoryDatabase;
let accounts: AccountsRepository;
const logger = createLogger('retention-test', 'silent');

const DAY = 24 * 3600_000;
const ago = (ms: number): Date => new Date(Date.now() - ms);
const ahead = (ms: number): Date => new Date(Date.now() + ms);
const rules = (): RetentionRule[] => [
  ...outboxRetentionRules('identity', 7),
  ...accountsRetentionRules({ sessionDays: 7, actionTokenDays: 7 }),
];
const sweeper = (o: Partial<ConstructorParameters<typeof RetentionSweeper>[0]> = {}) =>
  new RetentionSweeper({ dataSource: db.dataSource, service: 'identity', rules: rules(), everyMs: 0, logger, ...o });

const ids = async (table: string, column = 'id'): Promise<string[]> =>
  (await sql.rows<{ id: string }>(db.dataSource, `SELECT "${column}"::text AS "id" FROM "identity"."${table}"`)).map((r) => r.id).sort();

async function user(): Promise<string> {
  return (await accounts.insertUser(`${randomUUID()}@example.test`, 'hash')).id;
}

/** A session, ended `endedAgo` ms ago when given. */
async function session(userId: string, expiresAt: Date, endedAgo?: number): Promise<string> {
  const s = await accounts.insertSession(userId, randomUUID(), expiresAt);
  if (endedAgo !== undefined) {
    await sql.execute(db.dataSource, `UPDATE "identity"."session" SET "ended_at" = $2 WHERE "id" = $1`, [s.id, ago(endedAgo)]);
  }
  return s.id;
}

/** An action token, used `usedAgo` ms ago when given; answers its hash. */
async function actionToken(userId: string, expiresAt: Date, usedAgo?: number): Promise<string> {
  const hash = randomUUID();
  await accounts.insertActionToken(userId, 'reset', hash, expiresAt);
  if (usedAgo !== undefined) {
    await sql.execute(db.dataSource, `UPDATE "identity"."action_token" SET "used_at" = $2 WHERE "token_hash" = $1`, [hash, ago(usedAgo)]);
  }
  return hash;
}

async function outboxEvent(createdAgo: number, publishedAgo: number | null): Promise<string> {
  const id = randomUUID();
  await sql.execute(
    db.dataSource,
    `INSERT INTO "identity"."outbox_event" ("id", "aggregate_type", "aggregate_id", "name", "payload", "created_at", "published_at")
     VALUES ($1, 'user', 'u', 'identity.test', '{}'::jsonb, $2, $3)`,
    [id, ago(createdAgo), publishedAgo === null ? null : ago(publishedAgo)],
  );
  return id;
}

/** `n` processed events `processedAgo` ms ago; answers their ids. */
async function processed(n: number, processedAgo: number): Promise<string[]> {
  const rows = await sql.rows<{ id: string }>(
    db.dataSource,
    `INSERT INTO "identity"."processed_event" ("listener", "event_id", "processed_at")
     SELECT 'test', gen_random_uuid(), $2 FROM generate_series(1, $1) RETURNING "event_id"::text AS "id"`,
    [n, ago(processedAgo)],
  );
  return rows.map((r) => r.id).sort();
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

beforeAll(async () => {
  db = await RepositoryDatabase.create((url) => serviceDataSourceOptions(dataSourceOptions(url)));
  accounts = new AccountsRepository(db.dataSource);
});

afterAll(() => db?.close());

beforeEach(() =>
  db.dataSource.query(
    `TRUNCATE "identity"."session", "identity"."known_device", "identity"."action_token", "identity"."outbox_event", "identity"."processed_event"`,
  ),
);

describe('identity retention rules', () => {
  it('sessions: ended or expired more than the period ago go; live and recently over ones stay', async () => {
    const u = await user();
    const live = await session(u, ahead(DAY));
    const expiredLongAgo = await session(u, ago(8 * DAY));
    const expiredYesterday = await session(u, ago(DAY));
    const endedLongAgo = await session(u, ahead(DAY), 8 * DAY);
    const endedRecently = await session(u, ahead(DAY), 3600_000);
    await expect(sweeper().sweep()).resolves.toMatchObject({ 'identity.session': 2 });
    expect(await ids('session')).toEqual([live, expiredYesterday, endedRecently].sort());
    expect(await ids('session')).not.toContain(expiredLongAgo);
    expect(await ids('session')).not.toContain(endedLongAgo);
  });

  it('known devices: past their expiry go at once; live ones stay', async () => {
    const u = await user();
    await accounts.insertKnownDevice(u, 'expired', ago(60_000));
    await accounts.insertKnownDevice(u, 'live', ahead(DAY));
    await expect(sweeper().sweep()).resolves.toMatchObject({ 'identity.known_device': 1 });
    expect(await ids('known_device', 'token_hash')).toEqual(['live']);
    await expect(accounts.findKnownDevice(u, ['live'])).resolves.toMatchObject({ hash: 'live' });
  });

  it('action tokens: used or expired more than the period ago go; live, recently used and recently expired stay', async () => {
    const u = await user();
    const live = await actionToken(u, ahead(3600_000));
    const usedLongAgo = await actionToken(u, ahead(3600_000), 8 * DAY);
    const expiredLongAgo = await actionToken(u, ago(8 * DAY));
    const usedYesterday = await actionToken(u, ahead(3600_000), DAY);
    const expiredYesterday = await actionToken(u, ago(DAY));
    await expect(sweeper().sweep()).resolves.toMatchObject({ 'identity.action_token': 2 });
    const left = await ids('action_token', 'token_hash');
    expect(left).toEqual([live, usedYesterday, expiredYesterday].sort());
    expect(left).not.toContain(usedLongAgo);
    expect(left).not.toContain(expiredLongAgo);
    await expect(accounts.isLiveActionToken(live, 'reset')).resolves.toBe(true);
  });

  it('outbox: events published more than the period ago go; recent and unpublished ones (however old) stay', async () => {
    const old = await outboxEvent(9 * DAY, 8 * DAY);
    const recent = await outboxEvent(2 * DAY, DAY);
    const unpublished = await outboxEvent(30 * DAY, null);
    await expect(sweeper().sweep()).resolves.toMatchObject({ 'identity.outbox_event': 1 });
    expect(await ids('outbox_event')).toEqual([recent, unpublished].sort());
    expect(await ids('outbox_event')).not.toContain(old);
  });

  it('processed events: handled more than the period ago go; recent ones stay', async () => {
    await processed(3, 8 * DAY);
    const recent = await processed(2, DAY);
    await expect(sweeper().sweep()).resolves.toMatchObject({ 'identity.processed_event': 3 });
    expect(await ids('processed_event', 'event_id')).toEqual(recent);
  });
});

describe('RetentionSweeper', () => {
  const processedRule = outboxRetentionRules('identity', 7)[1]!;

  it('deletes in batches: one statement deletes at most the batch size', async () => {
    await processed(2500, 8 * DAY);
    const recent = await processed(10, 0);
    const batches: number[] = [];
    for (let n = -1; n !== 0;) {
      n = await deleteExpiredBatch(db.dataSource, processedRule, 1000);
      batches.push(n);
    }
    expect(batches).toEqual([1000, 1000, 500, 0]);
    expect(await ids('processed_event', 'event_id')).toEqual(recent);
  });

  it('a run goes on batch after batch until none is left', async () => {
    await processed(2345, 8 * DAY);
    await expect(sweeper({ batchSize: 500 }).sweep()).resolves.toMatchObject({ 'identity.processed_event': 2345 });
    expect(await ids('processed_event', 'event_id')).toEqual([]);
  });

  it('skips the run while another replica sweeps (the advisory lock), and sweeps once it is free', async () => {
    const old = await processed(5, 8 * DAY);
    const runner = db.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query(`SELECT pg_advisory_lock(hashtext('identity.retention'))`);
      await expect(sweeper().sweep()).resolves.toBeNull();
      expect(await ids('processed_event', 'event_id')).toEqual(old);
      await runner.query(`SELECT pg_advisory_unlock(hashtext('identity.retention'))`);
    } finally {
      await runner.release();
    }
    await expect(sweeper().sweep()).resolves.toMatchObject({ 'identity.processed_event': 5 });
  });

  it('two replicas sweeping at once delete each row once between them; a second run finds nothing', async () => {
    for (let trial = 0; trial < 10; trial++) {
      await processed(300, 8 * DAY);
      const keep = await processed(3, DAY);
      const runs = await Promise.all([sweeper({ batchSize: 50 }).sweep(), sweeper({ batchSize: 50 }).sweep()]);
      const deleted = runs.reduce((sum, run) => sum + (run?.['identity.processed_event'] ?? 0), 0);
      expect(deleted).toBe(300);
      expect(runs.some((run) => run !== null)).toBe(true);
      expect(await ids('processed_event', 'event_id')).toEqual(keep);
      await expect(sweeper().sweep()).resolves.toMatchObject({ 'identity.processed_event': 0 });
      await db.dataSource.query(`TRUNCATE "identity"."processed_event"`);
    }
  });

  it('runs by itself on its timer, and stops', async () => {
    await processed(4, 8 * DAY);
    const s = sweeper({ everyMs: 100 });
    s.start();
    try {
      expect(
        await until(
          () => ids('processed_event', 'event_id'),
          (left) => left.length === 0,
        ),
      ).toEqual([]);
      await processed(2, 8 * DAY);
      expect(
        await until(
          () => ids('processed_event', 'event_id'),
          (left) => left.length === 0,
        ),
      ).toEqual([]);
    } finally {
      await s.stop();
    }
    const after = await processed(1, 8 * DAY);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await ids('processed_event', 'event_id')).toEqual(after);
  });
});

describe('IdentityOutbox (the service)', () => {
  it('registers the outbox, accounts and mail-key rules with its settings and sweeps them on its timer', async () => {
    const u = await user();
    const live = await session(u, ahead(DAY));
    await session(u, ago(3 * DAY));
    await actionToken(u, ago(3 * DAY));
    await accounts.insertKnownDevice(u, 'expired', ago(60_000));
    await outboxEvent(3 * DAY, 3 * DAY);
    await processed(2, 3 * DAY);
    await sql.execute(db.dataSource, `INSERT INTO "identity"."mail_key" ("key", "created") VALUES ($1, $2)`, [
      `old-${randomUUID()}`,
      ago(3 * DAY),
    ]);
    // The relay and its NATS connection are not started: only the sweep runs here.
    const outbox = new IdentityOutbox(
      db.dataSource,
      {} as NatsConnection,
      {
        prefix: 'unused',
        pollMs: 60_000,
        retentionDays: 2,
        retentionSweepSeconds: 1,
        accounts: { sessionDays: 2, actionTokenDays: 2 },
        mailKeyDays: 2,
      },
      logger,
    );
    outbox.retention.start();
    try {
      const tables = {
        session: 'id',
        action_token: 'token_hash',
        known_device: 'token_hash',
        outbox_event: 'id',
        processed_event: 'event_id',
        mail_key: 'key',
      };
      const count = async () =>
        (await Promise.all(Object.entries(tables).map(([table, column]) => ids(table, column)))).map((r) => r.length);
      expect(await until(count, (n) => n.join() === '1,0,0,0,0,0')).toEqual([1, 0, 0, 0, 0, 0]);
      expect(await ids('session')).toEqual([live]);
    } finally {
      await outbox.retention.stop();
    }
  });
});
