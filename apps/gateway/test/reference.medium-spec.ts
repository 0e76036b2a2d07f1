import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { REFERENCE_NAMES } from '@tinkerdesk/contracts';
import { startMediumGateway, type MediumGateway } from './medium.js';

/** GET /v1/reference/{name} through the gateway: every list, cacheable, and a clear 404 for others. */
let gateway: MediumGateway;

beforeAll(async () => {
  gateway = await startMediumGateway();
}, 90_000);

afterAll(async () => {
  await gateway?.close();
});

describe('reference lists', () => {
  it.each(REFERENCE_NAMES)('%s is served with a cache lifetime', async (name) => {
    const answer = await gateway.request('GET', `/v1/reference/${name}`, {});
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, name });
    expect((answer.body.items as unknown[]).length).toBeGreaterThan(9);
    expect(answer.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers 404 with the names there are for an unknown list', async () => {
    const answer = await gateway.request('GET', '/v1/reference/planets', {});
    expect(answer).toMatchObject({ status: 404, body: { success: false, error: 'NOT_FOUND' } });
    expect(String(answer.body.detail)).toContain('countries');
  });
});
