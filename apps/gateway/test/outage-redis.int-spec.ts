import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { OwnRedis } from '@tinkerdesk/testing';
import { closeOutage, FULL_MIX, runOutage, startOutagePlatform, type OutageRun } from './outage.js';

// Redis (append-only file on, synced every second, as production must run it) stopped for 10 s under the
// mixed load, then started: 503 UNAVAILABLE quickly meanwhile, queues and limiters back by themselves,
// no acknowledged job or mail lost, nothing doubled.

let redis: OwnRedis;
let run: OutageRun | undefined;

beforeAll(async () => {
  redis = await OwnRedis.start();
  run = await startOutagePlatform({ REDIS_URL: redis.url });
}, 120_000);

afterAll(async () => {
  await closeOutage(run);
  await redis?.close();
});

describe('Redis restarted under a mixed load', () => {
  it('answers 503 quickly while it is down, recovers within seconds, loses and doubles nothing', async () => {
    await runOutage(run!, { name: 'Redis', stop: () => redis.stopServer(), start: () => redis.startServer() }, FULL_MIX);
  }, 150_000);
});
