import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestPlatform, uniqueEmail } from '@tinkerdesk/testing';
import { Redis } from 'ioredis';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/**
 * A worker killed in the middle of a job (SIGKILL) loses nothing: once its lock lapses, another
 * worker takes the job up and completes it (BullMQ's stalled-job recovery). A job that kills every
 * worker that takes it fails after a bounded number of tries, with its reason, and never loops.
 * The slow job is a web page whose image takes a few seconds to arrive; for an upload kept in Redis
 * (a small file), a 30-megapixel image of one colour (under 100 KB) made AVIF.
 */
let platform: TestPlatform;
let site: Server;
let port: number;
let token: string;

const SLOW_MS = 4000;

beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url?.startsWith('/slow.html')) {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Slow page</title><h1>Slow page</h1><img src="/slow.png">');
    } else if (req.url === '/slow.png') {
      setTimeout(() => res.writeHead(404).end(), SLOW_MS).unref();
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  port = (site.address() as AddressInfo).port;
  platform = await TestPlatform.start(['identity', 'conversion', 'conversion-worker', 'gateway'], {
    FETCH_ALLOWED_HOSTS: '127.0.0.1',
    CONVERSION_LOCK_MS: '2000',
    CONVERSION_ATTEMPTS: '3',
    RATE_LIMIT_FACTOR: '1000',
  });
  token = (await platform.call('POST', '/v1/users', { email: uniqueEmail('recovery'), password: 'recovering jobs' })).body.token as string;
}, 120_000);

afterAll(async () => {
  await platform?.close();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

async function job(id: string): Promise<{ state: string; error?: string; progress: number }> {
  return (await platform.call('GET', `/v1/convert/jobs/${id}`, undefined, token)).body.job as {
    state: string;
    error?: string;
    progress: number;
  };
}

async function until(
  id: string,
  done: (j: { state: string; progress: number }) => boolean,
  timeoutMs: number,
): Promise<{ state: string; error?: string }> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const current = await job(id);
    if (done(current)) return current;
    if (Date.now() > end) throw new Error(`job ${id} stayed ${JSON.stringify(current)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function slowJob(): Promise<string> {
  const { status, body } = await platform.call(
    'POST',
    '/v1/convert/fetch',
    { url: `http://127.0.0.1:${port}/slow.html?${Math.random()}`, from: 'url', to: 'pdf' },
    token,
  );
  expect(status).toBe(202);
  return (body.job as { id: string }).id;
}

/** The running worker process has started the job (its log says so). */
async function startedHere(id: string, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (
      platform
        .logs('conversion-worker')
        .split('\n')
        .some((l) => l.includes('conversion started') && l.includes(id))
    )
      return true;
    if (!['queued', 'active'].includes((await job(id)).state)) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${id} was not started by the running worker within ${timeoutMs} ms`);
}

describe('a conversion worker dies', () => {
  it('in the middle of a job: another worker takes the job up and completes it', async () => {
    const id = await slowJob();
    expect(await startedHere(id, 30_000)).toBe(true);
    await platform.stopProcess('conversion-worker', 'SIGKILL');
    await platform.startProcess('conversion-worker');
    const done = await until(id, (j) => !['queued', 'active'].includes(j.state), 60_000);
    expect(done).toMatchObject({ state: 'completed' });
    const result = await fetch(`${platform.url}/v1/convert/jobs/${id}/result`, { headers: { authorization: `Bearer ${token}` } });
    expect(result.status).toBe(200);
    expect(
      Buffer.from(await result.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  }, 90_000);

  it('in the middle of a job whose upload is kept in Redis: another worker reads it again and completes the job', async () => {
    const png = await sharp({ create: { width: 6000, height: 5000, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    expect(png.length).toBeLessThan(4 * 1024 ** 2); // within CONVERSION_INLINE_MAX_BYTES: kept in Redis
    const form = new FormData();
    form.set('to', 'avif');
    form.set('file', new Blob([png]), 'large-but-small.png');
    const upload = await fetch(`${platform.url}/v1/convert/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(upload.status).toBe(202);
    const id = ((await upload.json()) as { job: { id: string } }).job.id;
    const redis = new Redis(platform.env.REDIS_URL ?? 'redis://localhost:6379');
    const input = `${platform.env.REDIS_PREFIX}:conversion-file:in/${id}`;
    try {
      expect(await startedHere(id, 30_000)).toBe(true);
      await platform.stopProcess('conversion-worker', 'SIGKILL');
      expect(await redis.exists(input)).toBe(1); // the input stays until its job completes
      await platform.startProcess('conversion-worker');
      const done = await until(id, (j) => !['queued', 'active'].includes(j.state), 60_000);
      expect(done).toMatchObject({ state: 'completed' });
      const result = await fetch(`${platform.url}/v1/convert/jobs/${id}/result`, { headers: { authorization: `Bearer ${token}` } });
      expect(result.status).toBe(200);
      expect(await sharp(Buffer.from(await result.arrayBuffer())).metadata()).toMatchObject({ width: 6000, height: 5000 });
      expect(await redis.exists(input)).toBe(0); // and goes once it has
    } finally {
      redis.disconnect();
    }
  }, 90_000);

  it('is stopped (SIGTERM) in the middle of a job: it finishes the job, then exits', async () => {
    const id = await slowJob();
    expect(await startedHere(id, 30_000)).toBe(true);
    await platform.stopProcess('conversion-worker', 'SIGTERM');
    // No other worker ran meanwhile: the one that stopped completed the job before it exited.
    expect(await job(id)).toMatchObject({ state: 'completed' });
    await platform.startProcess('conversion-worker');
  }, 90_000);

  it('every time it runs a job: the job fails after a bounded number of tries, with its reason', async () => {
    const id = await slowJob();
    let kills = 0;
    for (;;) {
      if (!(await startedHere(id, 60_000))) {
        expect(await job(id)).toMatchObject({
          state: 'failed',
          error: 'the conversion stopped its worker every time it was tried, and was given up',
        });
        break;
      }
      kills++;
      expect(kills).toBeLessThanOrEqual(3);
      await platform.stopProcess('conversion-worker', 'SIGKILL');
      await platform.startProcess('conversion-worker');
    }
    expect(kills).toBe(3);
  }, 150_000);
});
