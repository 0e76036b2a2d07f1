import pg from 'pg';
import { DataSource, type DataSourceOptions, type MixedList, type EntitySchema } from 'typeorm';
import { serviceTypeParsers } from './timestamps.js';

/** Database name of a postgres:// URL. */
export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(name)) {
    throw new Error(`DATABASE_URL must name a database of letters, digits, '-' or '_' (got "${name}")`);
  }
  return name;
}

/** Creates the database of the URL when it does not exist yet (safe when several processes race). */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } catch (error) {
        // 42P04 duplicate_database, 23505 unique_violation: another process created it first.
        const code = (error as { code?: string }).code;
        if (code !== '42P04' && code !== '23505') throw error;
      }
    }
  } finally {
    await client.end();
  }
}

export interface ServiceDataSourceOptions {
  url: string;
  /** The PostgreSQL schema this service owns. */
  schema: string;
  entities: MixedList<string | Function | EntitySchema>;
  migrations: MixedList<string | Function>;
  poolSize?: number;
}

export function serviceDataSourceOptions(options: ServiceDataSourceOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    // Dates of rows read by parseTimestamptz (timestamps.ts) rather than pg's general parser.
    extra: { max: options.poolSize ?? 10, connectionTimeoutMillis: 5000, types: serviceTypeParsers },
  };
}

/** An initialized connection of a process that is not a Nest app (an operator command, a worker). */
export async function openDataSource(options: ServiceDataSourceOptions): Promise<DataSource> {
  return new DataSource(serviceDataSourceOptions(options)).initialize();
}

/**
 * Creates the database and the service's schema when missing, then runs its pending migrations,
 * each in its own transaction. Used by `npm start` and by the per-service migrate command.
 */
export async function migrate(options: ServiceDataSourceOptions): Promise<string[]> {
  await ensureDatabase(options.url);
  const dataSource = new DataSource(serviceDataSourceOptions(options));
  await dataSource.initialize();
  try {
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((m) => m.name);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * The body of each service's deployment migrate command: validated config, then `migrate`, with a
 * JSON line on success and one readable line (exit 1) on failure.
 */
export async function runMigrateCommand(service: string, url: string, options: (url: string) => ServiceDataSourceOptions): Promise<void> {
  try {
    const ran = await migrate(options(url));
    process.stdout.write(`${JSON.stringify({ service, level: 'info', msg: 'migrations done', ran })}\n`);
  } catch (error) {
    process.stderr.write(`${service} migrations failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
