import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestPlatform } from './platform.js';

/**
 * The medium tests' platform: the services (every process but the gateway) started once per Jest run by
 * the medium project's globalSetup (tests/medium/global-setup.ts) in one isolated environment. Each test
 * file then runs its own gateway in-process against them (apps/gateway/test/medium.ts).
 */

/** Names the JSON file that holds the shared platform's environment; set by globalSetup for the test files. */
export const SHARED_PLATFORM_VARIABLE = 'TINKERDESK_SHARED_PLATFORM';

/** What a test needs to reach the shared platform: the variables isolatedEnv sets, plus DATA_DIR. */
const SHARED_KEYS = [
  'NODE_ENV',
  'DATABASE_URL',
  'NATS_URL',
  'NATS_PREFIX',
  'REDIS_URL',
  'REDIS_PREFIX',
  'WEB_DIST',
  'HOST',
  'DATA_DIR',
] as const;

export type SharedEnv = Record<(typeof SHARED_KEYS)[number], string>;

interface Started {
  platform: TestPlatform;
  file: string;
  dataDir: string;
}

let started: Started | undefined;

/**
 * Starts the services once for the run: its own database (migrated), NATS prefix and Redis prefix, and a
 * DATA_DIR of its own (identity writes its mail there when no SMTP server is set). Writes the environment
 * to a file named by process.env.TINKERDESK_SHARED_PLATFORM, which Jest's test files inherit.
 */
export async function startSharedPlatform(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tinkerdesk-medium-'));
  const platform = await TestPlatform.start(['identity', 'commerce', 'terminals', 'conversion', 'conversion-worker'], {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Every medium test signs in from 127.0.0.1 (the fuzz to many unknown accounts): no address-wide ceiling.
    SIGN_IN_ADDRESS_ACCOUNTS: '1000000',
  });
  const env = Object.fromEntries(SHARED_KEYS.map((key) => [key, platform.env[key] ?? ''])) as SharedEnv;
  const file = join(dataDir, 'platform.json');
  writeFileSync(file, JSON.stringify(env));
  process.env[SHARED_PLATFORM_VARIABLE] = file;
  started = { platform, file, dataDir };
}

/** Stops the services and removes the run's database, buckets, keys and files (globalTeardown). */
export async function stopSharedPlatform(): Promise<void> {
  if (!started) return;
  const { platform, dataDir } = started;
  started = undefined;
  delete process.env[SHARED_PLATFORM_VARIABLE];
  try {
    await platform.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The shared platform's environment, for a test file of the medium project. */
export function sharedEnv(): SharedEnv {
  const file = process.env[SHARED_PLATFORM_VARIABLE];
  if (!file) {
    throw new Error(
      `${SHARED_PLATFORM_VARIABLE} is unset: medium tests run in Jest's medium project, whose globalSetup starts the platform`,
    );
  }
  return JSON.parse(readFileSync(file, 'utf8')) as SharedEnv;
}
