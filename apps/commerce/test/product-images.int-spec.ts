import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fetchAnswer, pngBomb, testPicture, TestPlatform, uniqueEmail, type FetchOptions } from '@tinkerdesk/testing';
import sharp from 'sharp';

/**
 * Product images stored by the site (issue 29) through the real gateway, identity and commerce: uploads
 * made into WebP sizes by sharp, served publicly under versioned immutable URLs; refusals bounded like
 * pass images (type by bytes, file size, pixel bombs, damaged files); ownership; replacing (the old URLs
 * answer 404), removing, parallel uploads; an https URL in place of an upload.
 */
let platform: TestPlatform;

interface Account {
  token: string;
  guid: string;
}

interface Variant {
  url: string;
  width: number;
  height: number;
}

interface Product {
  id: string;
  image: string | null;
  images: { version: string; small: Variant; medium: Variant; large: Variant } | null;
}

const http = (method: string, path: string, options: FetchOptions = {}) => fetchAnswer(platform.url, method, path, options);

async function account(tag: string): Promise<Account> {
  const created = await platform.call('POST', '/v1/users', { email: uniqueEmail(tag), password: 'images password 1' });
  expect(created.status).toBe(201);
  return { token: created.body.token as string, guid: (created.body.profile as { guid: string }).guid };
}

async function product(seller: Account, fields: Record<string, unknown> = {}): Promise<{ serviceId: string; productId: string }> {
  const service = await platform.call(
    'POST',
    `/v1/users/${seller.guid}/services`,
    { name: 'Print shop', displayName: 'Print shop', provider: 'sandbox', vendor: 'digital', account: 'sandbox_prints' },
    seller.token,
  );
  expect(service.status).toBe(201);
  const serviceId = (service.body.service as { id: string }).id;
  const created = await platform.call(
    'POST',
    `/v1/users/${seller.guid}/services/${serviceId}/products`,
    { name: 'Poster', price: 1250, ...fields },
    seller.token,
  );
  expect(created.status).toBe(201);
  return { serviceId, productId: (created.body.product as { id: string }).id };
}

const upload = (token: string, productId: string, bytes: Buffer, name = 'photo.png') => {
  const form = new FormData();
  form.set('image', new Blob([new Uint8Array(bytes)]), name);
  return http('POST', `/v1/products/${productId}/image`, { token, form });
};

const uploaded = async (token: string, productId: string, bytes: Buffer): Promise<Product> => {
  const answer = await upload(token, productId, bytes);
  expect(answer).toMatchObject({ status: 200, body: { success: true } });
  return answer.body.product as Product;
};

const imageRows = async (productId: string) =>
  platform.query<{ size: string; version: string }>(
    `SELECT "size", "version" FROM "commerce"."product_image" WHERE "product_id" = $1 ORDER BY "size"`,
    [productId],
  );

let seller: Account;
let other: Account;

beforeAll(async () => {
  platform = await TestPlatform.start(['identity', 'commerce', 'gateway'], { RATE_LIMIT_FACTOR: '1000' });
  [seller, other] = await Promise.all([account('image-seller'), account('image-other')]);
}, 120_000);

afterAll(async () => {
  await platform?.close();
});

describe('uploading a product image', () => {
  it('makes a PNG into three WebP sizes, served publicly with a strong ETag and cached for good', async () => {
    const { serviceId, productId } = await product(seller);
    const view = await uploaded(seller.token, productId, await testPicture(2400, 1200, 'png'));
    expect(view.images).toMatchObject({
      small: { width: 160, height: 80 },
      medium: { width: 480, height: 240 },
      large: { width: 1200, height: 600 },
    });
    expect(view.image).toBe(view.images!.medium.url);
    expect(view.images!.large.url).toBe(`/v1/products/${productId}/image/${view.images!.version}/large`);
    for (const size of ['small', 'medium', 'large'] as const) {
      const answer = await http('GET', view.images![size].url);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/webp');
      expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
      expect(await sharp(answer.bytes).metadata()).toMatchObject({ format: 'webp', width: view.images![size].width });
      const again = await http('GET', view.images![size].url, { headers: { 'if-none-match': answer.headers.get('etag')! } });
      expect(again.status).toBe(304);
    }
    // The public page and the product carry the same URLs.
    const page = await platform.call('GET', `/v1/users/${seller.guid}/services/${serviceId}`);
    expect((page.body.products as Product[])[0]).toMatchObject({ id: productId, image: view.image, images: view.images });
    // The unversioned path (order pages) serves the current image and asks the browser to revalidate.
    const current = await http('GET', `/v1/products/${productId}/image/small`);
    expect(current.status).toBe(200);
    expect(current.headers.get('cache-control')).toBe('public, no-cache');
  });

  it('turns a JPEG upright by its EXIF orientation, never enlarges it and strips its metadata', async () => {
    const { productId } = await product(seller);
    const jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#336699' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const view = await uploaded(seller.token, productId, jpeg);
    expect(view.images).toMatchObject({
      small: { width: 160, height: 240 },
      medium: { width: 200, height: 300 },
      large: { width: 200, height: 300 },
    });
    const large = await sharp((await http('GET', view.images!.large.url)).bytes).metadata();
    expect(large).toMatchObject({ format: 'webp', width: 200, height: 300 });
    expect(large.exif).toBeUndefined();
    expect(large.orientation).toBeUndefined();
  });

  it.each([['webp'], ['gif']] as const)('accepts a %s image', async (format) => {
    const { productId } = await product(seller);
    const view = await uploaded(seller.token, productId, await testPicture(640, 480, format));
    expect(view.images).toMatchObject({ medium: { width: 480, height: 360 }, large: { width: 640, height: 480 } });
  });

  it.each([
    ['a text file named .png', () => Promise.resolve(Buffer.from('just some words, not a picture')), /not a PNG, JPEG, WebP or GIF/],
    ['an empty file', () => Promise.resolve(Buffer.alloc(0)), /empty/],
    ['a damaged PNG (cut short)', async () => (await testPicture(300, 300)).subarray(0, 120), /damaged or incomplete/],
  ])('refuses %s with a clear 400 and stores nothing', async (_what, make, detail) => {
    const { productId } = await product(seller);
    const answer = await upload(seller.token, productId, await make());
    expect(answer).toMatchObject({
      status: 400,
      body: { success: false, error: 'VALIDATION_FAILED', detail: expect.stringMatching(detail) },
    });
    expect(await imageRows(productId)).toEqual([]);
  });

  it('refuses a decompression bomb (30000 x 30000 declared) before decoding it', async () => {
    const { productId } = await product(seller);
    const started = Date.now();
    const answer = await upload(seller.token, productId, pngBomb());
    expect(answer).toMatchObject({
      status: 400,
      body: { error: 'VALIDATION_FAILED', detail: expect.stringMatching(/too large in pixels: at most 50 megapixels/) },
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await imageRows(productId)).toEqual([]);
  });

  it('refuses a file over 10 MiB with 413', async () => {
    const { productId } = await product(seller);
    const big = Buffer.concat([await testPicture(10, 10), Buffer.alloc(10 * 1024 * 1024)]);
    const answer = await upload(seller.token, productId, big);
    expect(answer).toMatchObject({ status: 413, body: { success: false, error: 'PAYLOAD_TOO_LARGE' } });
  });

  it("answers 404 for another user's product or a missing one, 401 signed out, 400 without a file", async () => {
    const { productId } = await product(seller);
    const png = await testPicture(100, 100);
    expect((await upload(other.token, productId, png)).status).toBe(404);
    expect((await upload(seller.token, randomUUID(), png)).status).toBe(404);
    expect((await http('DELETE', `/v1/products/${productId}/image`, { token: other.token })).status).toBe(404);
    expect((await upload('', productId, png)).status).toBe(401);
    expect((await http('POST', `/v1/products/${productId}/image`, { token: seller.token, form: new FormData() })).status).toBe(400);
    expect(await imageRows(productId)).toEqual([]);
  });
});

describe('serving, replacing and removing', () => {
  it('answers 400 for an unknown size or a malformed version, 404 for none', async () => {
    const { productId } = await product(seller);
    expect((await http('GET', `/v1/products/${productId}/image/huge`)).status).toBe(400);
    expect((await http('GET', `/v1/products/${productId}/image/zz/small`)).status).toBe(400);
    expect((await http('GET', `/v1/products/${productId}/image/small`)).status).toBe(404);
    expect((await http('GET', `/v1/products/${productId}/image/0123456789abcdef/small`)).status).toBe(404);
  });

  it('gives a replaced image new URLs; the old ones answer 404', async () => {
    const { productId } = await product(seller);
    const first = await uploaded(seller.token, productId, await testPicture(800, 800, 'png'));
    const second = await uploaded(seller.token, productId, await testPicture(900, 600, 'jpeg'));
    expect(second.images!.version).not.toBe(first.images!.version);
    expect(second.image).not.toBe(first.image);
    expect((await http('GET', first.images!.medium.url)).status).toBe(404);
    expect((await http('GET', second.images!.medium.url)).status).toBe(200);
    expect((await imageRows(productId)).map((r) => r.version)).toEqual([
      second.images!.version,
      second.images!.version,
      second.images!.version,
    ]);
  });

  it('removes the image with DELETE, and with the product', async () => {
    const { serviceId, productId } = await product(seller);
    const view = await uploaded(seller.token, productId, await testPicture(500, 500));
    const removed = await http('DELETE', `/v1/products/${productId}/image`, { token: seller.token });
    expect(removed).toMatchObject({ status: 200, body: { product: { image: null, images: null } } });
    expect((await http('GET', view.images!.small.url)).status).toBe(404);
    await uploaded(seller.token, productId, await testPicture(500, 500));
    expect(await imageRows(productId)).toHaveLength(3);
    const deleted = await platform.call(
      'DELETE',
      `/v1/users/${seller.guid}/services/${serviceId}/products/${productId}`,
      undefined,
      seller.token,
    );
    expect(deleted.body).toMatchObject({ deleted: true });
    expect(await imageRows(productId)).toEqual([]);
  });

  it('an https URL saved for the product replaces the upload (then only that URL), and an upload replaces the URL', async () => {
    const { serviceId, productId } = await product(seller, { image: 'https://images.example.com/poster.jpg' });
    const view = await uploaded(seller.token, productId, await testPicture(500, 500));
    expect(view.image).toBe(view.images!.medium.url);
    const path = `/v1/users/${seller.guid}/services/${serviceId}/products/${productId}`;
    const saved = await platform.call('POST', path, { image: 'https://images.example.com/other.jpg' }, seller.token);
    expect(saved.body.product).toMatchObject({ image: 'https://images.example.com/other.jpg', images: null });
    expect(await imageRows(productId)).toEqual([]);
    // Other edits leave the upload alone.
    await uploaded(seller.token, productId, await testPicture(500, 500));
    const renamed = await platform.call('POST', path, { name: 'Big poster' }, seller.token);
    expect((renamed.body.product as Product).images).not.toBeNull();
  });

  it('parallel uploads to one product end with one whole set of sizes', async () => {
    const { productId } = await product(seller);
    const pictures = await Promise.all([300, 400, 500, 600].map((w) => testPicture(w, 300, 'png')));
    const answers = await Promise.all(pictures.map((p) => upload(seller.token, productId, p)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const rows = await imageRows(productId);
    expect(rows.map((r) => r.size)).toEqual(['large', 'medium', 'small']);
    const versions = new Set(rows.map((r) => r.version));
    expect(versions.size).toBe(1);
    const current = await platform.call(
      'GET',
      `/v1/users/${seller.guid}/services/${(answers[0]!.body.product as { serviceId: string }).serviceId}/products/${productId}`,
    );
    expect((current.body.product as Product).images!.version).toBe([...versions][0]);
  });
});
