import type { Logger } from '@tinkerdesk/nest-common';
import type { DataSource } from 'typeorm';
import { sql, type SqlRunner } from '../sql.js';

/**
 * What a service keeps no longer than a period: the rows of one table that a condition marks as done
 * (ended, used, published) and that are older than `keepDays`. A service's repositories write its
 * rules (the SQL stays in the data layer); the sweeper deletes what they match.
 */
export interface RetentionRule {
  /** For logs and tests, e.g. `identity.session`. */
  name: string;
  /** The table, schema-qualified and quoted: `"identity"."session"`. */
  table: string;
  /**
   * The rows that may go: a SQL condition on the table's columns, given `cutoff`, the SQL expression
   * of the moment `keepDays` ago (e.g. `(cutoff) => \`"published_at" < ${cutoff}\``).
   */
  condition: (cutoff: string) => string;
  /** How long a row is kept once the condition's moment has passed (0: as soon as it has). */
  keepDays: number;
}

/** Rows deleted per statement: short statements, so a sweep never holds locks for long. */
export const RETENTION_BATCH = 1000;
/** Statements per rule and run at most; what is left waits for the next run. */
const MAX_BATCHES = 100;

/** The moment `keepDays` ago, in the database's clock (`$1` is keepDays). */
const CUTOFF = `(now() - $1::double precision * interval '1 day')`;

/**
 * The only statement of retention: deletes at most `limit` rows the rule matches (by ctid, from a
 * bounded sub-select, so each statement touches at most `limit` rows); answers how many it deleted.
 */
export function deleteExpiredBatch(db: SqlRunner, rule: RetentionRule, limit = RETENTION_BATCH): Promise<number> {
  return sql.execute(
    db,
    `DELETE FROM ${rule.table} WHERE ctid IN (SELECT ctid FROM ${rule.table} WHERE ${rule.condition(CUTOFF)} LIMIT $2)`,
    [rule.keepDays, limit],
  );
}

/** The outbox tables' rules (outbox-tables.ts): published events and handled events older than `keepDays`. */
export function outboxRetentionRules(schema: string, keepDays: number): RetentionRule[] {
  return [
    { name: `${schema}.outbox_event`, table: `"${schema}"."outbox_event"`, condition: (cutoff) => `"published_at" < ${cutoff}`, keepDays },
    {
      name: `${schema}.processed_event`,
      table: `"${schema}"."processed_event"`,
      condition: (cutoff) => `"processed_at" < ${cutoff}`,
      keepDays,
    },
  ];
}

export interface RetentionSweeperOptions {
  dataSource: DataSource;
  /** The lock's name: one sweep per service at a time, whatever the number of replicas (e.g. the schema). */
  service: string;
  rules: RetentionRule[];
  /** How often each replica tries to sweep; 0: only when asked (`sweep()`, tests). */
  everyMs: number;
  logger: Logger;
  batchSize?: number;
}

/** What one run deleted per rule, or `null` when another replica was sweeping. */
export type RetentionRun = Record<string, number> | null;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Deletes what a service's retention rules match, in batches of RETENTION_BATCH rows, each its own
 * statement (no transaction spans a run). Every replica runs it on a timer; a session-level advisory
 * lock (`pg_try_advisory_lock`, as the outbox relay) lets one of them sweep at a time and the others
 * skip. Sweeping twice is harmless anyway: a second run finds nothing more to delete.
 */
export class RetentionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<RetentionRun> | null = null;

  constructor(private readonly o: RetentionSweeperOptions) {}

  start(): void {
    if (this.o.everyMs <= 0 || this.o.rules.length === 0) return;
    this.timer = setInterval(() => void this.tick(), this.o.everyMs);
    this.timer.unref();
    void this.tick();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    try {
      const run = await this.sweep();
      const deleted = run ? Object.values(run).reduce((a, b) => a + b, 0) : 0;
      if (deleted > 0) this.o.logger.info({ service: this.o.service, deleted: run }, 'retention: old rows deleted');
    } catch (error) {
      this.o.logger.warn({ service: this.o.service, err: message(error) }, 'retention: sweep failed (tried again at the next run)');
    }
  }

  /** One run (the one already running, if any): answers what it deleted per rule, or null when another replica holds the lock. */
  sweep(): Promise<RetentionRun> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async run(): Promise<RetentionRun> {
    const runner = this.o.dataSource.createQueryRunner();
    await runner.connect();
    // Every statement on this one connection: the advisory lock is the session's.
    const db = runner.manager;
    const key = `${this.o.service}.retention`;
    try {
      const lock = await sql.one<{ locked: boolean }>(db, `SELECT pg_try_advisory_lock(hashtext($1)) AS "locked"`, [key]);
      if (!lock.locked) return null;
      try {
        const deleted: Record<string, number> = {};
        const limit = this.o.batchSize ?? RETENTION_BATCH;
        for (const rule of this.o.rules) {
          let total = 0;
          for (let i = 0; i < MAX_BATCHES; i++) {
            const n = await deleteExpiredBatch(db, rule, limit);
            total += n;
            if (n < limit) break;
          }
          deleted[rule.name] = total;
        }
        return deleted;
      } finally {
        await sql.execute(db, `SELECT pg_advisory_unlock(hashtext($1))`, [key]);
      }
    } finally {
      await runner.release();
    }
  }
}
