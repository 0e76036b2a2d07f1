import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestPlatform, uniqueEmail } from '@tinkerdesk/testing';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { countingListener, outsideDocx, outsideHtml, pdfImageSizes, type CountingListener } from './outside-documents.js';

/**
 * Issue 27, through the real gateway and workers: an uploaded HTML page or Word document naming a
 * loopback listener (and a file of the worker's) converts with zero requests reaching the listener
 * and without the file in the PDF; and a worker whose sandbox cannot run counts LibreOffice as missing
 * (one line in its log at start saying why) instead of running it without the sandbox: document jobs
 * are refused with 503 ENGINE_UNAVAILABLE, while it goes on converting images.
 */
let listener: CountingListener;
let png: Buffer;

beforeAll(async () => {
  png = await sharp({ create: { width: 61, height: 47, channels: 3, background: '#e11d48' } })
    .png()
    .toBuffer();
  listener = await countingListener(png);
});

afterAll(async () => {
  await listener?.close();
});

interface Job {
  id: string;
  state: string;
  error?: string;
}

async function convert(platform: TestPlatform, token: string, file: Uint8Array, filename: string, to: string): Promise<Job> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(file)]), filename);
  form.set('to', to);
  const res = await fetch(`${platform.url}/v1/convert/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(202);
  const { job } = (await res.json()) as { job: Job };
  for (;;) {
    const { body } = await platform.call('GET', `/v1/convert/jobs/${job.id}?wait=30`, undefined, token);
    const now = body.job as Job;
    if (now.state !== 'queued' && now.state !== 'active') return now;
  }
}

async function signUp(platform: TestPlatform): Promise<string> {
  const { body } = await platform.call('POST', '/v1/users', { email: uniqueEmail('sandbox'), password: 'sandboxed engines' });
  return body.token as string;
}

describe('document conversion through /v1 with the sandbox', () => {
  let platform: TestPlatform;
  let token: string;

  beforeAll(async () => {
    platform = await TestPlatform.start(['identity', 'conversion', 'conversion-worker', 'gateway'], { RATE_LIMIT_FACTOR: '1000' });
    token = await signUp(platform);
  }, 120_000);

  afterAll(async () => {
    await platform?.close();
  });

  it('an HTML page and a Word document that name the outside reach nothing, and a worker file is not embedded', async () => {
    // A file of the worker's machine (the test runs beside it).
    const secret = join(mkdtempSync(join(tmpdir(), 'engine-sandbox-')), 'worker-secret.png');
    writeFileSync(secret, png);
    for (const [file, name] of [
      [outsideHtml(listener.base, secret), 'outside.html'],
      [outsideDocx(listener.base), 'outside.docx'],
    ] as const) {
      const job = await convert(platform, token, file, name, 'pdf');
      expect(job).toMatchObject({ state: 'completed' });
      const res = await fetch(`${platform.url}/v1/convert/jobs/${job.id}/result`, { headers: { authorization: `Bearer ${token}` } });
      expect(pdfImageSizes(new Uint8Array(await res.arrayBuffer()))).toEqual([]);
    }
    expect(listener.hits).toEqual([]);
  }, 120_000);
});

describe('a worker whose sandbox cannot run', () => {
  let platform: TestPlatform;
  let token: string;

  beforeAll(async () => {
    platform = await TestPlatform.start(['identity', 'conversion', 'conversion-worker', 'gateway'], {
      RATE_LIMIT_FACTOR: '1000',
      SANDBOX_BWRAP: '/nonexistent/bwrap',
    });
    token = await signUp(platform);
  }, 120_000);

  afterAll(async () => {
    await platform?.close();
  });

  it('refuses document jobs at once (its LibreOffice counts as missing), says why once at start, and still converts images', async () => {
    // The worker announces LibreOffice as missing: a document job is refused before anything is queued.
    const form = new FormData();
    form.set('file', new Blob([new TextEncoder().encode('never unsandboxed\n')]), 'notes.txt');
    form.set('to', 'pdf');
    const res = await fetch(`${platform.url}/v1/convert/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(503);
    const refusal = (await res.json()) as { error: string; detail: string };
    expect(refusal.error).toBe('ENGINE_UNAVAILABLE');
    expect(refusal.detail).toContain('(engine libreoffice)');
    expect((await platform.call('GET', '/v1/convert/jobs', undefined, token)).body).toMatchObject({ total: 0 });
    const logs = platform.logs('conversion-worker');
    expect(logs.match(/its sandbox cannot run \(\/nonexistent\/bwrap, SANDBOX_BWRAP\)/g)).toHaveLength(1);
    expect(logs).toContain('/nonexistent/bwrap is not installed');
    const image = await convert(platform, token, png, 'photo.png', 'webp');
    expect(image).toMatchObject({ state: 'completed' });
  }, 120_000);
});
