import { randomBytes } from 'node:crypto';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { queryDatabase } from './platform.js';

/**
 * A throwaway database for a repository's medium test: created on the machine's PostgreSQL, migrated
 * with the service's own migrations, dropped by `close()`. No service process is started.
 *
 * ```ts
 * let db: RepositoryDatabase;
 * beforeAll(async () => (db = await RepositoryDatabase.create((url) => serviceDataSourceOptions(dataSourceOptions(url)))));
 * afterAll(() => db.close());
 * const repository = new AccountsRepository(db.dataSource);
 * ```
 */
export class RepositoryDatabase {
  private constructor(
    readonly url: string,
    readonly dataSource: DataSource,
  ) {}

  /** `options` are the service's data source options for a database URL (its schema, entities and migrations). */
  static async create(options: (url: string) => DataSourceOptions): Promise<RepositoryDatabase> {
    const admin = 'postgres://postgres@localhost:5432/postgres';
    const name = `tinkerdesk_repo_${randomBytes(4).toString('hex')}`;
    await queryDatabase(admin, `CREATE DATABASE "${name}"`);
    const url = admin.replace(/\/postgres$/, `/${name}`);
    const dataSource = await new DataSource({ ...options(url), extra: { max: 4 } }).initialize();
    const schema = 'schema' in dataSource.options ? dataSource.options.schema : undefined;
    if (schema) await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await dataSource.runMigrations({ transaction: 'each' });
    return new RepositoryDatabase(url, dataSource);
  }

  /**
   * The statements `work` sends to the database, as TypeORM's logger sees them (every query of a query
   * runner, raw or built), for tests that bound how many queries a read makes (no N+1).
   */
  async countQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: string[] }> {
    const queries: string[] = [];
    const logger = this.dataSource.logger;
    this.dataSource.logger = new Proxy(logger, {
      get: (target, key, receiver) =>
        key === 'logQuery' ? (query: string) => void queries.push(query) : Reflect.get(target, key, receiver),
    });
    try {
      return { result: await work(), queries };
    } finally {
      this.dataSource.logger = logger;
    }
  }

  async close(): Promise<void> {
    await this.dataSource.destroy();
    const name = new URL(this.url).pathname.slice(1);
    await queryDatabase('postgres://postgres@localhost:5432/postgres', `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

/**
 * Whether `work` is still waiting after `ms` milliseconds (e.g. on a row lock another transaction holds).
 * The promise keeps running; await it after the lock is released.
 */
export async function staysBlocked(work: Promise<unknown>, ms = 300): Promise<boolean> {
  const waited = Symbol('waited');
  const first = await Promise.race([
    work.then(() => 'done' as const),
    new Promise<symbol>((resolve) => setTimeout(() => resolve(waited), ms)),
  ]);
  return first === waited;
}
