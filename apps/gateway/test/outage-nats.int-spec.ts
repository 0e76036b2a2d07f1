import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { OwnNats } from '@tinkerdesk/testing';
import { closeOutage, FULL_MIX, runOutage, startOutagePlatform, type OutageRun } from './outage.js';

// NATS (with JetStream, its store kept on disk) stopped for 10 s under the mixed load, then started:
// 503 UNAVAILABLE quickly meanwhile, every process reconnects by itself, JetStream consumers resume, the
// outbox publishes what waited, nothing acknowledged lost or doubled.

let nats: OwnNats;
let run: OutageRun | undefined;

beforeAll(async () => {
  nats = await OwnNats.start();
  run = await startOutagePlatform({ NATS_URL: nats.url });
}, 120_000);

afterAll(async () => {
  await closeOutage(run);
  await nats?.close();
});

describe('NATS restarted under a mixed load', () => {
  it('answers 503 quickly while it is down, recovers within seconds, loses and doubles nothing', async () => {
    await runOutage(run!, { name: 'NATS', stop: () => nats.stopServer(), start: () => nats.startServer() }, FULL_MIX);
  }, 150_000);
});
