import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { OwnPostgres, TestPlatform, uniqueEmail } from '@tinkerdesk/testing';

// PostgreSQL goes away under the services: every service answers 503 UNAVAILABLE in the envelope
// (never 500 INTERNAL), and serves again by itself when the database is back. The database is a
// cluster of this test's own, so the machine's PostgreSQL is never stopped.

let postgres: OwnPostgres;
let platform: TestPlatform;
let token: string;

const ROUTES = ['/v1/orders', '/v1/plans', '/v1/paymentinstruments', '/v1/terminals', '/v1/timeline', '/v1/passes/google'];

beforeAll(async () => {
  postgres = await OwnPostgres.start();
  platform = await TestPlatform.start(['identity', 'commerce', 'terminals', 'conversion', 'gateway'], {
    DATABASE_URL: postgres.url(`tinkerdesk_outage_${randomBytes(4).toString('hex')}`),
  });
  token = (await platform.call('POST', '/v1/users', { email: uniqueEmail('pg-outage'), password: 'outage tolerant' })).body.token as string;
}, 120_000);

afterAll(async () => {
  await platform?.close();
  postgres?.close();
});

describe('PostgreSQL is down', () => {
  it('answers 503 UNAVAILABLE from commerce and terminals, then serves again when it is back', async () => {
    for (const path of ROUTES)
      expect({ path, status: (await platform.call('GET', path, undefined, token)).status }).toEqual({ path, status: 200 });

    postgres.stopServer();
    try {
      for (const path of ROUTES) {
        const answer = await platform.call('GET', path, undefined, token);
        expect({ path, status: answer.status, body: answer.body }).toEqual({
          path,
          status: 503,
          body: { success: false, error: 'UNAVAILABLE', detail: expect.stringContaining('not available right now') },
        });
      }
    } finally {
      postgres.startServer();
    }

    for (const path of ROUTES) {
      let status = 0;
      for (let i = 0; i < 60 && status !== 200; i++) {
        status = (await platform.call('GET', path, undefined, token)).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect({ path, status }).toEqual({ path, status: 200 });
    }
    for (const name of ['commerce', 'terminals'] as const) expect(platform.logs(name)).not.toContain('unhandled error in message handler');
  });
});
