import { rm } from 'node:fs/promises';
import { cleanupRun } from '@tinkerdesk/testing';

/** Removes the run's database, object store bucket and Redis keys once the suite is done. */
export default async function globalTeardown(): Promise<void> {
  const run = process.env.E2E_RUN_ID;
  if (!run) return;
  if (process.env.E2E_DATA_DIR) await rm(process.env.E2E_DATA_DIR, { recursive: true, force: true });
  await cleanupRun({
    databaseUrl: `postgres://postgres@localhost:5432/tinkerdesk_e2e_${run}`,
    natsUrl: 'nats://localhost:4222',
    natsPrefix: `e2e${run}`,
    redisUrl: 'redis://localhost:6379',
    redisPrefix: `e2e${run}`,
  });
}
