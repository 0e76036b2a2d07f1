import { createHash } from 'node:crypto';
import { Module, type DynamicModule } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { AppError } from '@tinkerdesk/contracts';
import { PeriodicTask, type Logger, type PeriodicSchedule } from '@tinkerdesk/nest-common';
import type { DataSource, EntityManager } from 'typeorm';
import { databaseError, sql, type SqlRunner } from './sql.js';

/** How long an Idempotency-Key holds its answer (as Stripe's): a retry later is a new request. */
export const IDEMPOTENCY_RETENTION_HOURS = 24;

/** How long a request waits for another one still running under its key before it answers "in progress". */
export const IDEMPOTENCY_WAIT_MS = 2000;

/**
 * How long a claim made outside a transaction (`outside`, `claim`) holds its key without an answer: a
 * process killed between its claim and its store would otherwise leave the key "still being processed"
 * for IDEMPOTENCY_RETENTION_HOURS. Older than this, the next request under the key (the same request)
 * takes the claim over and runs the work again. It must be longer than the work's longest provider call
 * plus a margin: commerce's Stripe calls give up after STRIPE_TIMEOUT_MS (10 s by default, at most 60 s)
 * tried 3 times (maxNetworkRetries 2), so at most about 3 minutes. Taking over a claim whose first runner
 * is only slow is still safe — the provider's idempotency key is made from the client's key, so the provider
 * answers the first outcome again — it only asks twice.
 */
export const IDEMPOTENCY_LEASE_SECONDS = 300;

/** The refusals of a key (CONFLICT, 409), the same words for every route that takes one. */
export const IDEMPOTENCY_REFUSALS = {
  busy: 'a request with this Idempotency-Key is still being processed; retry in a moment',
  mismatch: 'this Idempotency-Key was used for a different request',
} as const;

/** A value stored as the answer of a key (jsonb). */
export type StoredAnswer = string | number | boolean | null | StoredAnswer[] | { [key: string]: StoredAnswer };

/** The fingerprint of a request: the same request (keys in any order) gives the same fingerprint. */
export function requestFingerprint(value: unknown): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v !== null && typeof v === 'object' && !(v instanceof Date)) {
      return Object.fromEntries(
        Object.entries(v)
          .filter(([, inner]) => inner !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([k, inner]) => [k, canonical(inner)]),
      );
    }
    return v;
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex');
}

/**
 * The scope of a key: one operation of one account (`order.create`, the account's id or `visitor`),
 * so two accounts never see each other's keys and one key may name a plan and a terminal.
 */
export function idempotencyScope(operation: string, account: string): string {
  return `${operation}:${account}`;
}

/** A create under an Idempotency-Key: its scope (idempotencyScope), the key, and what identifies the request. */
export interface IdempotentCreate {
  scope: string;
  key: string;
  /** The request as the service received it (its fingerprint is stored; another request under the key is refused). */
  request: unknown;
}

/**
 * The create of a message that may carry an `idempotencyKey` (IdempotentMessage), scoped to one
 * operation of one account; the rest of the message is the request. Undefined without a key.
 */
export function createUnderKey<M extends { idempotencyKey?: string | undefined }>(
  operation: string,
  account: string,
  message: M,
): IdempotentCreate | undefined {
  const { idempotencyKey, ...request } = message;
  return idempotencyKey === undefined ? undefined : { scope: idempotencyScope(operation, account), key: idempotencyKey, request };
}

/** The `id` of an answer stored as `{ id }` (what most creates store); undefined for anything else. */
export function storedId(answer: StoredAnswer | undefined): string | undefined {
  return typeof answer === 'object' && answer !== null && !Array.isArray(answer) && typeof answer['id'] === 'string'
    ? answer['id']
    : undefined;
}

/**
 * What one Idempotency-Key holds: nothing yet (claimed now; `since` names this claim, for `store` and
 * `release`), a stored answer, or a request still running.
 */
export type KeyClaim =
  { state: 'claimed'; since: string } | { state: 'done'; response: unknown } | { state: 'busy' } | { state: 'mismatch' };

interface KeyRow {
  fingerprint: string;
  response: unknown;
}

/**
 * Idempotency-Keys of one service, in its own table (`"<schema>"."idempotency_key"`: scope, key,
 * fingerprint, response, created; primary key (scope, key)). Two ways to use one:
 *
 * - `once(manager, create, work)` — a create: the key is claimed in the caller's transaction, with
 *   the object it creates, and its answer stored there too. Committed together, so a service killed
 *   right after its commit answers the retry with the first object; rolled back together, so a
 *   failed create leaves the key free. A second request under a key still running waits for it (up to
 *   IDEMPOTENCY_WAIT_MS: then 409 "still being processed"), then answers the first one's answer.
 * - `outside(db, create, work)` — work that calls the network (a payment provider) and so cannot run
 *   inside a transaction: the claim is its own statement, the answer stored after the work, the key
 *   released when the work fails. The claim is a lease: a process killed between its claim and its store
 *   leaves a claim without an answer, which the same request takes over once it is older than
 *   IDEMPOTENCY_LEASE_SECONDS (atomically: of two retries at once, one takes it over). The claims of
 *   `once` need no lease: claimed in the create's transaction, a killed process's claim is rolled back.
 *
 * Keys are kept IDEMPOTENCY_RETENTION_HOURS (`sweep`, and an expired key is dropped when used again).
 */
export class IdempotencyKeys {
  private readonly table: string;

  constructor(schema: string) {
    this.table = `"${schema}"."idempotency_key"`;
  }

  /**
   * Runs `work` (which creates the object and answers what identifies it, e.g. `{ id }`) once per key,
   * inside the caller's transaction. Without a key it just runs `work`. Answers the stored answer
   * (`replayed`) when the same request came before; another request under the key is a CONFLICT.
   */
  async once<T extends StoredAnswer>(
    manager: EntityManager,
    create: IdempotentCreate | undefined,
    work: () => Promise<T>,
  ): Promise<{ answer: T; replayed: boolean }> {
    if (create === undefined) return { answer: await work(), replayed: false };
    if (!manager.queryRunner?.isTransactionActive) throw new Error('IdempotencyKeys.once needs the transaction of the create');
    const { scope, key } = create;
    const fingerprint = requestFingerprint(create.request);
    await this.dropExpired(manager, scope, key);
    // A request still running under the key holds its uncommitted row: the insert waits for it.
    const { previous } = await sql.one<{ previous: string }>(manager, `SELECT current_setting('lock_timeout') AS "previous"`);
    await sql.execute(manager, `SELECT set_config('lock_timeout', $1, true)`, [`${IDEMPOTENCY_WAIT_MS}ms`]);
    let inserted: number;
    try {
      inserted = await sql.execute(
        manager,
        `INSERT INTO ${this.table} ("scope", "key", "fingerprint") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [scope, key, fingerprint],
      );
    } catch (error) {
      if (databaseError(error)?.code === '55P03') throw new AppError('CONFLICT', IDEMPOTENCY_REFUSALS.busy);
      throw error;
    }
    await sql.execute(manager, `SELECT set_config('lock_timeout', $1, true)`, [previous]);
    if (inserted === 0) {
      const row = await this.find(manager, scope, key);
      if (!row || row.response === null) throw new AppError('CONFLICT', IDEMPOTENCY_REFUSALS.busy);
      if (row.fingerprint !== fingerprint) throw new AppError('CONFLICT', IDEMPOTENCY_REFUSALS.mismatch);
      return { answer: row.response as T, replayed: true };
    }
    const answer = await work();
    await sql.execute(manager, `UPDATE ${this.table} SET "response" = $3::jsonb WHERE "scope" = $1 AND "key" = $2`, [
      scope,
      key,
      JSON.stringify(answer),
    ]);
    return { answer, replayed: false };
  }

  /**
   * The answer stored under a create's key, read before the create's own checks: a retry of a create
   * that succeeded answers its object even when the checks would now refuse it (a limit the first one
   * reached). Undefined without a key, or when the key is free or its request still runs; another
   * request under the key is a CONFLICT.
   */
  async replay(db: SqlRunner, create: IdempotentCreate | undefined): Promise<StoredAnswer | undefined> {
    if (create === undefined) return undefined;
    const row = await sql.maybeOne<KeyRow>(
      db,
      `SELECT "fingerprint", "response" FROM ${this.table} WHERE "scope" = $1 AND "key" = $2 AND "created" >= now() - make_interval(hours => $3)`,
      [create.scope, create.key, IDEMPOTENCY_RETENTION_HOURS],
    );
    if (!row || row.response === null) return undefined;
    if (row.fingerprint !== requestFingerprint(create.request)) throw new AppError('CONFLICT', IDEMPOTENCY_REFUSALS.mismatch);
    return row.response as StoredAnswer;
  }

  /**
   * Runs `work` once per key when it calls the network (a payment provider) and so cannot run inside a
   * transaction: the key is claimed first (its own statement), the answer stored after the work, and a
   * failed work releases the key. The same request while the first runs waits for its answer (up to
   * IDEMPOTENCY_WAIT_MS, then 409 "still being processed"); another request under the key is a CONFLICT.
   * A claim left without an answer for IDEMPOTENCY_LEASE_SECONDS (its process died) is taken over and
   * `work` runs again: it must be safe to repeat (a provider asked under a key made from the client's).
   * Without a key it just runs `work`.
   */
  async outside<T extends StoredAnswer>(
    db: SqlRunner,
    create: IdempotentCreate | undefined,
    work: () => Promise<T>,
    waitMs = IDEMPOTENCY_WAIT_MS,
  ): Promise<{ answer: T; replayed: boolean }> {
    if (create === undefined) return { answer: await work(), replayed: false };
    const { scope, key } = create;
    const fingerprint = requestFingerprint(create.request);
    const until = Date.now() + waitMs;
    let since: string;
    for (;;) {
      const claim = await this.claim(db, scope, key, fingerprint);
      if (claim.state === 'done') return { answer: claim.response as T, replayed: true };
      if (claim.state === 'mismatch') throw new AppError('CONFLICT', IDEMPOTENCY_REFUSALS.mismatch);
      if (claim.state === 'claimed') {
        since = claim.since;
        break;
      }
      if (Date.now() >= until) throw new AppError('CONFLICT', IDEMPOTENCY_REFUSALS.busy);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    try {
      const answer = await work();
      await this.store(db, scope, key, since, answer);
      return { answer, replayed: false };
    } catch (error) {
      await this.release(db, scope, key, since);
      throw error;
    }
  }

  /**
   * Claims a key outside a transaction: the first claim wins and runs the request; a retry with the
   * same request gets the stored answer; another request under the key is a mismatch; a retry while
   * the first still runs is busy — unless the first's claim is older than `leaseSeconds` without an
   * answer (its process died): then this one takes it over (one UPDATE: of two at once, one wins).
   */
  async claim(db: SqlRunner, scope: string, key: string, fingerprint: string, leaseSeconds = IDEMPOTENCY_LEASE_SECONDS): Promise<KeyClaim> {
    await this.dropExpired(db, scope, key);
    const inserted = await sql.maybeOne<{ since: string }>(
      db,
      `INSERT INTO ${this.table} ("scope", "key", "fingerprint") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING "created"::text AS "since"`,
      [scope, key, fingerprint],
    );
    if (inserted) return { state: 'claimed', since: inserted.since };
    // The row lock orders two takeovers at once: the second re-reads the first's new "created" and matches nothing.
    const taken = await sql.maybeOne<{ since: string }>(
      db,
      `UPDATE ${this.table} SET "created" = clock_timestamp()
        WHERE "scope" = $1 AND "key" = $2 AND "fingerprint" = $3 AND "response" IS NULL
          AND "created" < now() - make_interval(secs => $4)
        RETURNING "created"::text AS "since"`,
      [scope, key, fingerprint, leaseSeconds],
    );
    if (taken) return { state: 'claimed', since: taken.since };
    const row = await this.find(db, scope, key);
    if (!row) return this.claim(db, scope, key, fingerprint, leaseSeconds);
    if (row.fingerprint !== fingerprint) return { state: 'mismatch' };
    return row.response === null ? { state: 'busy' } : { state: 'done', response: row.response };
  }

  /**
   * Stores the answer of a key claimed `since` (the claim's own): when another request took the claim
   * over meanwhile, that one stores its answer instead.
   */
  async store(db: SqlRunner, scope: string, key: string, since: string, response: unknown): Promise<void> {
    await sql.execute(
      db,
      `UPDATE ${this.table} SET "response" = $4::jsonb WHERE "scope" = $1 AND "key" = $2 AND "created" = $3::timestamptz AND "response" IS NULL`,
      [scope, key, since, JSON.stringify(response)],
    );
  }

  /** A claimed request that failed leaves no answer: the key may be tried again (unless another request took the claim over). */
  async release(db: SqlRunner, scope: string, key: string, since: string): Promise<void> {
    await sql.execute(
      db,
      `DELETE FROM ${this.table} WHERE "scope" = $1 AND "key" = $2 AND "created" = $3::timestamptz AND "response" IS NULL`,
      [scope, key, since],
    );
  }

  /**
   * Forgets a create's key whatever it holds: the object it names was removed because the create could
   * not finish after its commit (a job that could not be queued), so a retry must create anew.
   */
  async forget(db: SqlRunner, create: IdempotentCreate | undefined): Promise<void> {
    if (create === undefined) return;
    await sql.execute(db, `DELETE FROM ${this.table} WHERE "scope" = $1 AND "key" = $2`, [create.scope, create.key]);
  }

  /** Drops the keys older than IDEMPOTENCY_RETENTION_HOURS; answers how many. */
  sweep(db: SqlRunner): Promise<number> {
    return sql.execute(db, `DELETE FROM ${this.table} WHERE "created" < now() - make_interval(hours => $1)`, [IDEMPOTENCY_RETENTION_HOURS]);
  }

  private find(db: SqlRunner, scope: string, key: string): Promise<KeyRow | undefined> {
    return sql.maybeOne<KeyRow>(db, `SELECT "fingerprint", "response" FROM ${this.table} WHERE "scope" = $1 AND "key" = $2`, [scope, key]);
  }

  private async dropExpired(db: SqlRunner, scope: string, key: string): Promise<void> {
    await sql.execute(
      db,
      `DELETE FROM ${this.table} WHERE "scope" = $1 AND "key" = $2 AND "created" < now() - make_interval(hours => $3)`,
      [scope, key, IDEMPOTENCY_RETENTION_HOURS],
    );
  }
}

/** Sweeps a service's expired Idempotency-Keys every hour (and once at start); every replica may (deleting is idempotent). */
export class IdempotencySweeper extends PeriodicTask {
  constructor(
    private readonly keys: IdempotencyKeys,
    private readonly db: DataSource,
    private readonly logger: Logger,
  ) {
    super();
  }

  protected schedule(): PeriodicSchedule {
    return { everyMs: 3_600_000, atStart: true, failure: 'idempotency key sweep failed', logger: this.logger };
  }

  protected run(): Promise<number> {
    return this.keys.sweep(this.db);
  }
}

/** Sweeps a service's Idempotency-Keys (IdempotencySweeper): imported once by the service's app module. */
@Module({})
export class IdempotencyModule {
  /** `logger`: the service's logger, or the token it is provided under (a global module's). */
  static forService(keys: IdempotencyKeys, logger: Logger | symbol): DynamicModule {
    const sweeper =
      typeof logger === 'symbol'
        ? { useFactory: (db: DataSource, log: Logger) => new IdempotencySweeper(keys, db, log), inject: [getDataSourceToken(), logger] }
        : { useFactory: (db: DataSource) => new IdempotencySweeper(keys, db, logger), inject: [getDataSourceToken()] };
    return { module: IdempotencyModule, providers: [{ provide: IdempotencySweeper, ...sweeper }] };
  }
}

/**
 * A service's Idempotency-Key table and the index its sweep reads (for a migration). Written to be
 * run on a schema that already has the table (commerce's, from its first selling migration): the index comes.
 */
export async function createIdempotencyTable(q: { query(text: string): Promise<unknown> }, schema: string): Promise<void> {
  await q.query(`CREATE TABLE IF NOT EXISTS "${schema}"."idempotency_key" (
    "scope" text NOT NULL,
    "key" text NOT NULL,
    "fingerprint" text NOT NULL,
    "response" jsonb,
    "created" timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY ("scope", "key")
  )`);
  await q.query(`CREATE INDEX IF NOT EXISTS "idempotency_key_created" ON "${schema}"."idempotency_key" ("created")`);
}
