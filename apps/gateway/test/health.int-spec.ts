import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestPlatform } from '@tinkerdesk/testing';

/**
 * Health: the public answer is up/down per service; the detail (instances, versions, latencies,
 * errors) is for operators holding HEALTH_TOKEN. Readiness follows the gateway's NATS connection:
 * this file runs its own nats-server so a test can take it away and bring it back.
 */
const HEALTH_TOKEN = 'operator-token-for-health-detail';
let platform: TestPlatform;
let nats: ChildProcess | undefined;
let natsPort = 0;
const storeDir = mkdtempSync(join(tmpdir(), 'tinkerdesk-nats-'));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} within ${timeoutMs} ms`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function startNats(): Promise<void> {
  nats = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', storeDir], { stdio: 'ignore' });
  await waitFor(() => accepts(natsPort), 'nats-server did not listen');
}

async function stopNats(): Promise<void> {
  const child = nats;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGKILL');
  await exited;
  nats = undefined;
}

async function status(path: string): Promise<number> {
  return (await fetch(`${platform.url}${path}`)).status;
}

beforeAll(async () => {
  natsPort = await freePort();
  await startNats();
  platform = await TestPlatform.start(['identity', 'commerce', 'terminals', 'conversion', 'gateway'], {
    NATS_URL: `nats://127.0.0.1:${natsPort}`,
    HEALTH_TOKEN,
  });
}, 90_000);

afterAll(async () => {
  if (!nats) await startNats(); // the platform's cleanup removes its object store buckets from this server
  await platform?.close();
  await stopNats();
});

describe('GET /v1/health', () => {
  it('tells anyone only up or down per service, and the conversion engines no live worker has', async () => {
    const res = await fetch(`${platform.url}/v1/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ok',
      gateway: { status: 'up' },
      services: {
        identity: { status: 'up' },
        commerce: { status: 'up' },
        terminals: { status: 'up' },
        conversion: { status: 'up' },
      },
      // No worker runs here: nothing is known missing (jobs would wait for one).
      engines: { missing: [] },
    });
  });

  it('gives operators with HEALTH_TOKEN the detail: instances, versions, dependencies', async () => {
    const res = await fetch(`${platform.url}/v1/health`, { headers: { authorization: `Bearer ${HEALTH_TOKEN}` } });
    expect(res.status).toBe(200);
    const report = (await res.json()) as {
      gateway: { status: string; version: string; uptimeSeconds: number };
      services: Record<string, { instance: string; dependencies: Record<string, { status: string; latencyMs?: number }> }>;
    };
    expect(report.gateway).toMatchObject({ status: 'up', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(typeof report.gateway.uptimeSeconds).toBe('number');
    expect(report.services.identity?.instance).toMatch(/-\d+-/);
    expect(report.services.identity?.dependencies.database?.status).toBe('up');
    expect(report.services.conversion?.dependencies.redis?.status).toBe('up');
  });

  it('refuses a wrong operator token instead of silently answering the public view', async () => {
    const res = await fetch(`${platform.url}/v1/health`, { headers: { authorization: 'Bearer not-the-operator-token' } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ success: false, error: 'UNAUTHORIZED' });
  });

  it('shows a stopped service as down, with the reason only for operators', async () => {
    await platform.stopProcess('terminals');
    try {
      const open = (await (await fetch(`${platform.url}/v1/health`)).json()) as { status: string; services: Record<string, unknown> };
      expect(open.status).toBe('degraded');
      expect(open.services.terminals).toEqual({ status: 'down' });
      const detail = (await (
        await fetch(`${platform.url}/v1/health`, { headers: { authorization: `Bearer ${HEALTH_TOKEN}` } })
      ).json()) as { services: Record<string, { status: string; detail?: string }> };
      expect(detail.services.terminals).toMatchObject({ status: 'down', detail: 'the terminals service is not available' });
    } finally {
      await platform.startProcess('terminals');
    }
  });
});

describe('GET /v1/health/ready', () => {
  it('is 503 while NATS is unreachable and 200 again once the gateway has reconnected', async () => {
    expect(await status('/v1/health/ready')).toBe(200);
    await stopNats();
    await waitFor(async () => (await status('/v1/health/ready')) === 503, 'readiness did not turn 503');
    expect(await status('/v1/health/live')).toBe(200);
    const body = (await (await fetch(`${platform.url}/v1/health/ready`)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ success: false, error: 'UNAVAILABLE' });
    await startNats();
    await waitFor(async () => (await status('/v1/health/ready')) === 200, 'readiness did not recover');
  });
});
