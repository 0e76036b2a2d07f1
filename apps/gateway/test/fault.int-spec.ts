import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestPlatform, uniqueEmail } from '@tinkerdesk/testing';
import { jsonRequest, SteadyLoad } from './steady-load.js';

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

describe('a service hangs under load', () => {
  it('answers every call of it 503 within 2 s, its calls after the first deadline at once, the other services unaffected; then recovers', async () => {
    // A busy machine: a CPU burner, and a steady load on another service's route through the same gateway.
    const burner = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
    const load = new SteadyLoad(() => [platform.url], [{ name: 'me', send: jsonRequest('GET', '/v1/users/me', token) }], {
      concurrency: 8,
      deadlineMs: 5000,
    }).start();
    const pid = platform.pidOf('conversion')!;
    const calls: Array<Promise<{ status: number; body: Record<string, unknown>; ms: number; at: number }>> = [];
    let health: { status: number; body: Record<string, unknown>; ms: number } | undefined;
    const stoppedAt = performance.now();
    process.kill(pid, 'SIGSTOP');
    try {
      // Waves of 10 parallel calls every 400 ms for 3.2 s: those sent before the first deadline all wait it;
      // those after are answered at once.
      for (let wave = 0; wave < 9; wave += 1) {
        const at = Math.round(performance.now() - stoppedAt);
        for (let i = 0; i < 10; i += 1) calls.push(timed(`/v1/convert/jobs/${JOB}`).then((r) => ({ ...r, at })));
        if (wave === 5) health = await timed('/v1/health');
        else await new Promise((r) => setTimeout(r, 400));
      }
      const answers = await Promise.all(calls);
      const times = answers.map((a) => Math.round(a.ms)).sort((a, b) => a - b);
      const late = answers
        .filter((a) => a.at >= 1800)
        .map((a) => Math.round(a.ms))
        .sort((a, b) => a - b);
      console.log(
        `hung conversion under load: ${answers.length} calls, p50 ${times[times.length >> 1]} ms, max ${times.at(-1)} ms; ` +
          `sent ≥ 1.8 s after the stop: p50 ${late[late.length >> 1]} ms, max ${late.at(-1)} ms; health ${Math.round(health!.ms)} ms`,
      );
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.body).toMatchObject({ success: false, error: 'UNAVAILABLE' });
        expect(answer.ms).toBeLessThan(2000);
      }
      expect(health!.ms).toBeLessThan(2000);
      expect((health!.body.services as Record<string, { status: string }>).conversion?.status).toBe('down');
    } finally {
      process.kill(pid, 'SIGCONT');
      burner.kill('SIGKILL');
    }
    const resumed = performance.now();
    let status = 0;
    while (status !== 404 && performance.now() - resumed < 5000) {
      status = (await timed(`/v1/convert/jobs/${JOB}`)).status;
      if (status !== 404) await new Promise((r) => setTimeout(r, 100));
    }
    console.log(`conversion answered again ${Math.round(performance.now() - resumed)} ms after SIGCONT`);
    expect(status).toBe(404);
    const report = await load.stop();
    console.log(`identity's load meanwhile: ${report.requests} requests, p50 ${report.p50Ms} ms, max ${report.maxMs} ms`);
    expect(report.failures).toEqual([]);
    expect(report.statuses).toEqual({ 200: report.requests });
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
