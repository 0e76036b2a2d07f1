import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A migrated database that test platforms copy instead of migrating their own: the integration project's
 * globalSetup (tests/integration/global-setup.ts) migrates it once per Jest run, and every
 * `TestPlatform.start` of that run then makes its database with `CREATE DATABASE … TEMPLATE`, a file copy
 * that takes milliseconds where four migrate processes take seconds.
 */

/** Names the template database for the test files; set by globalSetup, inherited by Jest's workers. */
export const TEMPLATE_DATABASE_VARIABLE = 'TINKERDESK_TEMPLATE_DATABASE';

/** The URL of the machine's server with another database name. */
function withDatabase(url: string, name: string): string {
  const copy = new URL(url);
  copy.pathname = `/${name}`;
  return copy.toString();
}

function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

async function onServer(url: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A fresh name for the run's template database on the machine's server. */
export function templateDatabaseUrl(serverUrl = 'postgres://postgres@localhost:5432/postgres'): string {
  return withDatabase(serverUrl, `tinkerdesk_template_${randomBytes(4).toString('hex')}`);
}

/** The template database of this Jest run (a URL), if globalSetup made one. */
export function templateDatabase(): string | undefined {
  return process.env[TEMPLATE_DATABASE_VARIABLE] || undefined;
}

/**
 * Makes the database of `url` as a copy of the template (same server): no connection may be open on the
 * template while it is copied, which holds once its migrate processes have exited.
 */
export async function copyTemplateDatabase(template: string, url: string): Promise<void> {
  await onServer(url, `CREATE DATABASE "${databaseOf(url)}" TEMPLATE "${databaseOf(template)}"`);
}

/** Drops the template database (globalTeardown). */
export async function dropTemplateDatabase(template: string): Promise<void> {
  await onServer(template, `DROP DATABASE IF EXISTS "${databaseOf(template)}" WITH (FORCE)`);
}
