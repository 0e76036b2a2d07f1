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

  describe('with the answer the gateway inlined in the page', () => {
    const inline = (value: unknown) => {
      const script = document.createElement('script');
      script.type = 'application/json';
      script.id = 'shop-answer';
      script.textContent = JSON.stringify(value);
      document.head.appendChild(script);
    };
    afterEach(() => document.getElementById('shop-answer')?.remove());
    const shop = { seller: { guid: 'u-1', name: 'Ada' }, service: { id: 's-2', name: 'Prints' }, products: [] };

    it('starts the page from it and reads nothing: the first read takes it', async () => {
      inline({ read: '/v1/users/u-1/services/s-2', status: 200, body: { success: true, ...shop }, at: 42 });
      const early = await load();
      expect(early.inlineShop('/v1/users/u-1/services/s-2')).toEqual({ shop, at: 42 });
      expect(early.inlineShop('/v1/users/u-1/services/s-3')).toBeUndefined();
      early.requestShopEarly('/shop/u-1/s-2');
      expect(calls).toEqual([]);
      const answer = await early.takeEarlyShop(request('/v1/users/u-1/services/s-2'))!;
      expect([answer.status, await answer.json()]).toEqual([200, { success: true, ...shop }]);
    });

    it('says when there is no such shop, and ignores an answer it cannot use', async () => {
      inline({ read: '/v1/shops/gone', status: 404, body: { success: false, error: 'NOT_FOUND', detail: 'no such shop' }, at: 1 });
      expect((await load()).inlineShop('/v1/shops/gone')).toEqual({ notFound: true });
      document.getElementById('shop-answer')!.textContent = '{"read": 1';
      const early = await load();
      expect(early.inlineShop('/v1/shops/gone')).toBeUndefined();
      early.requestShopEarly('/s/gone');
      expect(calls).toEqual(['/v1/shops/gone']);
    });
  });
});
