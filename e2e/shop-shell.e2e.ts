import { expect, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { type NewContext, test, watchErrors } from './helpers.js';

/**
 * A shop's page is painted from the gateway's own read of the shop (apps/gateway/src/web/shop-page.ts):
 * with JavaScript off it shows the shop, its not-found wording for no shop, and a product added a
 * moment ago; with JavaScript on the app takes over the same page without reading the shop again and
 * without "Loading…" in between, its heading and notice where the shell had them.
 */
const LONG_NAME = 'The Extraordinarily Long-Named Riso and Letterpress Cooperative of Wolverhampton';

async function shop(page: Page, name: string): Promise<{ path: string; read: string; addProduct: (name: string) => Promise<void> }> {
  const email = `shop-shell-${randomBytes(4).toString('hex')}@example.com`;
  const account = await page.request.post('/v1/users', { data: { email, password: 'shop shells in e2e' } });
  const { token, profile } = (await account.json()) as { token: string; profile: { guid: string } };
  const headers = { authorization: `Bearer ${token}` };
  const service = await page.request.post(`/v1/users/${profile.guid}/services`, {
    data: { name, displayName: name, provider: 'sandbox', vendor: 'digital', account: 'sandbox_shell' },
    headers,
  });
  const serviceId = ((await service.json()) as { service: { id: string } }).service.id;
  const addProduct = async (product: string) => {
    const res = await page.request.post(`/v1/users/${profile.guid}/services/${serviceId}/products`, {
      data: { name: product, description: `${product}, printed on matte paper`, price: 1250 },
      headers,
    });
    expect(res.ok()).toBe(true);
  };
  await addProduct('Poster <b>&amp;</b>');
  return { path: `/shop/${profile.guid}/${serviceId}`, read: `/v1/users/${profile.guid}/services/${serviceId}`, addProduct };
}

const box = async (page: Page, selector: string) => page.locator(selector).first().boundingBox();

async function withoutScripts(newContext: NewContext, width: number) {
  const context = await newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
  return { page: await context.newPage(), close: () => context.close() };
}

for (const width of [375, 1280]) {
  test(`a shop paints from the page and the app takes it over in place (${width} px)`, async ({ page, newContext }, info) => {
    const { path, read } = await shop(page, LONG_NAME);

    const off = await withoutScripts(newContext, width);
    await off.page.goto(path);
    await expect(off.page.getByRole('heading', { level: 1 })).toHaveText(LONG_NAME);
    await expect(off.page.locator('.lead')).toHaveText(`Sold by ${LONG_NAME}`);
    await expect(off.page.getByRole('heading', { level: 2 })).toHaveText('Poster <b>&amp;</b>');
    await expect(off.page.locator('.notice')).toContainText('test mode');
    const shellBoxes = [await box(off.page, 'h1'), await box(off.page, '.notice')];
    // A long name wraps inside the page at 375 px: nothing is wider than the screen.
    expect(await off.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await off.page.screenshot({ path: info.outputPath(`shop-shell-${width}.png`), fullPage: true });
    await off.close();

    await page.setViewportSize({ width, height: 900 });
    const errors = watchErrors(page);
    const reads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === read) reads.push(request.url());
    });
    // Whether "Loading…" is ever in the page, from its first byte on.
    await page.addInitScript(() => {
      const seen = () =>
        document.body?.textContent?.includes('Loading…') && ((window as unknown as { sawLoading: boolean }).sawLoading = true);
      new MutationObserver(seen).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.goto(path);
    // The app has rendered once its footer is there (the shell has none).
    await expect(page.getByRole('contentinfo')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(LONG_NAME);
    await expect(page.getByRole('button', { name: 'Order Poster <b>&amp;</b>' })).toBeVisible();
    expect([await box(page, 'h1'), await box(page, '.notice')]).toEqual(shellBoxes);
    expect(await page.evaluate(() => (window as unknown as { sawLoading?: boolean }).sawLoading ?? false)).toBe(false);
    expect(reads).toEqual([]);
    await page.screenshot({ path: info.outputPath(`shop-app-${width}.png`), fullPage: true });
    expect(errors).toEqual([]);
  });
}

test('a shop that does not exist paints its not-found wording; a product added is in the next page', async ({ page, newContext }) => {
  const { path, addProduct } = await shop(page, 'Riso Corner');
  const off = await withoutScripts(newContext, 1280);
  // The page of no shop says so, and so does its status.
  expect((await off.page.goto('/s/no-such-shop-for-shells'))?.status()).toBe(404);
  await expect(off.page.getByRole('heading', { level: 1 })).toHaveText('No shop at this address');
  expect((await off.page.goto('/shop/6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f/0e9d8c7b-6a5f-4e3d-9c2b-1a0f9e8d7c6b'))?.status()).toBe(404);
  await expect(off.page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  expect((await off.page.goto(path))?.status()).toBe(200);
  await expect(off.page.getByRole('heading', { level: 2 })).toHaveText(['Poster <b>&amp;</b>']);
  await addProduct('Calendar');
  await off.page.goto(path);
  await expect(off.page.getByRole('heading', { level: 2 })).toHaveText(['Poster <b>&amp;</b>', 'Calendar']);
  await off.close();

  // With the app: the unknown shop's page keeps its wording (no "Loading…", no second read).
  await page.goto('/s/no-such-shop-for-shells');
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('No shop at this address');
});
