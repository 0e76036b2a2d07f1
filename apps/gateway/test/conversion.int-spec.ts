import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { declaredPng, LiveStreamReader, pdfText, TestPlatform, uniqueEmail } from '@tinkerdesk/testing';
import { zipSync } from 'fflate';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/**
 * File and URL conversion through the real gateway, NATS, the conversion listener, Redis/BullMQ, a
 * worker with LibreOffice, poppler and Chromium, and PostgreSQL: every call of /v1/convert with its
 * bad inputs. A loopback "site" on the allow-list (FETCH_ALLOWED_HOSTS=127.0.0.1) serves URL jobs.
 */
let platform: TestPlatform;
let site: Server;
let sitePort: number;
let alice: string;
let bob: string;

interface JobView {
  id: string;
  state: string;
  progress: number;
  from: string;
  to: string;
  error?: string;
  output?: { filename: string; mediaType: string; size: number };
  expires: string;
}

const UPLOAD_LIMIT = 400_000;

beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url === '/people.csv') res.writeHead(200, { 'content-type': 'text/csv' }).end('name,born\nAda,1815\nGrace,1906\n');
    else if (req.url === '/page.html')
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Site page</title><h1>Hello from the site</h1>');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  sitePort = (site.address() as AddressInfo).port;
  platform = await TestPlatform.start(['identity', 'conversion', 'conversion-worker', 'gateway'], {
    UPLOAD_LIMIT: String(UPLOAD_LIMIT),
    FETCH_ALLOWED_HOSTS: '127.0.0.1',
    RATE_LIMIT_FACTOR: '1000',
    CONVERSION_JOBS_PER_MINUTE: '1000',
    // Files up to 100 kB go through Redis, larger ones through the object store: both tiers are used here.
    CONVERSION_INLINE_MAX_BYTES: '100000',
  });
  const signUp = async (tag: string) =>
    (await platform.call('POST', '/v1/users', { email: uniqueEmail(tag), password: 'converting things' })).body.token as string;
  [alice, bob] = await Promise.all([signUp('alice'), signUp('bob')]);
}, 120_000);

afterAll(async () => {
  await platform?.close();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

function upload(
  token: string | undefined,
  file: Uint8Array | undefined,
  filename: string,
  fields: Record<string, string>,
  type = 'application/octet-stream',
  query = '',
) {
  const form = new FormData();
  if (file) form.set('file', new Blob([new Uint8Array(file)], { type }), filename);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return fetch(`${platform.url}/v1/convert/upload${query}`, {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

async function created(res: Response): Promise<JobView> {
  const body = (await res.json()) as { job: JobView };
  expect(res.status).toBe(202);
  return body.job;
}

async function finished(id: string, token = alice): Promise<JobView> {
  for (let i = 0; i < 300; i++) {
    const { body } = await platform.call('GET', `/v1/convert/jobs/${id}`, undefined, token);
    const job = body.job as JobView;
    if (!['queued', 'active'].includes(job.state)) return job;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${id} did not finish`);
}

async function result(id: string, token = alice): Promise<Response> {
  return fetch(`${platform.url}/v1/convert/jobs/${id}/result`, { headers: { authorization: `Bearer ${token}` } });
}

const png = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();

/** A PNG of noise: it hardly compresses, so its size is known roughly from its pixels. */
const noisy = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .png()
    .toBuffer();

describe('GET /v1/convert/formats', () => {
  it('lists every source with its targets, for a signed-in caller', async () => {
    expect((await platform.call('GET', '/v1/convert/formats')).status).toBe(401);
    const { status, body } = await platform.call('GET', '/v1/convert/formats', undefined, alice);
    expect(status).toBe(200);
    const formats = body.formats as Array<{ id: string; to: string[] }>;
    expect(formats.find((f) => f.id === 'docx')?.to).toEqual(['pdf', 'odt', 'txt']);
    expect(formats.find((f) => f.id === 'url')?.to).toEqual(['pdf', 'png']);
  });
});

describe('uploads', () => {
  it('converts a PNG to WebP with progress, and serves the result under a sensible name', async () => {
    const job = await created(await upload(alice, await png(640, 480), 'holiday photo.png', { to: 'webp', width: '320' }, 'image/png'));
    expect(job).toMatchObject({ state: 'queued', from: 'png', to: 'webp', progress: 0 });
    const done = await finished(job.id);
    expect(done).toMatchObject({ state: 'completed', progress: 100, output: { filename: 'holiday photo.webp', mediaType: 'image/webp' } });
    const res = await result(job.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('holiday photo.webp');
    expect(await sharp(Buffer.from(await res.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 320, height: 240 });
  });

  it('tells the owner’s live stream of the job’s progress up to 100, and nobody else’s', async () => {
    const [mine, theirs] = await Promise.all([LiveStreamReader.open(platform.url, alice), LiveStreamReader.open(platform.url, bob)]);
    try {
      const job = await created(await upload(alice, await png(64, 48), 'live.png', { to: 'gif' }, 'image/png'));
      const done = await mine.stream!.event('conversion.progress', { jobId: job.id, progress: 100 });
      expect(done.ids).toEqual({ jobId: job.id, progress: 100 });
      const steps = mine
        .stream!.events()
        .filter((e) => e.ids.jobId === job.id)
        .map((e) => e.ids.progress as number);
      expect(steps).toEqual([...steps].sort((x, y) => x - y));
      // Bob's stream, open the whole time, heard nothing of it.
      expect(theirs.stream!.events()).toEqual([]);
    } finally {
      mine.stream?.close();
      theirs.stream?.close();
    }
  });

  it('holds GET ?wait=N until the job finishes (a long poll), and refuses a wait out of range', async () => {
    // Text to PDF: the first document of this file starts the worker's LibreOffice (a second or more),
    // so the job is still running when it is asked for.
    const job = await created(
      await upload(alice, new TextEncoder().encode('Waiting for this.\n'), 'wait.txt', { to: 'pdf' }, 'text/plain'),
    );
    const now = await platform.call('GET', `/v1/convert/jobs/${job.id}`, undefined, alice);
    expect(['queued', 'active']).toContain((now.body.job as JobView).state);
    // Answered when the worker announces the job finished, not after the 30 s asked for (the test's
    // own timeout is shorter).
    const waited = await platform.call('GET', `/v1/convert/jobs/${job.id}?wait=30`, undefined, alice);
    expect(waited).toMatchObject({ status: 200, body: { job: { id: job.id, state: 'completed', progress: 100 } } });
    // A finished job answers at once, whatever the wait.
    expect(await platform.call('GET', `/v1/convert/jobs/${job.id}?wait=30`, undefined, alice)).toMatchObject({ status: 200 });
    // Another account waits for nothing: 404 at once.
    expect(await platform.call('GET', `/v1/convert/jobs/${job.id}?wait=30`, undefined, bob)).toMatchObject({ status: 404 });
    for (const wait of ['31', '-1', 'soon']) {
      expect(await platform.call('GET', `/v1/convert/jobs/${job.id}?wait=${wait}`, undefined, alice)).toMatchObject({
        status: 400,
        body: { error: 'VALIDATION_FAILED' },
      });
    }
  }, 20_000);

  it('answers POST upload?wait=N once the job has finished, for a file kept in Redis and one past that size in the object store', async () => {
    for (const [file, name] of [
      [await png(200, 100), 'small.png'],
      [await noisy(300, 200), 'larger.png'],
    ] as const) {
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(file)], { type: 'image/png' }), name);
      form.set('to', 'jpg');
      const res = await fetch(`${platform.url}/v1/convert/upload?wait=30`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${alice}` },
      });
      const job = await created(res);
      expect(job).toMatchObject({
        state: 'completed',
        progress: 100,
        source: { size: file.byteLength },
        output: { mediaType: 'image/jpeg' },
      });
      const out = await result(job.id);
      expect(out.status).toBe(200);
      expect(await sharp(Buffer.from(await out.arrayBuffer())).metadata()).toMatchObject({ format: 'jpeg' });
      // Another account sees neither the job nor its result; deleting it frees the files of either tier.
      expect((await result(job.id, bob)).status).toBe(404);
      expect(await platform.call('DELETE', `/v1/convert/jobs/${job.id}`, undefined, alice)).toMatchObject({ body: { state: 'deleted' } });
      expect((await result(job.id)).status).toBe(404);
    }
    expect((await noisy(300, 200)).byteLength).toBeGreaterThan(100_000);
  }, 30_000);

  it('answers POST upload?wait=N&respond=file with the converted file itself, kept in Redis or past that size in the object store; the job stays', async () => {
    for (const [file, name, to, out] of [
      [await png(200, 100), 'small.png', 'webp', 'small.webp'],
      [await noisy(300, 200), 'larger.png', 'tiff', 'larger.tiff'],
    ] as const) {
      const res = await upload(alice, file, name, { to, width: '300' }, 'image/png', '?wait=30&respond=file');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toContain(`filename="${out}"`);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      const id = res.headers.get('x-conversion-job') ?? '';
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('content-length'))).toBe(bytes.byteLength);
      expect(await sharp(bytes).metadata()).toMatchObject({ format: to, width: to === 'webp' ? 200 : 300 });
      // The job was recorded as any other: completed, its result downloadable again, nobody else's.
      expect((await platform.call('GET', `/v1/convert/jobs/${id}`, undefined, alice)).body.job).toMatchObject({
        state: 'completed',
        progress: 100,
        output: { filename: out, size: bytes.byteLength },
      });
      const again = await result(id);
      expect(again.headers.get('content-type')).toBe(res.headers.get('content-type'));
      expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
      expect((await result(id, bob)).status).toBe(404);
      if (to === 'tiff') expect(bytes.byteLength).toBeGreaterThan(100_000); // this one went through the object store
    }
  }, 30_000);

  it('answers respond=file with the job (202) when the conversion failed, and refuses it without a wait or with another value', async () => {
    const failed = await created(
      await upload(alice, new TextEncoder().encode('just text'), 'notes.png', { to: 'webp' }, 'image/png', '?wait=30&respond=file'),
    );
    expect(failed).toMatchObject({ state: 'failed', error: expect.stringMatching(/is not an image this service can read/) });
    const before = await platform.query<{ n: string }>('SELECT count(*) AS n FROM conversion.job');
    for (const [query, detail] of [
      ['?respond=file', 'respond=file needs wait=N (1 to 30 seconds): the file is answered once the job has finished'],
      ['?wait=0&respond=file', 'respond=file needs wait=N (1 to 30 seconds): the file is answered once the job has finished'],
      ['?wait=5&respond=pdf', 'respond must be job or file'],
    ] as const) {
      const res = await upload(alice, await png(20, 10), 'a.png', { to: 'webp' }, 'image/png', query);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ success: false, error: 'VALIDATION_FAILED', detail: expect.stringContaining(detail) });
    }
    expect((await platform.query<{ n: string }>('SELECT count(*) AS n FROM conversion.job'))[0]?.n).toBe(before[0]?.n);
    // Over the upload limit, respond=file changes nothing: 413.
    const big = await upload(alice, new Uint8Array(UPLOAD_LIMIT + 1000), 'big.png', { to: 'webp' }, 'image/png', '?wait=5&respond=file');
    expect(big.status).toBe(413);
  }, 30_000);

  it('converts text to DOCX and that DOCX to PDF with LibreOffice', async () => {
    const text = new TextEncoder().encode('Minutes of the meeting.\nEverything converted.\n');
    const docxJob = await finished((await created(await upload(alice, text, 'minutes.txt', { to: 'docx' }, 'text/plain'))).id);
    expect(docxJob).toMatchObject({ state: 'completed', output: { filename: 'minutes.docx' } });
    const docx = new Uint8Array(await (await result(docxJob.id)).arrayBuffer());
    const pdfJob = await finished((await created(await upload(alice, docx, 'minutes.docx', { to: 'pdf' }))).id);
    expect(pdfJob).toMatchObject({ state: 'completed', output: { filename: 'minutes.pdf', mediaType: 'application/pdf' } });
    expect(pdfText(Buffer.from(await (await result(pdfJob.id)).arrayBuffer()))).toContain('Everything converted.');
  });

  it('refuses an unsupported pair with 400 naming what the source can become, and stores nothing', async () => {
    const before = await platform.query<{ n: string }>('SELECT count(*) AS n FROM conversion.job');
    const res = await upload(alice, new TextEncoder().encode('hello'), 'notes.docx', { to: 'png' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      success: false,
      error: 'VALIDATION_FAILED',
      detail: 'a Word document (docx) can become pdf, odt or txt, not png',
    });
    const unknown = await upload(alice, new TextEncoder().encode('hello'), 'archive.zip', { to: 'pdf' }, 'application/zip');
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { detail: string }).detail).toContain('archive.zip is not one this service converts');
    const empty = await upload(alice, new Uint8Array(0), 'empty.png', { to: 'webp' });
    expect(await empty.json()).toMatchObject({ error: 'VALIDATION_FAILED', detail: 'file is empty' });
    expect((await platform.query<{ n: string }>('SELECT count(*) AS n FROM conversion.job'))[0]?.n).toBe(before[0]?.n);
  });

  it('answers 413 for an upload over the limit', async () => {
    const res = await upload(alice, new Uint8Array(UPLOAD_LIMIT + 1000), 'big.png', { to: 'webp' }, 'image/png');
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, error: 'PAYLOAD_TOO_LARGE' });
  });

  it.each([
    [
      'a corrupt DOCX',
      () => new TextEncoder().encode('PK\u0003\u0004 broken'),
      'broken.docx',
      'pdf',
      /not a valid docx file|not a docx file/,
    ],
    [
      'a password-protected document',
      () => readFileSync(new URL('../../conversion/test/fixtures/protected.odt', import.meta.url)),
      'secret.odt',
      'pdf',
      /protected by a password/,
    ],
    ['a pixel bomb (a 10,000 × 10,000 PNG in a few bytes)', () => declaredPng(10_000, 10_000), 'bomb.png', 'webp', /10000 × 10000 pixels/],
    ['a ZIP bomb', () => zipSync({ 'word/document.xml': new Uint8Array(300 * 1024 * 1024) }, { level: 9 }), 'bomb.docx', 'pdf', /ZIP bomb/],
    ['text called an image', () => new TextEncoder().encode('just text'), 'notes.png', 'webp', /is not an image this service can read/],
  ])('fails %s with a clear message, and 422 on its result', async (_what, make, filename, to, message) => {
    const bytes = make();
    // Making the ZIP bomb holds this process's event loop for seconds: the client's idle keep-alive
    // socket may have been closed by the server meanwhile, and the client's own timer that retires it
    // has not run yet. One turn of the loop lets it run, so the upload goes out on a fresh connection.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const job = await finished((await created(await upload(alice, bytes, filename, { to }))).id);
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(message);
    const res = await result(job.id);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ success: false, error: 'UNPROCESSABLE', detail: job.error });
  });
});

describe('URLs', () => {
  it('converts a CSV on the web to XLSX (its format found once fetched)', async () => {
    const job = await finished((await created(await fetchJob(alice, { url: `http://127.0.0.1:${sitePort}/people.csv`, to: 'xlsx' }))).id);
    expect(job).toMatchObject({ state: 'completed', from: 'auto', output: { filename: 'people.xlsx' } });
  });

  it('renders a web page to PDF with Chromium', async () => {
    const job = await finished(
      (await created(await fetchJob(alice, { url: `http://127.0.0.1:${sitePort}/page.html`, from: 'url', to: 'pdf' }))).id,
    );
    expect(job).toMatchObject({ state: 'completed', output: { filename: 'Site page.pdf', mediaType: 'application/pdf' } });
    expect(pdfText(Buffer.from(await (await result(job.id)).arrayBuffer()))).toContain('Hello from the site');
  });

  it.each([
    ['the loopback address under another name', 'http://localhost:PORT/people.csv'],
    ['IPv6 loopback', 'http://[::1]:PORT/'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['a private address', 'http://192.168.1.1/'],
    ['a decimal spelling of 10.0.0.1', 'http://167772161/'],
    ['a file URL', 'file:///etc/passwd'],
  ])('refuses %s at once with 403 URL_NOT_ALLOWED, queueing nothing', async (_what, url) => {
    const res = await fetchJob(alice, { url: url.replace('PORT', String(sitePort)), to: 'pdf', from: 'url' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ success: false, error: 'URL_NOT_ALLOWED' });
  });

  it('fails a job whose URL answers an error, with the site’s status', async () => {
    const job = await finished((await created(await fetchJob(alice, { url: `http://127.0.0.1:${sitePort}/missing.csv`, to: 'xlsx' }))).id);
    expect(job).toMatchObject({ state: 'failed', error: `127.0.0.1:${sitePort} answered 404 Not Found` });
  });
});

function fetchJob(token: string | undefined, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${platform.url}/v1/convert/fetch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

describe('ownership and lifetimes', () => {
  it('needs a token for every call', async () => {
    expect((await upload(undefined, await png(4, 4), 'a.png', { to: 'webp' })).status).toBe(401);
    expect((await fetchJob(undefined, { url: 'https://example.com/', to: 'pdf' })).status).toBe(401);
    expect((await platform.call('GET', '/v1/convert/jobs')).status).toBe(401);
  });

  it('answers another account’s job exactly like a missing one, and lists only one’s own jobs, newest first', async () => {
    const job = await finished((await created(await upload(alice, await png(8, 8), 'mine.png', { to: 'gif' }, 'image/png'))).id);
    const missing = '3f0e8a4e-8a52-4c1e-9b1e-0c6a2b7e9d11';
    for (const [method, path] of [
      ['GET', `/v1/convert/jobs/${job.id}`],
      ['GET', `/v1/convert/jobs/${job.id}/result`],
      ['DELETE', `/v1/convert/jobs/${job.id}`],
    ] as const) {
      const theirs = await platform.call(method, path, undefined, bob);
      const unknown = await platform.call(method, path.replace(job.id, missing), undefined, bob);
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual({ ...unknown.body, detail: (unknown.body.detail as string).replace(missing, job.id) });
    }
    const mine = await platform.call('GET', '/v1/convert/jobs?offset=0&limit=2', undefined, alice);
    expect(mine.body).toMatchObject({ success: true, offset: 0, limit: 2 });
    expect((mine.body.jobs as JobView[])[0]?.id).toBe(job.id);
    expect(mine.body.total as number).toBeGreaterThan(2);
    const theirs = await platform.call('GET', '/v1/convert/jobs', undefined, bob);
    expect(theirs.body).toMatchObject({ jobs: [], total: 0 });
    expect((await platform.call('GET', '/v1/convert/jobs?limit=500', undefined, alice)).status).toBe(400);
  });

  it('deletes a finished job and its files', async () => {
    const job = await finished((await created(await upload(alice, await png(8, 8), 'gone.png', { to: 'jpg' }, 'image/png'))).id);
    expect(await platform.call('DELETE', `/v1/convert/jobs/${job.id}`, undefined, alice)).toMatchObject({
      status: 200,
      body: { success: true, state: 'deleted' },
    });
    expect((await platform.call('GET', `/v1/convert/jobs/${job.id}`, undefined, alice)).status).toBe(404);
  });

  it('expires a result whose time is up: 410 EXPIRED, and the job says so', async () => {
    const job = await finished((await created(await upload(alice, await png(8, 8), 'old.png', { to: 'tiff' }, 'image/png'))).id);
    await platform.query(`UPDATE conversion.job SET expires = now() - interval '1 minute' WHERE id = $1`, [job.id]);
    const res = await result(job.id);
    expect(res.status).toBe(410);
    expect(await res.json()).toMatchObject({ success: false, error: 'EXPIRED' });
    expect((await platform.call('GET', `/v1/convert/jobs/${job.id}`, undefined, alice)).body.job).toMatchObject({ state: 'expired' });
  });
});

describe('a full queue', () => {
  it('cancels queued jobs, and answers 429 QUEUE_FULL with Retry-After past the queue limit', async () => {
    await platform.stopProcess('conversion-worker');
    await platform.stopProcess('conversion');
    const saved = platform.env.CONVERSION_QUEUE_LIMIT;
    platform.env.CONVERSION_QUEUE_LIMIT = '2';
    await platform.startProcess('conversion');
    try {
      const first = await created(await upload(alice, await png(8, 8), 'q1.png', { to: 'webp' }, 'image/png'));
      const second = await created(await upload(alice, await png(8, 8), 'q2.png', { to: 'webp' }, 'image/png'));
      const full = await upload(alice, await png(8, 8), 'q3.png', { to: 'webp' }, 'image/png');
      expect(full.status).toBe(429);
      expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await full.json()).toMatchObject({ success: false, error: 'QUEUE_FULL' });
      expect(await platform.call('DELETE', `/v1/convert/jobs/${first.id}`, undefined, alice)).toMatchObject({
        body: { state: 'cancelled' },
      });
      expect((await platform.call('GET', `/v1/convert/jobs/${first.id}`, undefined, alice)).body.job).toMatchObject({ state: 'cancelled' });
      // A cancel that reaches the record while the queue keeps the entry (as for a job its worker had
      // taken already): the worker, which converts an upload by its plan before its start is written,
      // leaves the job cancelled and keeps no result.
      await platform.query(`UPDATE conversion.job SET state = 'cancelled' WHERE id = $1`, [second.id]);
      const fourth = await created(await upload(alice, await png(8, 8), 'q4.png', { to: 'webp' }, 'image/png'));
      await platform.startProcess('conversion-worker');
      const done = await platform.call('GET', `/v1/convert/jobs/${fourth.id}?wait=20`, undefined, alice);
      expect(done.body.job).toMatchObject({ state: 'completed' });
      // Its worker has seen it (the two ran side by side): dropped, as its log line says.
      const dropped = () =>
        platform
          .logs('conversion-worker')
          .split('\n')
          .some((line) => line.includes(second.id) && line.includes('conversion dropped: the job was cancelled or expired'));
      for (let i = 0; i < 100 && !dropped(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(dropped()).toBe(true);
      expect((await platform.call('GET', `/v1/convert/jobs/${second.id}`, undefined, alice)).body.job).toMatchObject({
        state: 'cancelled',
        progress: 0,
      });
      const result = await platform.call('GET', `/v1/convert/jobs/${second.id}/result`, undefined, alice);
      expect(result).toMatchObject({ status: 409, body: { error: 'CONFLICT' } });
    } finally {
      await platform.stopProcess('conversion');
      if (saved === undefined) delete platform.env.CONVERSION_QUEUE_LIMIT;
      else platform.env.CONVERSION_QUEUE_LIMIT = saved;
      await platform.startProcess('conversion');
      await platform.stopProcess('conversion-worker');
      await platform.startProcess('conversion-worker');
    }
  });
});
