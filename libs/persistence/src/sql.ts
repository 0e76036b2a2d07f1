import { Logger } from '@nestjs/common';
import pg from 'pg';
import { InstanceChecker, QueryFailedError, type DataSource, type EntityManager, type EntityTarget, type ObjectLiteral } from 'typeorm';

/**
 * Raw SQL for repositories, typed at one place.
 *
 * Repositories use TypeORM's repositories and QueryBuilder for simple reads and writes; where SQL is the
 * clearer tool (row locks, upserts, window queries, advisory locks) they call these helpers, which name
 * the row type once (`sql.rows<TerminalRow>(db, text, params)`) so no call site casts a row.
 *
 * `db` is a DataSource (a pooled connection per statement) or the EntityManager of a transaction
 * (`dataSource.transaction((tx) => sql.one<…>(tx, …))`), so the statement runs inside it.
 *
 * `UPDATE/DELETE … RETURNING`: TypeORM's `query()` answers those as `[rows, count]` on PostgreSQL and
 * every other statement as `rows`. These helpers read the driver's structured result instead, so
 * `rows`, `one` and `maybeOne` answer the returned rows whatever the statement, and `execute` answers the
 * number of rows a statement changed. There is no other unwrapping of `RETURNING` in the code base.
 */
export type SqlRunner = DataSource | EntityManager;

/** A statement's parameters, in the order of `$1`, `$2`, … */
export type SqlParams = readonly unknown[];

/**
 * A statement PostgreSQL keeps prepared on each pooled connection under `name` (one text per name):
 * parsed and analysed once per connection instead of per run, and planned once when its generic plan
 * is as good as a custom one (PostgreSQL's plan_cache_mode auto). For a hot read whose planning costs as
 * much as its execution (the order list's, and the reads of every storefront: a service by id, its
 * products). Inside a transaction (a TypeORM query runner) it runs unnamed.
 *
 * A migration run while the process serves can change what a prepared `*` (or a column's type) answers:
 * PostgreSQL then refuses the prepared statement on that connection ("cached plan must not change result
 * type", 0A000) for as long as the connection lives. The helpers answer such a run by running the text
 * unnamed (the new shape); the connection that refused it is destroyed rather than returned to the pool
 * (as any whose statement failed), so the pool's next connection prepares the statement afresh; it is
 * logged at warn once per name. Select lists name their columns (`entityColumns`) all the same: a
 * new column then changes nothing.
 */
export interface NamedStatement {
  name: string;
  text: string;
}

/** A statement's text, or a named one (NamedStatement). */
export type Statement = string | NamedStatement;

interface Result<T> {
  rows: T[];
  count: number;
}

/**
 * The driver's pool of a DataSource on PostgreSQL (node-postgres), the one TypeORM's query runners take
 * their connections from; undefined on another driver.
 */
function poolOf(source: DataSource): pg.Pool | undefined {
  const master: unknown = (source.driver as { master?: unknown }).master;
  return master instanceof pg.Pool ? master : undefined;
}

async function run<T>(db: SqlRunner, statement: Statement, params: SqlParams): Promise<Result<T>> {
  const text = typeof statement === 'string' ? statement : statement.text;
  const manager = InstanceChecker.isDataSource(db) ? db.manager : db;
  const source = manager.connection;
  const pool = manager.queryRunner ? undefined : poolOf(source);
  if (pool) {
    // Outside a transaction, straight to the pool: a query runner per statement (its creation, connect,
    // query-event broadcast and release) cost more CPU than the statement on the uncached read path.
    // What it gave stays: the query is logged through the DataSource's logger (tests count statements
    // there) and a failure is TypeORM's QueryFailedError around the driver's error.
    const values = [...params];
    source.logger.logQuery(text, values);
    try {
      const result = await poolQuery<T>(pool, statement, text, values);
      return { rows: result.rows, count: result.rowCount ?? 0 };
    } catch (error) {
      source.logger.logQueryError(error instanceof Error ? error : String(error), text, values);
      throw new QueryFailedError(text, values, error instanceof Error ? error : new Error(String(error)));
    }
  }
  // Inside a transaction the manager carries its query runner; otherwise a pooled one for this statement.
  const runner = manager.queryRunner ?? source.createQueryRunner();
  try {
    const result = await runner.query(text, [...params], true);
    const rows: T[] = result.records ?? [];
    return { rows, count: result.affected ?? 0 };
  } finally {
    if (runner !== manager.queryRunner) await runner.release();
  }
}

const log = new Logger('sql');
/** The names whose statement PostgreSQL refused once already (logged once per name and process). */
const replanned = new Set<string>();

/** PostgreSQL refused a prepared statement whose result row type a migration changed (SQLSTATE 0A000). */
function isResultTypeChange(error: unknown): boolean {
  return error instanceof pg.DatabaseError && error.code === '0A000' && error.routine === 'RevalidateCachedQuery';
}

/**
 * Whether a connection goes on after its statement failed: PostgreSQL refused the statement (a
 * constraint, a missing table, a cancelled statement) and the session is idle again, its prepared
 * statements kept. Not so for a connection lost or ended by the server (no DatabaseError, or a FATAL
 * one), nor for one that refused a named statement because a migration changed its result type: that
 * connection would refuse it again on every call, so it is replaced.
 */
function connectionSurvives(error: unknown): boolean {
  return error instanceof pg.DatabaseError && error.severity !== 'FATAL' && error.severity !== 'PANIC' && !isResultTypeChange(error);
}

/**
 * One statement on a pooled connection. Unlike `pool.query`, which destroys the connection of any
 * statement that failed (a unique violation too, so every refused sign-up with a taken email cost a new
 * PostgreSQL connection and the statements prepared on it), the connection goes back to the pool when
 * PostgreSQL only refused the statement (`connectionSurvives`). Its 'error' events are heard while it is
 * out of the pool (a socket broken mid-statement emits one, which nothing may leave unhandled), and a
 * connection that had one is destroyed.
 */
async function onPooledConnection<T extends pg.QueryResultRow>(pool: pg.Pool, config: pg.QueryConfig): Promise<pg.QueryResult<T>> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost ??= error;
  };
  client.on('error', onError);
  try {
    return await client.query<T>(config);
  } catch (error) {
    if (!connectionSurvives(error)) lost ??= error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(lost);
  }
}

/**
 * A statement through the pool (`onPooledConnection`). When PostgreSQL refuses a named statement
 * because its result type changed (NamedStatement), the connection that had it prepared is replaced
 * and the same text runs unnamed for this caller; the pool's next connection prepares the statement
 * afresh (sql.medium-spec.ts counts it).
 */
async function poolQuery<T>(
  pool: pg.Pool,
  statement: Statement,
  text: string,
  values: unknown[],
): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
  if (typeof statement === 'string') return onPooledConnection<T & pg.QueryResultRow>(pool, { text, values });
  try {
    return await onPooledConnection<T & pg.QueryResultRow>(pool, { name: statement.name, text, values });
  } catch (error) {
    if (!isResultTypeChange(error)) throw error;
    if (!replanned.has(statement.name)) {
      replanned.add(statement.name);
      log.warn(
        `prepared statement "${statement.name}" no longer matches its table (changed by a migration): run unnamed once per pooled connection, which is replaced`,
      );
    }
    return onPooledConnection<T & pg.QueryResultRow>(pool, { text, values });
  }
}

export const sql = {
  /** Every row of a statement (a SELECT, or what `… RETURNING` returned). */
  async rows<T>(db: SqlRunner, statement: Statement, params: SqlParams = []): Promise<T[]> {
    return (await run<T>(db, statement, params)).rows;
  },

  /** The first row, or undefined when the statement answered none (e.g. an UPDATE that matched nothing). */
  async maybeOne<T>(db: SqlRunner, statement: Statement, params: SqlParams = []): Promise<T | undefined> {
    return (await run<T>(db, statement, params)).rows[0];
  },

  /** The first row; a statement that answered none is a bug of the caller (throws). */
  async one<T>(db: SqlRunner, statement: Statement, params: SqlParams = []): Promise<T> {
    const row = (await run<T>(db, statement, params)).rows[0];
    if (row === undefined) {
      const text = typeof statement === 'string' ? statement : statement.text;
      throw new Error(`expected a row from: ${text.replace(/\s+/g, ' ').slice(0, 120)}`);
    }
    return row;
  },

  /** Runs a statement for its effect; the number of rows it inserted, updated or deleted. */
  async execute(db: SqlRunner, statement: Statement, params: SqlParams = []): Promise<number> {
    return (await run<never>(db, statement, params)).count;
  },
};

/**
 * An entity's columns for a select list or `RETURNING`, each named as its property
 * (`"user_id" AS "userId", …`), so `sql.one<Entity>(db, \`UPDATE … RETURNING ${entityColumns(db, Entity)}\`)`
 * answers the entity's shape in one statement. `alias` qualifies the columns (`t."user_id"`).
 * Plain properties only: no embedded columns, relations or column transformers.
 */
export function entityColumns<T extends ObjectLiteral>(db: SqlRunner, target: EntityTarget<T>, alias?: string): string {
  const source = InstanceChecker.isDataSource(db) ? db : db.connection;
  const prefix = alias ? `${alias}.` : '';
  return source
    .getMetadata(target)
    .columns.map((c) => `${prefix}"${c.databaseName}" AS "${c.propertyName}"`)
    .join(', ');
}

/** The PostgreSQL error of a failed statement (its `code` is the SQLSTATE, e.g. '23505'), if it is one. */
export function databaseError(error: unknown): pg.DatabaseError | undefined {
  const cause = error instanceof QueryFailedError ? error.driverError : error;
  return cause instanceof pg.DatabaseError ? cause : undefined;
}

/** Whether a statement failed on a unique constraint or index (23505), optionally a named one. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const failed = databaseError(error);
  return failed?.code === '23505' && (constraint === undefined || failed.constraint === constraint);
}
