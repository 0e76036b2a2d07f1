import { expect } from '@playwright/test';
import { clipboardText, signInContext, signUp, test, watchErrors } from './helpers.js';

/**
 * Shop links in Chromium against the real platform: a seller chooses the short link in the service
 * form (suggested from the name), copies it from /account and sees its QR code; a visitor opens
 * /s/{slug} and orders; an unknown slug says there is no shop there.
 */

test('a seller chooses a short link, copies it and sees its QR code; a visitor opens /s/{slug} and orders', async ({
  newContext,
  baseURL,
}) => {
  const context = await newContext({ baseURL, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const seller = await signUp(page, 'slug-seller');
  await signInContext(context, baseURL!, seller.token);
  const tag = Date.now().toString(36);
  await page.goto('/account#selling');
  const selling = page.locator('#selling');
  await selling.getByRole('button', { name: 'New service' }).click();
  await page.getByLabel('Service name').fill(`Riso Corner ${tag}`);
  await page.getByLabel('Seller name buyers see').fill('Riso Corner');
  // Suggested from the name while the seller has not typed one.
  await expect(page.getByLabel('Shop link (optional)')).toHaveValue(`riso-corner-${tag}`);
  await page.getByLabel('Shop link (optional)').fill('Riso Corner');
  await page.getByRole('button', { name: 'Create service' }).click();
  await expect(page.getByText('A shop link uses lowercase letters only.')).toBeVisible();
  await page.getByLabel('Shop link (optional)').fill('admin');
  await expect(page.getByText('“admin” is reserved: choose another shop link.')).toBeVisible();
  const slug = `riso-${tag}`;
  await page.getByLabel('Shop link (optional)').fill(slug);
  await page.getByRole('button', { name: 'Create service' }).click();

  const link = selling.getByRole('region', { name: `Shop link of Riso Corner ${tag}` });
  const url = `${baseURL}/s/${slug}`;
  await expect(link.getByText(url, { exact: true })).toBeVisible();
  await link.getByRole('button', { name: `Copy the shop link of Riso Corner ${tag}` }).click();
  await expect(link.getByRole('button', { name: `Copy the shop link of Riso Corner ${tag}` })).toHaveText('Copied');
  await expect(link.getByRole('status').filter({ hasText: 'The shop link is copied.' })).toBeAttached();
  expect(await clipboardText(page)).toBe(url);
  const qr = link.getByRole('img', { name: `QR code of ${url}` });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(50);
  const [download] = await Promise.all([page.waitForEvent('download'), link.getByRole('link', { name: 'Download PNG' }).click()]);
  expect(download.suggestedFilename()).toBe(`shop-${slug}-qr.png`);

  // A product, then the visitor (another browser context, signed out) orders from the short link.
  await selling.getByRole('button', { name: 'Add product' }).click();
  await page.getByLabel('Product name').fill('Zine');
  await page.getByLabel('Price (US dollars)').fill('12.5');
  await page.getByRole('button', { name: 'Add product', exact: true }).last().click();
  await expect(selling.getByText('$12.50')).toBeVisible();

  const visitor = await (await newContext({ baseURL })).newPage();
  const visitorErrors = watchErrors(visitor);
  await visitor.goto(`/s/${slug}`);
  await expect(visitor.getByRole('heading', { name: `Riso Corner ${tag}`, level: 1 })).toBeVisible();
  await visitor.getByRole('button', { name: 'Order Zine' }).click();
  const form = visitor.getByRole('form', { name: 'Order Zine' });
  await form.getByLabel('Email (for the receipt)').fill('visitor@example.com');
  await form.getByRole('button', { name: 'Order and pay $12.50' }).click();
  await expect(visitor).toHaveURL(/\/pay\/sandbox\/sbs_/);
  await visitor.getByLabel('Card number').fill('4242 4242 4242 4242');
  await visitor.getByLabel('Expiration').fill('12 / 34');
  await visitor.getByLabel('CVC').fill('123');
  await visitor.getByRole('button', { name: 'Pay $12.50' }).click();
  await expect(visitor).toHaveURL(/\/orders\/[0-9a-f-]{36}$/, { timeout: 15_000 });
  await expect(visitor.getByText('Paid', { exact: true }).first()).toBeVisible();
  expect(visitorErrors).toEqual([]);
  expect(errors).toEqual([]);
});

test('at 375 px a long shop link wraps and the page fits; an unknown slug says there is no shop there', async ({ newContext, baseURL }) => {
  const context = await newContext({ baseURL, viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  const seller = await signUp(page, 'slug-phone');
  const auth = { authorization: `Bearer ${seller.token}` };
  // No slug: the long link shows, with the hint to choose a short one.
  const created = await page.request.post(`/v1/users/${seller.guid}/services`, {
    data: { name: 'Phone shop', displayName: 'Phone shop', provider: 'sandbox', vendor: 'digital', account: 'sandbox_phone' },
    headers: auth,
  });
  expect(created.status()).toBe(201);
  await signInContext(context, baseURL!, seller.token);
  await page.goto('/account#selling');
  const link = page.getByRole('region', { name: 'Shop link of Phone shop' });
  await expect(link.getByText(`${baseURL}/shop/${seller.guid}/`)).toBeVisible();
  await expect(link.getByRole('button', { name: 'Choose a short one' })).toBeVisible();
  await expect(link.getByRole('img', { name: /^QR code of / })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await link.getByRole('button', { name: 'Choose a short one' }).click();
  await expect(page.getByLabel('Shop link (optional)')).toHaveAttribute('placeholder', 'phone-shop');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  await page.goto('/s/no-such-shop-here');
  await expect(page.getByRole('heading', { name: 'No shop at this address', level: 1 })).toBeVisible();
});
