import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import pg from 'pg';
import { Column, DataSource, Entity, PrimaryColumn, QueryFailedError } from 'typeorm';
import { ensureDatabase } from './database.js';
import { entityColumns, isUniqueViolation, sql } from './sql.js';

// The helper against the real PostgreSQL, in a database of its own that the test drops.
const url = `postgres://postgres@localhost:5432/tinkerdesk_sql_${randomBytes(4).toString('hex')}`;
let db: DataSource;

interface Item {
  id: number;
  name: string;
}

/** The same table as an entity whose property names differ from its columns. */
@Entity({ name: 'item' })
class ItemEntity {
  @PrimaryColumn({ type: 'int' })
  id!: number;

  @Column({ name: 'name', type: 'text' })
  label!: string;
}

beforeAll(async () => {
  await ensureDatabase(url);
  db = await new DataSource({ type: 'postgres', url, entities: [ItemEntity], extra: { max: 4 } }).initialize();
  await db.query(`CREATE TABLE "item" ("id" int PRIMARY KEY, "name" text NOT NULL UNIQUE)`);
});

afterAll(async () => {
  await db?.destroy();
  const admin = new pg.Client({ connectionString: url.replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`);
  await admin.end();
});

beforeEach(() => db.query(`TRUNCATE "item"`));

describe('sql', () => {
  it('keeps a named statement prepared on the pooled connections, and runs it unnamed inside a transaction', async () => {
    await sql.execute(db, `INSERT INTO "item" VALUES (1, 'a'), (2, 'b')`);
    const named = { name: 'sql_spec_item_by_id', text: `SELECT * FROM "item" WHERE "id" = $1` };
    // More runs than pooled connections (4), so a connection runs it again once prepared.
    for (let i = 0; i < 6; i++) {
      await expect(sql.rows<Item>(db, named, [1 + (i % 2)])).resolves.toEqual([{ id: 1 + (i % 2), name: i % 2 ? 'b' : 'a' }]);
    }
    const prepared = await sql.rows<{ name: string }>(db, { name: 'sql_spec_prepared', text: `SELECT "name" FROM pg_prepared_statements` });
    expect(prepared.map((p) => p.name)).toContain('sql_spec_prepared');
    await expect(db.transaction((tx) => sql.rows<Item>(tx, named, [2]))).resolves.toEqual([{ id: 2, name: 'b' }]);
    // maybeOne and one take a named statement too (a hot read by id).
    await expect(sql.maybeOne<Item>(db, named, [1])).resolves.toEqual({ id: 1, name: 'a' });
    await expect(sql.maybeOne<Item>(db, named, [9])).resolves.toBeUndefined();
    await expect(sql.one<Item>(db, named, [2])).resolves.toEqual({ id: 2, name: 'b' });
    await expect(sql.one<Item>(db, named, [9])).rejects.toThrow('expected a row from: SELECT * FROM "item" WHERE "id" = $1');
  });

  it('answers a prepared `*` read after a migration changed its shape, and replaces the connections that had it prepared', async () => {
    await db.query(`CREATE TABLE "shape" ("id" int PRIMARY KEY, "name" text NOT NULL)`);
    await db.query(`INSERT INTO "shape" VALUES (1, 'a')`);
    const named = { name: 'sql_spec_shape_all', text: `SELECT * FROM "shape" WHERE "id" = $1` };
    const callers = (n: number) => Promise.all(Array.from({ length: n }, () => sql.rows(db, named, [1])));
    // As many callers as pooled connections (4): the statement is prepared on each of them.
    await expect(callers(4)).resolves.toEqual(Array.from({ length: 4 }, () => [{ id: 1, name: 'a' }]));

    // The migration, from another connection, while the pool keeps the old statement prepared.
    const migration = new pg.Client({ connectionString: url });
    await migration.connect();
    await migration.query(`ALTER TABLE "shape" ADD COLUMN "note" text NOT NULL DEFAULT 'n'`);
    await migration.end();

    // Every statement a connection is given, seen at the driver (the unnamed runs too), and the warnings.
    const query = jest.spyOn(pg.Client.prototype, 'query');
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const namedRuns = (calls: unknown[][]) => calls.filter(([config]) => (config as { name?: string }).name === named.name).length;
    try {
      // Twice as many parallel callers as connections: every one answers the new shape, none fails.
      await expect(callers(8)).resolves.toEqual(Array.from({ length: 8 }, () => [{ id: 1, name: 'a', note: 'n' }]));
      // The four prepared connections each refused it once (and were destroyed); those four callers ran it
      // unnamed, the other four prepared the new text on the pool's fresh connections.
      expect(query.mock.calls).toHaveLength(12);
      expect(namedRuns(query.mock.calls)).toBe(8);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toContain('"sql_spec_shape_all"');

      // The pool no longer holds a connection that fails it: each call after that is one statement.
      query.mockClear();
      await expect(callers(8)).resolves.toEqual(Array.from({ length: 8 }, () => [{ id: 1, name: 'a', note: 'n' }]));
      expect(query.mock.calls).toHaveLength(8);
      expect(namedRuns(query.mock.calls)).toBe(8);
      expect(warn).toHaveBeenCalledTimes(1);

      // A column's type changed under a statement that names its columns: the same answer, the new type.
      const typed = { name: 'sql_spec_shape_typed', text: `SELECT "id", "name" FROM "shape" WHERE "id" = $1` };
      await expect(sql.one(db, typed, [1])).resolves.toEqual({ id: 1, name: 'a' });
      await db.query(`ALTER TABLE "shape" ALTER COLUMN "id" TYPE bigint`);
      await expect(sql.one(db, typed, [1])).resolves.toEqual({ id: '1', name: 'a' });
      expect(warn).toHaveBeenCalledTimes(2);

      // Any other failure of a named statement is the caller's, as before: no unnamed run, no warning.
      await db.query(`DROP TABLE "shape"`);
      const error: unknown = await sql.rows(db, named, [1]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueryFailedError);
      expect(error).toMatchObject({ driverError: { code: '42P01' } });
      expect(warn).toHaveBeenCalledTimes(2);
    } finally {
      query.mockRestore();
      warn.mockRestore();
    }
  });

  it('fails a named statement whose connection is lost while it runs, without an unhandled error event', async () => {
    const sleep = { name: 'sql_spec_sleep', text: `SELECT pg_sleep($1) AS "slept"` };
    // The connection's socket breaks while the statement runs (a reset, a failover): node-postgres
    // fails the statement and emits 'error' on the client, which nothing may leave unhandled.
    const pool = (db.driver as unknown as { master: pg.Pool }).master;
    pool.once('acquire', (client: pg.PoolClient) => {
      const socket = (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream;
      setTimeout(() => socket.destroy(), 50);
    });
    const error: unknown = await sql.rows(db, sleep, [2]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect(String(error)).toContain('Connection terminated unexpectedly');
    // The pool replaced that connection: the next run is answered.
    await expect(sql.rows(db, sleep, [0])).resolves.toEqual([{ slept: '' }]);
  });

  it('answers the rows of a SELECT, typed, and [] for none', async () => {
    await sql.execute(db, `INSERT INTO "item" VALUES (1, 'a'), (2, 'b')`);
    await expect(sql.rows<Item>(db, `SELECT * FROM "item" ORDER BY "id"`)).resolves.toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ]);
    await expect(sql.rows<Item>(db, `SELECT * FROM "item" WHERE "id" = $1`, [9])).resolves.toEqual([]);
  });

  it('answers the returned rows of UPDATE and DELETE … RETURNING, not [rows, count]', async () => {
    await sql.execute(db, `INSERT INTO "item" VALUES (1, 'a'), (2, 'b')`);
    await expect(sql.rows<Item>(db, `UPDATE "item" SET "name" = "name" || '!' RETURNING *`)).resolves.toHaveLength(2);
    await expect(sql.one<Item>(db, `UPDATE "item" SET "name" = 'z' WHERE "id" = $1 RETURNING *`, [1])).resolves.toEqual({
      id: 1,
      name: 'z',
    });
    await expect(sql.maybeOne<Item>(db, `UPDATE "item" SET "name" = 'y' WHERE "id" = $1 RETURNING *`, [9])).resolves.toBeUndefined();
    await expect(sql.maybeOne<Pick<Item, 'id'>>(db, `DELETE FROM "item" WHERE "id" = $1 RETURNING "id"`, [2])).resolves.toEqual({ id: 2 });
    await expect(sql.rows<Item>(db, `DELETE FROM "item" WHERE "id" = $1 RETURNING *`, [2])).resolves.toEqual([]);
  });

  it('answers INSERT … RETURNING and ON CONFLICT rows', async () => {
    await expect(sql.one<Item>(db, `INSERT INTO "item" VALUES ($1, $2) RETURNING *`, [1, 'a'])).resolves.toEqual({ id: 1, name: 'a' });
    await expect(
      sql.maybeOne<Item>(db, `INSERT INTO "item" VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING *`, [1, 'a']),
    ).resolves.toBeUndefined();
  });

  it('one throws when the statement answers no row', async () => {
    await expect(sql.one<Item>(db, `SELECT * FROM "item" WHERE "id" = $1`, [1])).rejects.toThrow(/expected a row/);
  });

  it('execute runs a named statement, prepared once per connection, and answers the rows changed', async () => {
    await sql.execute(db, `INSERT INTO "item" VALUES (1, 'a'), (2, 'b')`);
    const rename = { name: 'sql_spec_item_rename', text: `UPDATE "item" SET "name" = $2 WHERE "id" = $1` };
    await expect(sql.execute(db, rename, [1, 'x'])).resolves.toBe(1);
    await expect(sql.execute(db, rename, [2, 'y'])).resolves.toBe(1);
    await expect(sql.execute(db, rename, [9, 'z'])).resolves.toBe(0);
    await expect(sql.rows<Item>(db, `SELECT * FROM "item" ORDER BY "id"`)).resolves.toEqual([
      { id: 1, name: 'x' },
      { id: 2, name: 'y' },
    ]);
  });

  it('execute answers the number of rows changed', async () => {
    await expect(sql.execute(db, `INSERT INTO "item" VALUES (1, 'a'), (2, 'b'), (3, 'c')`)).resolves.toBe(3);
    await expect(sql.execute(db, `UPDATE "item" SET "name" = "name" || '!' WHERE "id" > $1`, [1])).resolves.toBe(2);
    await expect(sql.execute(db, `DELETE FROM "item" WHERE "id" = $1`, [9])).resolves.toBe(0);
    await expect(sql.execute(db, `DELETE FROM "item"`)).resolves.toBe(3);
  });

  it('runs inside the transaction of an EntityManager (rolled back with it, its locks held)', async () => {
    await sql.execute(db, `INSERT INTO "item" VALUES (1, 'a')`);
    await expect(
      db.transaction(async (tx) => {
        await sql.one<Item>(tx, `SELECT * FROM "item" WHERE "id" = $1 FOR UPDATE`, [1]);
        await sql.execute(tx, `UPDATE "item" SET "name" = 'changed' WHERE "id" = 1`);
        // Another connection waits for the lock and sees nothing uncommitted.
        const other = sql.rows<Item>(db, `SELECT * FROM "item" WHERE "id" = 1 FOR UPDATE NOWAIT`);
        await expect(other).rejects.toThrow(/could not obtain lock/);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await expect(sql.one<Item>(db, `SELECT * FROM "item"`)).resolves.toEqual({ id: 1, name: 'a' });
  });

  it('names an entity’s columns as its properties, for a select list or RETURNING', async () => {
    await sql.execute(db, `INSERT INTO "item" VALUES (1, 'a')`);
    expect(entityColumns(db, ItemEntity, 'i')).toBe('i."id" AS "id", i."name" AS "label"');
    await expect(
      sql.one<ItemEntity>(db, `UPDATE "item" SET "name" = 'b' WHERE "id" = $1 RETURNING ${entityColumns(db, ItemEntity)}`, [1]),
    ).resolves.toEqual({ id: 1, label: 'b' });
    await expect(
      db.transaction((tx) => sql.rows<ItemEntity>(tx, `SELECT ${entityColumns(tx, ItemEntity, 'i')} FROM "item" i`)),
    ).resolves.toEqual([{ id: 1, label: 'b' }]);
  });

  it('tells a unique violation, optionally by its constraint', async () => {
    await sql.execute(db, `INSERT INTO "item" VALUES (1, 'a')`);
    const error: unknown = await sql.execute(db, `INSERT INTO "item" VALUES (2, 'a')`).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, 'item_name_key')).toBe(true);
    expect(isUniqueViolation(error, 'item_pkey')).toBe(false);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
  });

  it('keeps the pooled connection of a statement PostgreSQL refused', async () => {
    const pool = (db.driver as unknown as { master: pg.Pool }).master;
    const removed = jest.fn();
    pool.on('remove', removed);
    try {
      const insert = { name: 'sql_spec_insert_item', text: `INSERT INTO "item" VALUES ($1, $2)` };
      await sql.execute(db, insert, [1, 'a']);
      // Refused statements, named and not, in parallel over the pooled connections: each is the caller's error.
      const refused = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 ? sql.execute(db, insert, [2 + i, 'a']) : sql.execute(db, `INSERT INTO "item" VALUES (${2 + i}, 'a')`)).catch(
            (e: unknown) => e,
          ),
        ),
      );
      expect(refused.every((error) => isUniqueViolation(error, 'item_name_key'))).toBe(true);
      const divided: unknown = await sql.rows(db, `SELECT 1 / (SELECT count(*)::int - 1 FROM "item") AS "x"`).catch((e: unknown) => e);
      expect(divided).toMatchObject({ driverError: { code: '22012' } });
      // No connection was destroyed (each had cost a new PostgreSQL connection and its prepared statements),
      // and the next statements run on them as before.
      expect(removed).not.toHaveBeenCalled();
      await sql.execute(db, insert, [20, 'b']);
      expect(await sql.rows<Item>(db, `SELECT * FROM "item" ORDER BY "id"`)).toEqual([
        { id: 1, name: 'a' },
        { id: 20, name: 'b' },
      ]);
    } finally {
      pool.off('remove', removed);
    }
  });

  it('outside a transaction, logs each statement through the DataSource and fails with TypeORM’s error, as a query runner did', async () => {
    const logged: string[] = [];
    const logger = db.logger;
    db.logger = new Proxy(logger, {
      get: (target, key, receiver) =>
        key === 'logQuery' ? (query: string) => void logged.push(query) : Reflect.get(target, key, receiver),
    });
    try {
      await sql.rows(db, `SELECT 1 AS "one"`);
      await sql.execute(db.manager, `INSERT INTO "item" VALUES (3, 'c')`);
    } finally {
      db.logger = logger;
    }
    expect(logged).toEqual([`SELECT 1 AS "one"`, `INSERT INTO "item" VALUES (3, 'c')`]);
    const error: unknown = await sql.rows(db, `SELECT * FROM "missing"`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect(error).toMatchObject({ query: `SELECT * FROM "missing"`, driverError: { code: '42P01' } });
  });
});
