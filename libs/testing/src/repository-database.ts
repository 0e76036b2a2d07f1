import { randomBytes } from 'node:crypto';
import { migrate, serviceDataSourceOptions, type ServiceDataSourceOptions } from '@tinkerdesk/persistence';
import { DataSource } from 'typeorm';
import { queryDatabase } from './platform.js';

/**
 * A throwaway database for a repository's medium test: created on the machine's PostgreSQL, migrated
 * with the service's own migrations, dropped by `close()`. No service process is started.
 *
 * ```ts
 * let db: RepositoryDatabase;
 * beforeAll(async () => (db = await RepositoryDatabase.create(dataSourceOptions)));
 * afterAll(() => db.close());
 * const repository = new AccountsRepository(db.dataSource);
 * ```
 */
export class RepositoryDatabase {
  private constructor(
    readonly url: string,
    readonly dataSource: DataSource,
  ) {}

  /** `options` is the service's `dataSourceOptions(url)` (its schema, entities and migrations). */
  static async create(options: (url: string) => ServiceDataSourceOptions): Promise<RepositoryDatabase> {
    const url = `postgres://postgres@localhost:5432/tinkerdesk_repo_${randomBytes(4).toString('hex')}`;
    await migrate(options(url));
    const dataSource = new DataSource(serviceDataSourceOptions({ ...options(url), poolSize: 4 }));
    await dataSource.initialize();
    return new RepositoryDatabase(url, dataSource);
  }

  /** A second, independent DataSource on the same database (e.g. to show that a row lock blocks it). */
  async another(options: (url: string) => ServiceDataSourceOptions): Promise<DataSource> {
    const other = new DataSource(serviceDataSourceOptions({ ...options(this.url), poolSize: 2 }));
    return other.initialize();
  }

  async close(): Promise<void> {
    await this.dataSource.destroy();
    const admin = new URL(this.url);
    const name = admin.pathname.slice(1);
    admin.pathname = '/postgres';
    await queryDatabase(admin.toString(), `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

/**
 * Whether `work` is still waiting after `ms` milliseconds (e.g. on a row lock another transaction holds).
 * The promise keeps running; await it after the lock is released.
 */
export async function staysBlocked(work: Promise<unknown>, ms = 300): Promise<boolean> {
  const waited = Symbol('waited');
  const first = await Promise.race([work.then(() => 'done' as const), new Promise<symbol>((resolve) => setTimeout(() => resolve(waited), ms))]);
  return first === waited;
}
