import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { OwnPostgres } from '@tinkerdesk/testing';
import { closeOutage, FULL_MIX, runOutage, startOutagePlatform, type OutageRun } from './outage.js';

// PostgreSQL stopped (immediate mode: every connection cut) for 10 s under the mixed load, then started:
// 503 UNAVAILABLE quickly meanwhile, every kind of work back by itself, nothing acknowledged lost or doubled.

let postgres: OwnPostgres;
let run: OutageRun | undefined;

beforeAll(async () => {
  postgres = await OwnPostgres.start();
  run = await startOutagePlatform({ DATABASE_URL: postgres.url(`tinkerdesk_outage_${randomBytes(4).toString('hex')}`) });
}, 120_000);

afterAll(async () => {
  await closeOutage(run);
  postgres?.close();
});

describe('PostgreSQL restarted under a mixed load', () => {
  it('answers 503 quickly while it is down, recovers within seconds, loses and doubles nothing', async () => {
    await runOutage(
      run!,
      { name: 'PostgreSQL', stop: async () => postgres.stopServer(), start: async () => postgres.startServer() },
      FULL_MIX,
    );
  }, 150_000);
});
