import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { uniqueEmail } from '@tinkerdesk/testing';
import { startMediumGateway, type MediumGateway } from './medium.js';

/**
 * The reads that answer a service's answer unchanged pass its bytes through (RpcClient.passThrough,
 * JsonBody): against the real commerce and identity, their bodies are what the value encoded by the
 * gateway would be, with the same headers, ETag revalidation, ownership and error envelope as before.
 */
let gateway: MediumGateway;
let seller: { guid: string; token: string };
let sid: string;
const NAMES = ['Poster « Café » 🎨', '印刷 \u2028 line separator', 'Quote " and backslash \\ and a \t tab'];

beforeAll(async () => {
  gateway = await startMediumGateway();
  const signup = await gateway.call('POST', '/v1/users', { email: uniqueEmail('passthrough'), password: 'password of a shop' });
  seller = { guid: (signup.body.profile as { guid: string }).guid, token: signup.body.token as string };
  const service = await gateway.call(
    'POST',
    `/v1/users/${seller.guid}/services`,
    { name: 'Shop', displayName: 'Ünïcode shop 🛍', provider: 'sandbox', vendor: 'digital', account: 'sandbox_shop' },
    seller.token,
  );
  sid = (service.body.service as { id: string }).id;
  for (const [i, name] of NAMES.entries()) {
    const product = await gateway.call('POST', `/v1/users/${seller.guid}/services/${sid}/products`, { name, price: 100 + i }, seller.token);
    expect(product.status).toBe(201);
  }
}, 90_000);

afterAll(async () => {
  await gateway?.close();
});

describe('reads passed through from the services', () => {
  it('answers the products as JSON, unicode intact, in the envelope the route promises', async () => {
    const res = await gateway.http.get(`/v1/users/${seller.guid}/services/${sid}/products`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    const body = JSON.parse(res.text) as { success: boolean; products: Array<{ name: string }> };
    expect(body.success).toBe(true);
    expect(body.products.map((p) => p.name).sort()).toEqual([...NAMES].sort());
    // Exactly the bytes the gateway's own encoding of the value would be.
    expect(res.text).toBe(JSON.stringify(body));
  });

  it('revalidates with the ETag (304), and answers HEAD without a body', async () => {
    const path = `/v1/users/${seller.guid}/services/${sid}/products`;
    const first = await gateway.http.get(path);
    expect(first.headers.etag).toMatch(/^W\/"/);
    const again = await gateway.http.get(path).set('if-none-match', String(first.headers.etag));
    expect(again.status).toBe(304);
    const head = await gateway.http.head(path);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
  });

  it("spreads an object answer into the envelope (the storefront), the service's fields after success", async () => {
    const res = await gateway.http.get(`/v1/users/${seller.guid}/services/${sid}`);
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text) as Record<string, unknown>;
    expect(Object.keys(body)[0]).toBe('success');
    expect(body).toMatchObject({ success: true, service: { id: sid } });
    expect(res.text).toBe(JSON.stringify(body));
  });

  it("keeps the error envelope and status of the service's errors", async () => {
    const unknown = await gateway.call('GET', `/v1/users/${seller.guid}/services/6f1c3a52-1f6e-4c8a-9d3b-6a2f7c1e9b40/products`);
    expect(unknown).toMatchObject({ status: 404, body: { success: false, error: 'NOT_FOUND' } });
    const invalid = await gateway.call('GET', `/v1/users/${seller.guid}/services/not-a-uuid/products`);
    expect(invalid).toMatchObject({ status: 400, body: { success: false, error: 'VALIDATION_FAILED' } });
  });

  it("keeps ownership: the seller's order list needs the seller, and shows another account none of it", async () => {
    expect(await gateway.call('GET', '/v1/fulfillment?limit=5')).toMatchObject({ status: 401, body: { success: false } });
    const own = await gateway.http.get('/v1/fulfillment?limit=5').set('authorization', `Bearer ${seller.token}`);
    expect(own.status).toBe(200);
    expect(JSON.parse(own.text)).toMatchObject({ success: true, orders: [], total: 0 });
    const other = await gateway.call('POST', '/v1/users', { email: uniqueEmail('passthrough-other'), password: 'password of another' });
    const product = await gateway.call('GET', `/v1/users/${seller.guid}/services/${sid}/products`, undefined, other.body.token as string);
    expect((product.body.products as unknown[]).length).toBe(NAMES.length);
    const theirs = await gateway.call('GET', '/v1/fulfillment', undefined, other.body.token as string);
    expect(theirs).toMatchObject({ status: 200, body: { success: true, orders: [], total: 0 } });
  });
});
