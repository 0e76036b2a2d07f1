import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestPlatform, uniqueEmail } from '@tinkerdesk/testing';

let platform: TestPlatform;
/** Conversion calls need a signed-in user. */
let token: string;
const JOB = '3f0e8a4e-8a52-4c1e-9b1e-0c6a2b7e9d11';

async function timed(path: string): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
  const start = performance.now();
  // The public health answer is for callers without a token; conversion calls carry the user's.
  const headers: Record<string, string> = path.startsWith('/v1/health') ? {} : { authorization: `Bearer ${token}` };
  const res = await fetch(`${platform.url}${path}`, { headers });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body, ms: performance.now() - start };
}

beforeAll(async () => {
  // The production deadline: a stopped service must answer 503 within it.
  platform = await TestPlatform.start(['identity', 'commerce', 'terminals', 'conversion', 'gateway'], { RPC_TIMEOUT_MS: '1500' });
  token = (await platform.call('POST', '/v1/users', { email: uniqueEmail('fault'), password: 'fault tolerant' })).body.token as string;
}, 90_000);

afterAll(async () => {
  await platform?.close();
});

describe('a service goes away and comes back', () => {
  it('reports a stopped service down and answers its calls with 503 within 2 s, then recovers', async () => {
    expect((await timed(`/v1/convert/jobs/${JOB}`)).status).toBe(404);

    await platform.stopProcess('conversion', 'SIGKILL');
    const health = await timed('/v1/health');
    expect(health.ms).toBeLessThan(2000);
    const services = health.body.services as Record<string, { status: string }>;
    expect(health.body.status).toBe('degraded');
    expect(services.conversion?.status).toBe('down');
    expect(services.identity?.status).toBe('up');

    const call = await timed(`/v1/convert/jobs/${JOB}`);
    expect(call.status).toBe(503);
    expect(call.ms).toBeLessThan(2000);
    expect(call.body).toEqual({ success: false, error: 'UNAVAILABLE', detail: 'the conversion service is not available' });

    await platform.startProcess('conversion');
    expect((await timed(`/v1/convert/jobs/${JOB}`)).status).toBe(404);
    const healthy = await timed('/v1/health');
    expect((healthy.body.services as Record<string, { status: string }>).conversion?.status).toBe('up');
  });

  it('answers 503 within 2 s when a service hangs, and recovers when it resumes', async () => {
    const pid = platform.pidOf('conversion');
    expect(pid).toBeDefined();
    process.kill(pid!, 'SIGSTOP');
    try {
      const call = await timed(`/v1/convert/jobs/${JOB}`);
      expect(call.status).toBe(503);
      expect(call.ms).toBeLessThan(2000);
      expect(call.body).toMatchObject({ success: false, error: 'UNAVAILABLE' });
      const health = await timed('/v1/health');
      expect(health.ms).toBeLessThan(2000);
      expect((health.body.services as Record<string, { status: string }>).conversion?.status).toBe('down');
    } finally {
      process.kill(pid!, 'SIGCONT');
    }
    await new Promise((r) => setTimeout(r, 300));
    expect((await timed(`/v1/convert/jobs/${JOB}`)).status).toBe(404);
  });
});

describe('an unexpected failure', () => {
  it('answers 500 with an error id that is in the log, and no internals in the body', async () => {
    const { connect } = await import('@nats-io/transport-node');
    await platform.stopProcess('conversion');
    const nc = await connect({ servers: platform.env.NATS_URL });
    // A broken replica: answers with an error that is not in the catalogue.
    const sub = nc.subscribe(`${platform.env.NATS_PREFIX}.conversion.job.get`, {
      callback: (_err, msg) => {
        const { id } = msg.json<{ id: string }>();
        msg.respond(JSON.stringify({ id, err: 'TypeError: cannot read secret.password of undefined at /srv/x.js:1', isDisposed: true }));
      },
    });
    await nc.flush(); // the subscription is registered on the server before the call
    try {
      const call = await timed(`/v1/convert/jobs/${JOB}`);
      expect(call.status).toBe(500);
      expect(call.body.error).toBe('INTERNAL');
      expect(typeof call.body.errorId).toBe('string');
      expect(JSON.stringify(call.body)).not.toContain('password');
      await new Promise((r) => setTimeout(r, 100));
      const line = platform
        .logs('gateway')
        .split('\n')
        .find((l) => l.includes(String(call.body.errorId)) && l.includes('"level":"error"'));
      expect(line).toBeDefined();
      expect(line).toContain('secret.password');
    } finally {
      sub.unsubscribe();
      await nc.close();
      await platform.startProcess('conversion');
    }
  });
});
