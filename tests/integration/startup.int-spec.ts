import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { isolatedEnv } from '@tinkerdesk/testing';

function runNode(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('process start-up', () => {
  it.each([
    ['apps/gateway/dist/main.js', { PORT: 'http' }, 'Configuration error: PORT must be a whole number (got "http")'],
    [
      'apps/identity/dist/main.js',
      { NATS_URL: 'localhost:4222' },
      'Configuration error: NATS_URL must use nats: or tls: (got "localhost:")',
    ],
    [
      'apps/conversion/dist/worker.js',
      { WORKER_CONCURRENCY: '0' },
      'Configuration error: WORKER_CONCURRENCY must be between 1 and 64 (got 0)',
    ],
    [
      'apps/commerce/dist/migrate.js',
      { DATABASE_URL: 'mysql://db/x' },
      'Configuration error: DATABASE_URL must use postgres: or postgresql: (got "mysql:")',
    ],
  ])('%s stops with one line naming the variable', async (entry, bad, line) => {
    const result = await runNode([entry], { ...isolatedEnv(), ...bad });
    expect(result.code).toBe(78);
    expect(result.stderr).toBe(`${line}\n`);
  });

  it('npm start names unreachable infrastructure in one line each, with how to start it', async () => {
    const result = await runNode(['scripts/start.mjs', '--no-build'], {
      ...isolatedEnv(),
      REDIS_URL: 'redis://127.0.0.1:1',
      NATS_URL: 'nats://127.0.0.1:2',
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^NATS is not reachable at 127\.0\.0\.1:2 \(NATS_URL\): .*docker compose up -d postgres nats redis/);
    expect(lines[1]).toMatch(/^Redis is not reachable at 127\.0\.0\.1:1 \(REDIS_URL\): .*docker compose up -d postgres nats redis/);
  });
});
