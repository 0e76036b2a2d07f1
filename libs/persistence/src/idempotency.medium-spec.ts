import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AppError } from '@tinkerdesk/contracts';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { ensureDatabase } from './database.js';
import {
  createIdempotencyTable,
  createUnderKey,
  IDEMPOTENCY_LEASE_SECONDS,
  IDEMPOTENCY_REFUSALS,
  IdempotencyKeys,
  idempotencyScope,
  requestFingerprint,
  storedId,
} from './idempotency.js';
import { sql } from './sql.js';

// The helper against the real PostgreSQL, in a database of its own that the test drops; `item` stands
// for what a service creates under a key.
const url = `postgres://postgres@localhost:5432/tinkerdesk_idem_${randomBytes(4).toString('hex')}`;
const keys = new IdempotencyKeys('svc');
let db: DataSource;

beforeAll(async () => {
  await ensureDatabase(url);
  db = await new DataSource({ type: 'postgres', url, entities: [], extra: { max: 24 } }).initialize();
  await db.query(`CREATE SCHEMA "svc"`);
  await createIdempotencyTable(db, 'svc');
  await createIdempotencyTable(db, 'svc'); // again: a schema that has the table already (commerce's)
  await db.query(`CREATE TABLE "svc"."item" ("id" uuid PRIMARY KEY, "name" text NOT NULL)`);
});

afterAll(async () => {
  await db?.destroy();
  const admin = new pg.Client({ connectionString: url.replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`);
  await admin.end();
});

/** A create as a repository makes one: the item and the key in one transaction. */
function createItem(name: string, create: ReturnType<typeof createUnderKey>, slow = 0) {
  return db.transaction((m) =>
    keys.once(m, create, async () => {
      const id = randomUUID();
      await sql.execute(m, `INSERT INTO "svc"."item" VALUES ($1, $2)`, [id, name]);
      if (slow) await sql.execute(m, `SELECT pg_sleep($1)`, [slow / 1000]);
      return id;
    }),
  );
}

const count = async (name: string) =>
  Number((await sql.one<{ n: string }>(db, `SELECT count(*) AS "n" FROM "svc"."item" WHERE "name" = $1`, [name])).n);

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('requestFingerprint and createUnderKey', () => {
  it('the same request in any key order is one fingerprint; another value another', () => {
    expect(requestFingerprint({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(requestFingerprint({ b: { d: 'x', c: [1, 2] }, a: 1 }));
    expect(requestFingerprint({ a: 1, b: undefined })).toBe(requestFingerprint({ a: 1 }));
    expect(requestFingerprint({ a: 1 })).not.toBe(requestFingerprint({ a: 2 }));
    expect(requestFingerprint({ a: [1, 2] })).not.toBe(requestFingerprint({ a: [2, 1] }));
  });

  it('a message without a key is no keyed create; with one, scoped to the operation and account, the key out of the request', () => {
    expect(createUnderKey('plan.create', 'u1', { product: 'p', idempotencyKey: undefined })).toBeUndefined();
    expect(createUnderKey('plan.create', 'u1', { product: 'p', idempotencyKey: 'k' })).toEqual({
      scope: idempotencyScope('plan.create', 'u1'),
      key: 'k',
      request: { product: 'p' },
    });
  });
});

describe('IdempotencyKeys.once (in the transaction of the create)', () => {
  it('without a key creates every time', async () => {
    const name = randomUUID();
    await createItem(name, undefined);
    await createItem(name, undefined);
    expect(await count(name)).toBe(2);
  });

  it('the same key and request again answers the first object; the key is per scope', async () => {
    const name = randomUUID();
    const first = await createItem(name, createUnderKey('item.create', 'a', { name, idempotencyKey: 'k1' }));
    const again = await createItem(name, createUnderKey('item.create', 'a', { name, idempotencyKey: 'k1' }));
    expect(first.replayed).toBe(false);
    expect(again).toEqual({ answer: first.answer, replayed: true });
    expect(await count(name)).toBe(1);
    // Another account, or another operation, with the same key: its own create.
    const other = await createItem(name, createUnderKey('item.create', 'b', { name, idempotencyKey: 'k1' }));
    const otherOp = await createItem(name, createUnderKey('item.copy', 'a', { name, idempotencyKey: 'k1' }));
    expect(new Set([first.answer, other.answer, otherOp.answer]).size).toBe(3);
    expect(await count(name)).toBe(3);
  });

  it('another request under the key is a CONFLICT with the words of pay/complete/refund, and creates nothing', async () => {
    const name = randomUUID();
    await createItem(name, createUnderKey('item.create', 'a', { name, idempotencyKey: 'k2' }));
    const error = await refusal(
      createItem(`${name}-other`, createUnderKey('item.create', 'a', { name: `${name}-other`, idempotencyKey: 'k2' })),
    );
    expect([error.code, error.detail]).toEqual(['CONFLICT', IDEMPOTENCY_REFUSALS.mismatch]);
    expect(await count(`${name}-other`)).toBe(0);
  });

  it('a create that fails leaves the key free: the retry creates', async () => {
    const name = randomUUID();
    const create = createUnderKey('item.create', 'a', { name, idempotencyKey: 'k3' });
    await expect(
      db.transaction((m) =>
        keys.once(m, create, async () => {
          await sql.execute(m, `INSERT INTO "svc"."item" VALUES ($1, $2)`, [randomUUID(), name]);
          throw new AppError('UNAVAILABLE', 'the provider did not answer');
        }),
      ),
    ).rejects.toThrow('the provider did not answer');
    expect(await count(name)).toBe(0);
    expect((await createItem(name, create)).replayed).toBe(false);
    expect(await count(name)).toBe(1);
  });

  it('40 parallel creates under one key: exactly one object, every answer that object', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const name = randomUUID();
      const create = createUnderKey('item.create', 'a', { name, idempotencyKey: `par-${name}` });
      const answers = await Promise.all(Array.from({ length: 40 }, () => createItem(name, create, 20)));
      expect(await count(name)).toBe(1);
      expect(new Set(answers.map((a) => a.answer)).size).toBe(1);
      expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    }
  });

  it('a request still running longer than the wait: the second one is refused "in progress" and creates nothing', async () => {
    const name = randomUUID();
    const create = createUnderKey('item.create', 'a', { name, idempotencyKey: 'slow' });
    const first = createItem(name, create, 3500);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const error = await refusal(createItem(name, create));
    expect([error.code, error.detail]).toEqual(['CONFLICT', IDEMPOTENCY_REFUSALS.busy]);
    expect((await first).replayed).toBe(false);
    expect(await count(name)).toBe(1);
  });

  it('needs the transaction of the create', async () => {
    await expect(
      keys.once(db.manager, createUnderKey('item.create', 'a', { idempotencyKey: 'x' }), () => Promise.resolve('x')),
    ).rejects.toThrow(/needs the transaction/);
  });
});

describe('IdempotencyKeys: expiry, sweep, replay, and the claim of work outside a transaction', () => {
  it('a key older than 24 hours is a new request, and the sweep drops it', async () => {
    const name = randomUUID();
    const create = createUnderKey('item.create', 'a', { name, idempotencyKey: 'old' });
    const first = await createItem(name, create);
    await sql.execute(db, `UPDATE "svc"."idempotency_key" SET "created" = now() - interval '25 hours' WHERE "key" = 'old'`);
    expect(await keys.replay(db, create)).toBeUndefined();
    const second = await createItem(name, create);
    expect(second.replayed).toBe(false);
    expect(second.answer).not.toBe(first.answer);
    await sql.execute(db, `UPDATE "svc"."idempotency_key" SET "created" = now() - interval '25 hours' WHERE "key" = 'old'`);
    expect(await keys.sweep(db)).toBeGreaterThanOrEqual(1);
    expect(await sql.rows(db, `SELECT 1 FROM "svc"."idempotency_key" WHERE "key" = 'old'`)).toEqual([]);
  });

  it('replay answers a stored answer of the same request, nothing for a free key, and refuses another request', async () => {
    const name = randomUUID();
    const create = createUnderKey('item.create', 'a', { name, idempotencyKey: 'rep' });
    expect(await keys.replay(db, create)).toBeUndefined();
    expect(await keys.replay(db, undefined)).toBeUndefined();
    const { answer } = await createItem(name, create);
    expect(await keys.replay(db, create)).toBe(answer);
    const other = createUnderKey('item.create', 'a', { name: 'x', idempotencyKey: 'rep' });
    expect((await refusal(keys.replay(db, other))).detail).toBe(IDEMPOTENCY_REFUSALS.mismatch);
  });

  it('claim/store/release: claimed, busy while it runs, done after, mismatch for another request; released it is free', async () => {
    const scope = `pay:${randomUUID()}`;
    const claimed = await keys.claim(db, scope, 'k', 'f1');
    expect(claimed).toEqual({ state: 'claimed', since: expect.any(String) });
    expect(await keys.claim(db, scope, 'k', 'f1')).toEqual({ state: 'busy' });
    expect(await keys.claim(db, scope, 'k', 'f2')).toEqual({ state: 'mismatch' });
    await keys.store(db, scope, 'k', (claimed as { since: string }).since, { sessionId: 's' });
    expect(await keys.claim(db, scope, 'k', 'f1')).toEqual({ state: 'done', response: { sessionId: 's' } });
    const second = (await keys.claim(db, scope, 'k2', 'f1')) as { since: string };
    await keys.release(db, scope, 'k2', second.since);
    expect(await keys.claim(db, scope, 'k2', 'f1')).toMatchObject({ state: 'claimed' });
  });

  it('a claim is a lease: left without an answer past it, the same request takes it over; the first claim can then neither store nor release', async () => {
    const scope = `pay:${randomUUID()}`;
    const crashed = (await keys.claim(db, scope, 'k', 'f1')) as { since: string };
    // Within the lease it is still running.
    expect(await keys.claim(db, scope, 'k', 'f1')).toEqual({ state: 'busy' });
    await ageClaim(scope, 'k');
    expect(await keys.claim(db, scope, 'k', 'f2')).toEqual({ state: 'mismatch' });
    const taken = await keys.claim(db, scope, 'k', 'f1');
    expect(taken).toEqual({ state: 'claimed', since: expect.any(String) });
    expect((taken as { since: string }).since).not.toBe(crashed.since);
    expect(await keys.claim(db, scope, 'k', 'f1')).toEqual({ state: 'busy' });
    // The first one woke up after all: its claim is not the key's any more.
    await keys.release(db, scope, 'k', crashed.since);
    await keys.store(db, scope, 'k', crashed.since, { sessionId: 'first' });
    expect(await keys.claim(db, scope, 'k', 'f1')).toEqual({ state: 'busy' });
    await keys.store(db, scope, 'k', (taken as { since: string }).since, { sessionId: 'taken' });
    expect(await keys.claim(db, scope, 'k', 'f1')).toEqual({ state: 'done', response: { sessionId: 'taken' } });
    // An answered key is never taken over, however old (within the 24 hours).
    await ageClaim(scope, 'k');
    expect(await keys.claim(db, scope, 'k', 'f1')).toEqual({ state: 'done', response: { sessionId: 'taken' } });
  });
});

/** Moves a key's claim back past IDEMPOTENCY_LEASE_SECONDS (its process "died" that long ago). */
async function ageClaim(scope: string, key: string): Promise<void> {
  await sql.execute(
    db,
    `UPDATE "svc"."idempotency_key" SET "created" = now() - make_interval(secs => $3) WHERE "scope" = $1 AND "key" = $2`,
    [scope, key, IDEMPOTENCY_LEASE_SECONDS + 1],
  );
}

describe('IdempotencyKeys.outside (work that calls the network, claimed before it)', () => {
  /** Work that "asks a provider": it takes `ms`, counts its calls, and answers a page. */
  function provider(ms = 0) {
    const calls: string[] = [];
    return {
      calls,
      ask: async () => {
        calls.push('asked');
        await new Promise((resolve) => setTimeout(resolve, ms));
        return { id: `page-${calls.length}` };
      },
    };
  }

  it('without a key asks every time; with one, once: a retry answers the stored page', async () => {
    const p = provider();
    await keys.outside(db, undefined, p.ask);
    await keys.outside(db, undefined, p.ask);
    expect(p.calls).toHaveLength(2);
    const create = createUnderKey('card.setup', randomUUID(), { provider: 'sandbox', idempotencyKey: 'o1' });
    const first = await keys.outside(db, create, p.ask);
    const again = await keys.outside(db, create, p.ask);
    expect(first).toEqual({ answer: { id: 'page-3' }, replayed: false });
    expect(again).toEqual({ answer: { id: 'page-3' }, replayed: true });
    expect(p.calls).toHaveLength(3);
    expect(storedId(again.answer)).toBe('page-3');
  });

  it('12 at once under one key: the provider asked once, every answer its page (the others waited for it)', async () => {
    const p = provider(200);
    const create = createUnderKey('card.setup', randomUUID(), { provider: 'sandbox', idempotencyKey: 'o2' });
    const answers = await Promise.all(Array.from({ length: 12 }, () => keys.outside(db, create, p.ask)));
    expect(p.calls).toHaveLength(1);
    expect(new Set(answers.map((a) => storedId(a.answer)))).toEqual(new Set(['page-1']));
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
  });

  it('still running past the wait: 409 "still being processed"; another request: 409 mismatch; failed work frees the key', async () => {
    const p = provider(1500);
    const user = randomUUID();
    const create = createUnderKey('card.setup', user, { provider: 'sandbox', idempotencyKey: 'o3' });
    const first = keys.outside(db, create, p.ask);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await refusal(keys.outside(db, create, p.ask, 300))).detail).toBe(IDEMPOTENCY_REFUSALS.busy);
    const other = createUnderKey('card.setup', user, { provider: 'stripe', idempotencyKey: 'o3' });
    expect((await refusal(keys.outside(db, other, p.ask))).detail).toBe(IDEMPOTENCY_REFUSALS.mismatch);
    expect((await first).replayed).toBe(false);
    expect(p.calls).toHaveLength(1);
    const failing = createUnderKey('card.setup', user, { provider: 'sandbox', idempotencyKey: 'o4' });
    await expect(keys.outside(db, failing, () => Promise.reject(new Error('the provider did not answer')))).rejects.toThrow(
      'the provider did not answer',
    );
    expect(await keys.outside(db, failing, p.ask)).toEqual({ answer: { id: 'page-2' }, replayed: false });
  });

  it('a claim whose process died (no answer, past the lease): 12 retries at once × 3 trials, one takes it over and asks once, all answer its page', async () => {
    for (let trial = 0; trial < 3; trial++) {
      const p = provider(100);
      const create = createUnderKey('card.setup', randomUUID(), { provider: 'sandbox', idempotencyKey: `lease-${trial}` })!;
      // The first request claimed the key and died before storing its answer.
      expect(await keys.claim(db, create.scope, create.key, requestFingerprint(create.request))).toMatchObject({ state: 'claimed' });
      expect((await refusal(keys.outside(db, create, p.ask, 200))).detail).toBe(IDEMPOTENCY_REFUSALS.busy);
      await ageClaim(create.scope, create.key);
      const answers = await Promise.all(Array.from({ length: 12 }, () => keys.outside(db, create, p.ask)));
      expect(p.calls).toHaveLength(1);
      expect(answers.map((a) => storedId(a.answer))).toEqual(Array(12).fill('page-1'));
      expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    }
  });

  it('storedId reads the id of a stored { id } and nothing else', () => {
    expect(storedId({ id: 'x' })).toBe('x');
    expect([storedId('x'), storedId(null), storedId(undefined), storedId(['x']), storedId({ id: 1 })]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
