import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cleanupRun, isolatedEnv } from '@tinkerdesk/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * `npm start` keeps the platform up when one process dies: the process is restarted with backoff and
 * logged, and the others keep serving. (It used to stop all seven processes when one conversion
 * worker was SIGKILLed, so one memory-hungry upload took the whole site down.) Run here with
 * `--replicas=2`: two gateways (PORT and PORT+1), two of each service, two workers.
 */
let start: ChildProcess;
let output = '';
let env: Record<string, string>;
let port: number;

/** A port that is free, or 0 when it is taken (0: any free port). */
function freePort(wanted = 0): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(0));
    server.listen(wanted, '127.0.0.1', () => {
      const { port: p } = server.address() as { port: number };
      server.close(() => resolve(p));
    });
  });
}

/** A free port whose next one is free too (the second gateway's). */
async function freePortPair(): Promise<number> {
  for (;;) {
    const p = await freePort();
    if (p < 65535 && (await freePort(p + 1)) === p + 1) return p;
  }
}

async function waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(output);
    if (match) return match;
    if (Date.now() > until) throw new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  port = await freePortPair();
  env = isolatedEnv({ PORT: String(port), LOG_LEVEL: 'info', DATA_DIR: `/tmp/tinkerdesk-supervisor-${port}` });
  start = spawn(process.execPath, ['scripts/start.mjs', '--no-build', '--replicas=2'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  start.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  start.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  await waitFor(/Tinkerdesk is running at/, 90_000);
}, 120_000);

afterAll(async () => {
  if (start && start.exitCode === null) {
    const exited = new Promise((resolve) => start.once('exit', resolve));
    start.kill('SIGTERM');
    await exited;
  }
  if (env) {
    await cleanupRun({
      databaseUrl: env.DATABASE_URL!,
      natsUrl: env.NATS_URL!,
      natsPrefix: env.NATS_PREFIX!,
      redisUrl: env.REDIS_URL!,
      redisPrefix: env.REDIS_PREFIX!,
    });
  }
}, 30_000);

describe('npm start', () => {
  it('runs two gateways on PORT and PORT+1, two of each service and two workers with --replicas=2', async () => {
    expect(output).toContain(
      `Tinkerdesk is running at http://localhost:${port} (its 2 gateways: http://localhost:${port}, http://localhost:${port + 1})`,
    );
    for (const p of [port, port + 1]) expect((await fetch(`http://127.0.0.1:${p}/v1/health/live`)).status).toBe(200);
    for (const service of ['identity', 'commerce', 'terminals', 'conversion'])
      expect(output.match(new RegExp(`"msg":"${service} service listening on NATS"`, 'g'))).toHaveLength(2);
    expect(output.match(/conversion worker ready/g)).toHaveLength(2);
  });

  it('restarts a SIGKILLed conversion worker while the rest keeps serving', async () => {
    const ready = await waitFor(/conversion-worker\s+\| .*"pid":(\d+).*conversion worker ready/, 10_000);
    const pid = Number(ready[1]);
    process.kill(pid, 'SIGKILL');
    await waitFor(/conversion-worker exited \(SIGKILL\); restarting it in 0\.5 s \(restart 1 in a row\)/, 10_000);
    // The gateway and the other processes never stopped.
    const live = await fetch(`http://127.0.0.1:${port}/v1/health/live`);
    expect(live.status).toBe(200);
    await waitFor(/conversion-worker is back/, 30_000);
    expect(output).not.toMatch(/stopping the platform/);
    expect(start.exitCode).toBeNull();
    const readyAgain = [...output.matchAll(/conversion-worker\s+\| .*"pid":(\d+).*conversion worker ready/g)].map((m) => Number(m[1]));
    expect(readyAgain.length).toBe(3); // two at start, one new
    expect(readyAgain.filter((p) => p === pid)).toHaveLength(1); // the new worker is a new process
    expect(readyAgain[2]).not.toBe(pid);
  }, 60_000);
});
