/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { LINK_ROUTES } from '@tinkerdesk/contracts/web';

// The module keeps one early request per page: each test loads a fresh copy.
async function load() {
  jest.resetModules();
  return import('./early-shop');
}

const request = (path: string, init?: RequestInit) => new Request(`http://localhost${path}`, init);

describe('the early shop read', () => {
  let calls: string[];
  const realFetch = globalThis.fetch;

  beforeEach(() => {
    calls = [];
    globalThis.fetch = ((url: string) => {
      calls.push(url);
      return Promise.resolve(new Response('{"success":true}', { status: 200 }));
    }) as typeof fetch;
  });

  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it("reads the shop of the contracts' storefront and short-link routes, and nothing for other pages", async () => {
    const { shopReadFor } = await load();
    expect(LINK_ROUTES.storefront).toBe('/shop/:guid/:serviceId');
    expect(LINK_ROUTES.shop).toBe('/s/:slug');
    expect(shopReadFor('/shop/u-1/s-2')).toBe('/v1/users/u-1/services/s-2');
    expect(shopReadFor('/shop/u-1/s-2/')).toBe('/v1/users/u-1/services/s-2');
    expect(shopReadFor('/s/bakery')).toBe('/v1/shops/bakery');
    for (const other of ['/', '/shop/u-1', '/shop/u-1/s-2/more', '/s/', '/s/a/b', '/tools/', '/account']) {
      expect(shopReadFor(other)).toBeUndefined();
    }
  });

  it('is not sent on another page', async () => {
    const early = await load();
    early.requestShopEarly('/tools/');
    expect(calls).toEqual([]);
    expect(early.takeEarlyShop(request('/v1/shops/bakery'))).toBeUndefined();
  });

  it('is sent once and answers the same anonymous GET once', async () => {
    const early = await load();
    early.requestShopEarly('/s/bakery');
    early.requestShopEarly('/s/bakery');
    expect(calls).toEqual(['/v1/shops/bakery']);
    const answer = early.takeEarlyShop(request('/v1/shops/bakery'));
    expect(answer).toBeDefined();
    expect((await answer!).status).toBe(200);
    expect(early.takeEarlyShop(request('/v1/shops/bakery'))).toBeUndefined();
  });

  it('does not answer another path, a query, another method or a signed request', async () => {
    const early = await load();
    early.requestShopEarly('/shop/u-1/s-2');
    expect(early.takeEarlyShop(request('/v1/users/u-1/services/s-3'))).toBeUndefined();
    expect(early.takeEarlyShop(request('/v1/users/u-1/services/s-2?x=1'))).toBeUndefined();
    expect(early.takeEarlyShop(request('/v1/users/u-1/services/s-2', { method: 'DELETE' }))).toBeUndefined();
    expect(early.takeEarlyShop(request('/v1/users/u-1/services/s-2', { headers: { authorization: 'Bearer t' } }))).toBeUndefined();
    expect(early.takeEarlyShop(request('/v1/users/u-1/services/s-2'))).toBeDefined();
  });
});
