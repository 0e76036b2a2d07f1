import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestPlatform, uniqueEmail } from '@tinkerdesk/testing';
import sharp from 'sharp';

let platform: TestPlatform;
/** The detail of GET /v1/health is for operators holding this token. */
const HEALTH_TOKEN = 'platform-test-health-token';

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
    const form = new FormData();
    form.set(
      'file',
      new Blob(
        [
          new Uint8Array(
            await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366cc' } })
              .png()
              .toBuffer(),
          ),
        ],
        { type: 'image/png' },
      ),
      'id.png',
    );
    form.set('to', 'webp');
    const token = (await platform.call('POST', '/v1/users', { email: uniqueEmail('request-id'), password: 'request id test' })).body
      .token as string;
    const res = await fetch(`${platform.url}/v1/convert/upload`, {
      method: 'POST',
      body: form,
      headers: { 'x-request-id': requestId, authorization: `Bearer ${token}` },
    });
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
    expect(doc).toMatchObject({ info: { description: expect.stringContaining('## Quick start') } });
    const yaml = await fetch(`${platform.url}/v1/openapi.yaml`);
    expect(yaml.status).toBe(200);
    // The reference (Scalar) and its bundle come from the gateway itself.
    const docs = await fetch(`${platform.url}/v1/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toContain('text/html');
    const page = await docs.text();
    expect(page).toContain('<script src="/v1/docs/scalar.js"></script>');
    expect(page).not.toMatch(/<script src="https?:/);
    for (const script of ['/v1/docs/scalar.js', '/v1/docs/start.js']) {
      const res = await fetch(`${platform.url}${script}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('javascript');
    }
  });

  it('sends security headers and CORS', async () => {
    const res = await fetch(`${platform.url}/v1/health/live`, { headers: { origin: 'https://integrator.example' } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});
