import { describe, expect, it } from '@jest/globals';
import { AppError, type StorefrontView } from '@tinkerdesk/contracts';
import { readShopAnswer, shopAnswerScript, shopPath } from './shop-page.js';

const GUID = '6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';
const SID = '0e9d8c7b-6a5f-4e3d-9c2b-1a0f9e8d7c6b';
const shop = { seller: { guid: GUID, name: 'Ada' }, service: { id: SID, name: 'Prints' }, products: [] } as unknown as StorefrontView;

describe("a shop's page: which shop a path names", () => {
  it('reads the storefront and short-link routes as the app does, with the API path of their read', () => {
    expect(shopPath(`/shop/${GUID}/${SID}`)).toEqual({
      kind: 'storefront',
      userId: GUID,
      serviceId: SID,
      read: `/v1/users/${GUID}/services/${SID}`,
    });
    expect(shopPath(`/shop/${GUID}/${SID}/`)?.kind).toBe('storefront');
    expect(shopPath('/s/print-shop')).toEqual({ kind: 'shop', slug: 'print-shop', read: '/v1/shops/print-shop' });
    expect(shopPath('/s/caf%C3%A9')).toEqual({ kind: 'shop', slug: 'café', read: '/v1/shops/caf%C3%A9' });
  });

  it('names none for other pages and for parameters the API would refuse (the app answers those itself)', () => {
    for (const path of [
      '/',
      '/tools/',
      `/shop/${GUID}`,
      `/shop/${GUID}/${SID}/more`,
      '/shop/x/y',
      `/shop/${GUID}/not-a-uuid`,
      '/s/',
      '/s/a/b',
      '/s/%E0%A4%A',
      `/s/${'a'.repeat(201)}`,
    ]) {
      expect([path, shopPath(path)]).toEqual([path, undefined]);
    }
  });
});

describe("a shop's page: the gateway's read", () => {
  const address = shopPath('/s/print-shop')!;

  it('is the API answer for a shop, and the not-found answer for no shop', async () => {
    await expect(readShopAnswer(address, () => Promise.resolve(shop), 1000)).resolves.toEqual({
      status: 200,
      body: { success: true, ...shop },
    });
    await expect(readShopAnswer(address, () => Promise.reject(new AppError('NOT_FOUND', 'no such shop')), 1000)).resolves.toEqual({
      status: 404,
      body: { success: false, error: 'NOT_FOUND', detail: 'no such shop' },
    });
  });

  it('is none when the read fails otherwise or is late (the page then goes without the shop)', async () => {
    await expect(readShopAnswer(address, () => Promise.reject(new AppError('UNAVAILABLE', 'down')), 1000)).resolves.toBeUndefined();
    await expect(readShopAnswer(address, () => new Promise(() => undefined), 20)).resolves.toBeUndefined();
  });

  it('is inlined as JSON that is never run and that no text of the shop can end', () => {
    const hostile = { ...shop, service: { ...shop.service, name: '</script><script>alert(1)</script>\u2028' } } as StorefrontView;
    const script = shopAnswerScript(address, { status: 200, body: { success: true, ...hostile } }, 42);
    expect(script).toMatch(/^<script type="application\/json" id="shop-answer">/);
    const json = /^<script[^>]*>(.*)<\/script>$/s.exec(script)![1]!;
    expect(json).not.toContain('<');
    expect(json).not.toContain('\u2028');
    expect(JSON.parse(json)).toEqual({ read: '/v1/shops/print-shop', status: 200, body: { success: true, ...hostile }, at: 42 });
  });
});
