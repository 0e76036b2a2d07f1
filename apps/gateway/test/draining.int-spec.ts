import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Agent, request } from 'node:http';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import pg from 'pg';
import { newAccount, TestPlatform, type TestAccount } from '@tinkerdesk/testing';

/**
 * A gateway stopped with SIGTERM (issue 32, "readiness while draining"): from the moment it begins to
 * drain, `GET /v1/health/ready` answers 503, so a load balancer probing it takes it out of rotation,
 * while a request it already holds finishes with its answer. The slow request is a profile read that
 * waits on identity, held with SIGSTOP until the drain has begun. Likewise a service's `GET /ready` on
 * HEALTH_PORT while it answers a request it holds (an update waiting on a row this test has locked).
 */
/** Identity's probes (this platform's only process that reads HEALTH_PORT); in this helper's port range. */
const HEALTH_PORT = 19060;
let platform: TestPlatform;
let account: TestAccount;
let nc: NatsConnection;

beforeAll(async () => {
  platform = await TestPlatform.start(['identity', 'gateway'], {
    // Every profile read reaches identity (nothing remembered in the gateway).
    SESSION_CACHE_TTL_MS: '0',
    PROFILE_CACHE_TTL_MS: '0',
    RPC_TIMEOUT_MS: '20000',
    SHUTDOWN_GRACE_MS: '20000',
    HEALTH_PORT: String(HEALTH_PORT),
  });
  account = await newAccount(platform, 'drain-reader');
  nc = await connect({ servers: platform.env.NATS_URL });
}, 120_000);

afterAll(async () => {
  await nc?.close();
  await platform?.close();
});

async function eventually(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The gateway's `gateway draining` log line (how many answers were in progress when the drain began). */
function drainingLine(): { inFlight?: number } | undefined {
  const line = platform
    .logs('gateway')
    .split('\n')
    .find((l) => l.includes('"gateway draining"'));
  return line ? (JSON.parse(line) as { inFlight?: number }) : undefined;
}

type Probe = { at: number; status: number; connection?: string | undefined } | { at: number; error: string };

/**
 * A load balancer's readiness probe: GET /v1/health/ready every 50 ms on one keep-alive connection (as
 * proxies keep their upstream connections), and on a new one once the gateway has closed it.
 */
function probeReadiness(base: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const seen: Probe[] = [];
  let running = true;
  const once = (): Promise<Probe> =>
    new Promise((resolve) => {
      const req = request(`${base}/v1/health/ready`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ at: Date.now(), status: res.statusCode ?? 0, connection: res.headers.connection }));
      });
      req.on('error', (error: NodeJS.ErrnoException) => resolve({ at: Date.now(), error: error.code ?? error.message }));
      req.end();
    });
  const loop = (async () => {
    while (running) {
      seen.push(await once());
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    seen,
    stop: async () => {
      running = false;
      await loop;
      agent.destroy();
    },
  };
}

describe('a service stopped with SIGTERM while it holds a request', () => {
  it('answers GET /ready 503 "stopping" (and /live 200) while it drains, answers the request, then exits 0', async () => {
    const probe = async (path: string) => {
      const res = await fetch(`http://127.0.0.1:${HEALTH_PORT}${path}`);
      return { status: res.status, body: await res.text() };
    };
    expect(await probe('/ready')).toEqual({ status: 200, body: '{"status":"up"}' });
    const lock = new pg.Client({ connectionString: platform.env.DATABASE_URL });
    await lock.connect();
    let locked = false;
    try {
      await lock.query('BEGIN');
      await lock.query('SELECT 1 FROM "identity"."user" WHERE "id" = $1 FOR UPDATE', [account.guid]);
      locked = true;
      const update = fetch(`${platform.url}/v1/users/me`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Held while stopping' }),
      });
      // Identity's update waits on the row lock.
      const waiting = async () =>
        (
          await platform.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        )[0]?.n !== '0';
      const until = Date.now() + 15_000;
      while (!(await waiting())) {
        if (Date.now() > until) throw new Error('the update did not wait on the lock');
        await new Promise((r) => setTimeout(r, 50));
      }

      const exited = platform.signalProcess('identity', 'SIGTERM');
      let gone = false;
      void exited.then(() => (gone = true));
      let ready = await probe('/ready');
      for (const until503 = Date.now() + 5000; ready.status !== 503 && Date.now() < until503; ready = await probe('/ready')) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(ready).toEqual({ status: 503, body: '{"status":"down","reason":"stopping"}' });
      expect((await probe('/live')).status).toBe(200);
      expect(gone).toBe(false);

      await lock.query('ROLLBACK');
      locked = false;
      const answer = await update;
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { name?: string }).name).toBe('Held while stopping');
      expect(await exited).toEqual({ code: 0, signal: null });
      // The probes went last, with the process.
      await expect(fetch(`http://127.0.0.1:${HEALTH_PORT}/live`)).rejects.toThrow();
    } finally {
      if (locked) await lock.query('ROLLBACK');
      await lock.end();
      // Identity back for the next test, whatever happened here (SIGKILL only if it is still running).
      await platform.stopProcess('identity', 'SIGKILL');
      await platform.startProcess('identity');
    }
  }, 90_000);
});

describe('a gateway stopped with SIGTERM while a slow request is in flight', () => {
  it('answers ready 503 at once while draining, and the slow request still completes', async () => {
    const base = platform.url;
    const identityPid = platform.pidOf('identity');
    if (!identityPid) throw new Error('identity is not running');
    const probes = probeReadiness(base);
    const asked = nc.subscribe(`${platform.env.NATS_PREFIX}.identity.>`);
    let askedIdentity = false;
    void (async () => {
      for await (const _ of asked) askedIdentity = true;
    })();
    let held = false;
    try {
      await eventually(() => probes.seen.some((p) => 'status' in p && p.status === 200), 'the gateway did not answer ready');
      // Identity stops answering; the gateway's request to it waits (RPC_TIMEOUT_MS is 20 s).
      process.kill(identityPid, 'SIGSTOP');
      held = true;
      const slow = fetch(`${base}/v1/users/me`, { headers: { authorization: `Bearer ${account.token}` } });
      await eventually(() => askedIdentity, 'the slow request did not reach identity');

      const stopRequested = Date.now();
      const exited = platform.signalProcess('gateway', 'SIGTERM');
      let gone = false;
      void exited.then(() => (gone = true));
      await eventually(() => probes.seen.some((p) => p.at > stopRequested && 'status' in p && p.status === 503), 'ready did not turn 503');
      const notReady = probes.seen.find((p) => p.at > stopRequested && 'status' in p && p.status === 503);
      // The 503 closes the probe's connection; the gateway accepts no new one while it drains.
      expect(notReady).toMatchObject({ connection: 'close' });
      await eventually(() => probes.seen.some((p) => p.at > (notReady?.at ?? 0) && 'error' in p), 'the next probe was not refused');
      // Still draining: the slow request was in flight when the drain began, and the process has not exited.
      expect(drainingLine()?.inFlight).toBeGreaterThanOrEqual(1);
      expect(gone).toBe(false);

      process.kill(identityPid, 'SIGCONT');
      held = false;
      const answer = await slow;
      const answeredAt = Date.now();
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { success?: boolean }).success).toBe(true);
      expect(await exited).toEqual({ code: 0, signal: null });
      console.log(
        `SIGTERM with a request held: ready 503 after ${(notReady?.at ?? 0) - stopRequested} ms (probes every 50 ms), ` +
          `the held request answered 200 ${answeredAt - stopRequested} ms after the SIGTERM, exit 0 ${Date.now() - answeredAt} ms after it`,
      );

      await probes.stop();
      // Ready until the stop, 503 from it on, never ready again.
      const statuses = probes.seen.map((p) => ('status' in p ? p.status : p.error));
      const first503 = statuses.indexOf(503);
      expect(first503).toBeGreaterThan(0);
      expect(statuses.slice(0, first503).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(first503).every((s) => s !== 200)).toBe(true);
      expect(platform.logs('gateway')).not.toMatch(/were cut/);
    } finally {
      if (held) process.kill(identityPid, 'SIGCONT');
      asked.unsubscribe();
      await probes.stop();
    }
  }, 90_000);
});
