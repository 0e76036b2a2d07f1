import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestPlatform } from '@tinkerdesk/testing';
import sharp from 'sharp';

let platform: TestPlatform;
/** The detail of GET /v1/health is for operators holding this token. */
const HEALTH_TOKEN = 'platform-test-health-token';

async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
}

function upload(file: Buffer | undefined, fields: Record<string, string>, filename = 'picture.png', headers: Record<string, string> = {}) {
  const form = new FormData();
  if (file) form.set('file', new Blob([new Uint8Array(file)], { type: 'image/png' }), filename);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return fetch(`${platform.url}/v1/convert/upload`, { method: 'POST', body: form, headers });
}

async function waitForJob(id: string): Promise<{ state: string; output?: { size: number; mediaType: string }; error?: string }> {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${platform.url}/v1/convert/jobs/${id}`);
    const body = (await res.json()) as { job: { state: string } };
    if (body.job.state === 'completed' || body.job.state === 'failed') return body.job;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('job did not finish');
}

beforeAll(async () => {
  platform = await TestPlatform.start(['identity', 'commerce', 'terminals', 'conversion', 'conversion-worker', 'gateway'], {
    BODY_LIMIT: '4096',
    UPLOAD_LIMIT: '200000',
    HEALTH_TOKEN,
  });
}, 90_000);

afterAll(async () => {
  await platform?.close();
});

describe('health through the gateway', () => {
  it('reports every service up with its database, and Redis for identity and conversion (operator detail)', async () => {
    const res = await fetch(`${platform.url}/v1/health`, { headers: { authorization: `Bearer ${HEALTH_TOKEN}` } });
    expect(res.status).toBe(200);
    const report = (await res.json()) as {
      status: string;
      services: Record<string, { status: string; dependencies: Record<string, { status: string }> }>;
    };
    expect(report.status).toBe('ok');
    for (const service of ['identity', 'commerce', 'terminals', 'conversion']) {
      expect(report.services[service]?.status).toBe('up');
      expect(report.services[service]?.dependencies.database?.status).toBe('up');
    }
    expect(report.services.conversion?.dependencies.redis?.status).toBe('up');
    expect(report.services.identity?.dependencies.redis?.status).toBe('up');
  });

  it('made each service write and read its own schema', async () => {
    for (const schema of ['identity', 'commerce', 'terminals', 'conversion']) {
      const rows = await platform.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".service_instance`);
      expect(Number(rows[0]?.n)).toBeGreaterThanOrEqual(1);
    }
    const tables = await platform.query<{ table_schema: string }>(
      "SELECT DISTINCT table_schema FROM information_schema.tables WHERE table_name = 'migrations' ORDER BY 1",
    );
    expect(tables.map((t) => t.table_schema)).toEqual(['commerce', 'conversion', 'identity', 'terminals']);
  });

  it('answers liveness and readiness', async () => {
    expect((await fetch(`${platform.url}/v1/health/live`)).status).toBe(200);
    expect((await fetch(`${platform.url}/v1/health/ready`)).status).toBe(200);
  });
});

describe('conversion job through gateway, NATS, Redis and a worker', () => {
  it('converts an uploaded PNG to WebP and serves the result', async () => {
    const res = await upload(await png(640, 480), { to: 'webp', width: '320' }, 'holiday photo.png');
    expect(res.status).toBe(202);
    const { job } = (await res.json()) as { job: { id: string; state: string } };
    expect(job.state).toBe('queued');
    const done = await waitForJob(job.id);
    expect(done.state).toBe('completed');
    const result = await fetch(`${platform.url}/v1/convert/jobs/${job.id}/result`);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('image/webp');
    expect(result.headers.get('content-disposition')).toContain('holiday photo.webp');
    const meta = await sharp(Buffer.from(await result.arrayBuffer())).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(320);
    expect(meta.height).toBe(240);
  });

  it('fails a job whose file is not an image, with a clear message and 422 on the result', async () => {
    const res = await upload(Buffer.from('just some text, not pixels'), { to: 'png' }, 'notes.txt');
    expect(res.status).toBe(202);
    const { job } = (await res.json()) as { job: { id: string } };
    const done = await waitForJob(job.id);
    expect(done.state).toBe('failed');
    expect(done.error).toContain('notes.txt is not an image');
    const result = await fetch(`${platform.url}/v1/convert/jobs/${job.id}/result`);
    expect(result.status).toBe(422);
    expect(await result.json()).toEqual({ success: false, error: 'UNPROCESSABLE', detail: done.error });
  });

  it('rejects bad uploads with 400 and nothing stored', async () => {
    const before = await platform.query<{ n: string }>('SELECT count(*) AS n FROM conversion.job');
    const noFile = await upload(undefined, { to: 'png' });
    expect(noFile.status).toBe(400);
    expect(await noFile.json()).toMatchObject({ success: false, error: 'VALIDATION_FAILED', detail: expect.stringContaining('file') });
    const badTarget = await upload(await png(4, 4), { to: 'bmp' });
    expect(badTarget.status).toBe(400);
    expect(await badTarget.json()).toMatchObject({
      success: false,
      error: 'VALIDATION_FAILED',
      detail: expect.stringContaining('to must be one of'),
    });
    const badWidth = await upload(await png(4, 4), { to: 'png', width: '-3' });
    expect(badWidth.status).toBe(400);
    const unknownField = await upload(await png(4, 4), { to: 'png', colour: 'red' });
    expect(unknownField.status).toBe(400);
    const after = await platform.query<{ n: string }>('SELECT count(*) AS n FROM conversion.job');
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('answers 413 for an upload over the limit', async () => {
    const big = await sharp({
      create: { width: 800, height: 800, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
    })
      .png()
      .toBuffer();
    expect(big.byteLength).toBeGreaterThan(200000);
    const res = await upload(big, { to: 'webp' });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, error: 'PAYLOAD_TOO_LARGE' });
  });

  it('validates job ids and reports unknown jobs', async () => {
    const bad = await fetch(`${platform.url}/v1/convert/jobs/not-a-uuid`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ success: false, error: 'VALIDATION_FAILED' });
    const unknown = await fetch(`${platform.url}/v1/convert/jobs/3f0e8a4e-8a52-4c1e-9b1e-0c6a2b7e9d11`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ success: false, error: 'NOT_FOUND' });
  });
});

describe('the gateway contract', () => {
  it('answers malformed JSON with 400 in the envelope', async () => {
    const res = await fetch(`${platform.url}/v1/convert/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"to": ',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ success: false, error: 'MALFORMED_JSON', detail: 'the request body is not valid JSON' });
  });

  it('answers a JSON body over the limit with 413', async () => {
    const res = await fetch(`${platform.url}/v1/convert/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: 'x'.repeat(10_000) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, error: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers unknown /v1 routes with 404 NOT_FOUND in JSON', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nothing-here'],
      ['POST', '/v1/nothing/here'],
      ['DELETE', '/v1'],
    ] as const) {
      const res = await fetch(`${platform.url}${path}`, { method });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(await res.json()).toMatchObject({ success: false, error: 'NOT_FOUND' });
    }
  });

  it('serves the web app for deep links (SPA fallback)', async () => {
    for (const path of ['/', '/tools/guidgenerator/', '/login', '/no/such/page']) {
      const res = await fetch(`${platform.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
    }
  });

  it('carries the request id to the services and echoes it', async () => {
    const requestId = `itest-${Date.now()}`;
    const res = await upload(await png(8, 8), { to: 'png' }, 'id.png', { 'x-request-id': requestId });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    const { job } = (await res.json()) as { job: { id: string } };
    await new Promise((r) => setTimeout(r, 200));
    const line = platform
      .logs('conversion')
      .split('\n')
      .find((l) => l.includes('conversion job queued') && l.includes(job.id));
    expect(line && (JSON.parse(line) as { requestId?: string }).requestId).toBe(requestId);
    const fresh = await fetch(`${platform.url}/v1/health/live`);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('publishes OpenAPI 3 from the DTOs, and the docs page', async () => {
    const res = await fetch(`${platform.url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/health', '/v1/convert/upload', '/v1/convert/jobs/{id}', '/v1/convert/jobs/{id}/result']),
    );
    const docs = await fetch(`${platform.url}/v1/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
  });

  it('sends security headers and CORS', async () => {
    const res = await fetch(`${platform.url}/v1/health/live`, { headers: { origin: 'https://integrator.example' } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});
