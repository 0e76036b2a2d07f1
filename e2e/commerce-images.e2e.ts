import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { signInContext, watchErrors } from './helpers.js';

/**
 * Product images (issue 29) in Chromium against the real platform: the seller drops a picture on the
 * product form and pastes another (uploaded on save, resized by the server); the public page shows it in
 * sizes at 1280 and 375 px; a damaged file or a file that is not an image is refused on the field in plain
 * words; an https URL that does not load shows no broken frame to buyers.
 */
interface Account {
  token: string;
  guid: string;
}

async function sellerWithProduct(
  page: Page,
  fields: Record<string, unknown> = {},
): Promise<Account & { serviceId: string; productId: string }> {
  const email = `images-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const created = (await (await page.request.post('/v1/users', { data: { email, password: 'images in e2e' } })).json()) as {
    token: string;
    profile: { guid: string };
  };
  const headers = { authorization: `Bearer ${created.token}` };
  const service = await page.request.post(`/v1/users/${created.profile.guid}/services`, {
    data: { name: 'Riso corner', displayName: 'Riso corner', provider: 'sandbox', vendor: 'digital', account: 'sandbox_riso' },
    headers,
  });
  const serviceId = ((await service.json()) as { service: { id: string } }).service.id;
  const product = await page.request.post(`/v1/users/${created.profile.guid}/services/${serviceId}/products`, {
    data: { name: 'Poster', description: 'A2, matte', price: 1250, ...fields },
    headers,
  });
  expect(product.status()).toBe(201);
  const productId = ((await product.json()) as { product: { id: string } }).product.id;
  return { token: created.token, guid: created.profile.guid, serviceId, productId };
}

async function signIn(page: Page, baseURL: string, token: string): Promise<void> {
  await signInContext(page.context(), baseURL, token);
}

/** A striped picture (so a resized copy is easy to tell from nothing), as base64. */
async function picture(width: number, height: number, color: string): Promise<string> {
  const stripes = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${color}"/>` +
      `<rect y="${height / 3}" width="100%" height="${height / 3}" fill="#f4e9d8"/></svg>`,
  );
  return (await sharp(stripes).png().toBuffer()).toString('base64');
}

/** Drops a file on the form's drop zone, as a drag from the desktop does. */
async function dropFile(page: Page, base64: string, name: string, type: string): Promise<void> {
  const transfer = await page.evaluateHandle(
    ({ base64, name, type }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], name, { type }));
      return data;
    },
    { base64, name, type },
  );
  await page.locator('.product-image-field .file-drop').dispatchEvent('drop', { dataTransfer: transfer });
}

/** Pastes a file (a copied picture) with the focus outside text fields. */
async function pasteFile(page: Page, base64: string, name: string, type: string): Promise<void> {
  await page.evaluate(
    ({ base64, name, type }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], name, { type }));
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { base64, name, type },
  );
}

/** The product card's picture has loaded, from the site's own WebP sizes. */
async function expectShownFromSizes(page: Page): Promise<void> {
  const image = page.locator('.product-card .product-image');
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('srcset', /\/v1\/products\/[0-9a-f-]+\/image\/[0-9a-f]{16}\/small 160w, .* 480w, .* \d+w$/);
  await expect(image).toHaveAttribute('loading', 'lazy');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
}

test('a seller drops a picture on a product and pastes another; the public page shows it at 1280 and 375 px', async ({ page, baseURL }) => {
  const errors = watchErrors(page);
  const seller = await sellerWithProduct(page);
  await signIn(page, baseURL!, seller.token);
  await page.goto('/account#selling');
  const selling = page.locator('#selling');
  await selling.getByRole('button', { name: 'Edit Poster' }).click();
  // Refusals on the field, in plain words: not an image (seen by the browser), damaged (said by the server).
  await dropFile(page, Buffer.from('just words').toString('base64'), 'notes.txt', 'text/plain');
  await expect(page.getByRole('alert')).toHaveText('This file is not an image: choose a PNG, JPEG, WebP or GIF picture.');
  const damaged = Buffer.from(await picture(300, 200, '#c0392b'), 'base64')
    .subarray(0, 90)
    .toString('base64');
  await dropFile(page, damaged, 'poster.png', 'image/png');
  await expect(page.getByRole('img', { name: 'Preview of the product image' })).toBeVisible();
  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('alert')).toHaveText('This image is damaged or incomplete: choose another file.');
  // A good picture, dropped: previewed, uploaded on save.
  await dropFile(page, await picture(1600, 900, '#1a73e8'), 'poster.png', 'image/png');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('img', { name: 'Preview of the product image' })).toHaveAttribute('src', /^blob:/);
  await page.getByRole('form', { name: 'Edit Poster' }).screenshot({ path: test.info().outputPath('product-form-1280.png') });
  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('form', { name: 'Edit Poster' })).toHaveCount(0);

  await page.goto(`/shop/${seller.guid}/${seller.serviceId}`);
  await expectShownFromSizes(page);
  await page.screenshot({ path: test.info().outputPath('storefront-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expectShownFromSizes(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: test.info().outputPath('storefront-375.png'), fullPage: true });
  const before = await page.locator('.product-card .product-image').getAttribute('src');

  // Replaced on a phone by a pasted picture: a new versioned URL.
  await page.goto('/account#selling');
  await selling.getByRole('button', { name: 'Edit Poster' }).click();
  await expect(page.getByRole('img', { name: 'Preview of the product image' })).toHaveAttribute('src', /\/image\/[0-9a-f]{16}\/small$/);
  await pasteFile(page, await picture(800, 800, '#27ae60'), 'image.png', 'image/png');
  await expect(page.getByRole('img', { name: 'Preview of the product image' })).toHaveAttribute('src', /^blob:/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.getByRole('form', { name: 'Edit Poster' }).screenshot({ path: test.info().outputPath('product-form-375.png') });
  await page.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByRole('form', { name: 'Edit Poster' })).toHaveCount(0);
  await page.goto(`/shop/${seller.guid}/${seller.serviceId}`);
  await expectShownFromSizes(page);
  expect(await page.locator('.product-card .product-image').getAttribute('src')).not.toBe(before);

  // A visitor orders it: the order page shows the picture beside the item.
  await page.context().clearCookies();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/shop/${seller.guid}/${seller.serviceId}`);
  await page.getByRole('button', { name: 'Order Poster' }).click();
  const order = page.getByRole('form', { name: 'Order Poster' });
  await order.getByLabel('Email (for the receipt)').fill('visitor@example.com');
  await order.getByRole('button', { name: 'Order and pay $12.50' }).click();
  await expect(page).toHaveURL(/\/pay\/sandbox\/sbs_/);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiration').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pay $12.50' }).click();
  await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}$/, { timeout: 15_000 });
  const thumb = page.locator('.order-item-image').first();
  await expect(thumb).toHaveAttribute('src', new RegExp(`/v1/products/${seller.productId}/image/small$`));
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await page.screenshot({ path: test.info().outputPath('order-1280.png'), fullPage: true });
  // The one error is the browser's report of the damaged upload's 400 (refused on purpose above).
  expect(errors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
});

test('a product whose https image does not load shows no broken frame to buyers', async ({ page }) => {
  const errors = watchErrors(page);
  const seller = await sellerWithProduct(page, { image: 'https://images.invalid/poster.png' });
  await page.goto(`/shop/${seller.guid}/${seller.serviceId}`);
  await expect(page.getByRole('heading', { name: 'Poster' })).toBeVisible();
  await expect(page.locator('.product-card img')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('broken-url-1280.png'), fullPage: true });
  // The only error is the browser's own report of the image that failed to load.
  expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
});
