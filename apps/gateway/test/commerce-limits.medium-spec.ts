import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { uniqueEmail } from '@tinkerdesk/testing';
import { COMMERCE_LIMITS } from '../src/http/rate-limits.js';
import { startMediumGateway, type MediumGateway } from './medium.js';

/**
 * Orders are limited per client address (a visitor cannot fill a shop with junk orders); the counter
 * is the gateway's (its own Redis prefix here), and a forged X-Forwarded-For changes nothing.
 */
let gateway: MediumGateway;

beforeAll(async () => {
  gateway = await startMediumGateway();
}, 90_000);

afterAll(async () => {
  await gateway?.close();
});

let forged = 0;
function post(path: string, body: unknown, token?: string) {
  forged += 1;
  return gateway.request('POST', path, { body, headers: { 'x-forwarded-for': `198.51.100.${forged % 250}` }, ...(token ? { token } : {}) });
}

describe('orders', () => {
  it('a client address may place only so many orders an hour, then 429 with Retry-After', async () => {
    const seller = await post('/v1/users', { email: uniqueEmail('shop'), password: 'password of a shop' });
    const { guid } = seller.body.profile as { guid: string };
    const token = seller.body.token as string;
    const service = await post(
      `/v1/users/${guid}/services`,
      { name: 'Shop', displayName: 'Shop', provider: 'sandbox', vendor: 'digital', account: 'sandbox_shop' },
      token,
    );
    const sid = (service.body.service as { id: string }).id;
    const product = await post(`/v1/users/${guid}/services/${sid}/products`, { name: 'Thing', price: 100 }, token);
    const pid = (product.body.product as { id: string }).id;
    for (let i = 0; i < COMMERCE_LIMITS.order.perAddress.points; i++) {
      expect((await post(`/v1/users/${guid}/services/${sid}/order`, { product: pid, email: 'buyer@example.com' })).status).toBe(201);
    }
    const limited = await post(`/v1/users/${guid}/services/${sid}/order`, { product: pid, email: 'buyer@example.com' });
    expect(limited).toMatchObject({ status: 429, body: { success: false, error: 'RATE_LIMITED' } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
