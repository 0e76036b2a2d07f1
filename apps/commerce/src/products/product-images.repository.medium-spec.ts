import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ProductImageSize } from '@tinkerdesk/contracts';
import type { RepositoryDatabase } from '@tinkerdesk/testing';
import type { UploadedImageSet } from './product-image.entity.js';
import { ProductImagesRepository, type ProductImageRow } from './product-images.repository.js';
import { ProductsRepository } from './products.repository.js';
import { commerceDatabase, insertService } from '../../test/repository-database.js';

let db: RepositoryDatabase;
let images: ProductImagesRepository;
let products: ProductsRepository;

beforeAll(async () => {
  db = await commerceDatabase();
  images = new ProductImagesRepository(db.dataSource);
  products = new ProductsRepository(db.dataSource);
});

afterAll(() => db?.close());

async function product(image: string | null = null): Promise<{ id: string; userId: string }> {
  const userId = randomUUID();
  const serviceId = await insertService(db, userId);
  const p = await products.upsert({
    id: randomUUID(),
    serviceId,
    userId,
    name: 'Poster',
    description: '',
    price: 1250,
    currency: 'USD',
    image,
    active: true,
    shipping: null,
  });
  return { id: p.id, userId };
}

const SIZES: ProductImageSize[] = ['small', 'medium', 'large'];

function set(productId: string, version: string): { set: UploadedImageSet; rows: ProductImageRow[] } {
  const rows = SIZES.map((size, i) => ({
    productId,
    size,
    version,
    bytes: Buffer.from(`${version}-${size}`),
    contentType: 'image/webp' as const,
    etag: `${version}${i}`.padEnd(64, '0'),
    width: 100 * (i + 1),
    height: 50 * (i + 1),
  }));
  const dims = (i: number) => ({ width: rows[i]!.width, height: rows[i]!.height });
  return { set: { version, sizes: { small: dims(0), medium: dims(1), large: dims(2) } }, rows };
}

describe('product images', () => {
  it('replaces the whole set at once and names it on the product, dropping an https URL', async () => {
    const p = await product('https://img.example/1.png');
    const first = set(p.id, 'aaaaaaaaaaaaaaaa');
    const saved = await images.replace(p.id, p.userId, first.set, first.rows);
    expect(saved).toMatchObject({ id: p.id, image: null, uploadedImage: first.set });
    await expect(images.find(p.id, 'large')).resolves.toMatchObject({
      version: 'aaaaaaaaaaaaaaaa',
      bytes: Buffer.from('aaaaaaaaaaaaaaaa-large'),
      width: 300,
    });
    const second = set(p.id, 'bbbbbbbbbbbbbbbb');
    await images.replace(p.id, p.userId, second.set, second.rows);
    await expect(images.find(p.id, 'small', 'aaaaaaaaaaaaaaaa')).resolves.toBeNull();
    await expect(images.find(p.id, 'small', 'bbbbbbbbbbbbbbbb')).resolves.toMatchObject({ size: 'small', etag: second.rows[0]!.etag });
    await expect(images.find(p.id, 'medium')).resolves.toMatchObject({ version: 'bbbbbbbbbbbbbbbb' });
  });

  it("touches nothing of another owner's product, or a missing one", async () => {
    const p = await product();
    const s = set(p.id, 'cccccccccccccccc');
    await expect(images.replace(p.id, randomUUID(), s.set, s.rows)).resolves.toBeUndefined();
    await expect(images.clear(p.id, randomUUID())).resolves.toBeUndefined();
    await expect(images.replace(randomUUID(), p.userId, s.set, [])).resolves.toBeUndefined();
    await expect(images.find(p.id, 'small')).resolves.toBeNull();
  });

  it('clears every size and the product’s set; deleting the product deletes its images', async () => {
    const p = await product();
    const s = set(p.id, 'dddddddddddddddd');
    await images.replace(p.id, p.userId, s.set, s.rows);
    await expect(images.clear(p.id, p.userId)).resolves.toMatchObject({ uploadedImage: null });
    await expect(images.find(p.id, 'small')).resolves.toBeNull();
    await images.replace(p.id, p.userId, s.set, s.rows);
    await expect(products.deleteIfUnordered(p.id, () => Promise.resolve(false))).resolves.toBe(true);
    await expect(images.find(p.id, 'large')).resolves.toBeNull();
  });

  it('a failed replacement keeps the old set whole (one transaction)', async () => {
    const p = await product();
    const good = set(p.id, 'eeeeeeeeeeeeeeee');
    await images.replace(p.id, p.userId, good.set, good.rows);
    const bad = set(p.id, 'ffffffffffffffff');
    bad.rows[2] = { ...bad.rows[2]!, width: 0 }; // refused by the check constraint, after the delete
    await expect(images.replace(p.id, p.userId, bad.set, bad.rows)).rejects.toThrow(/check/);
    for (const size of SIZES) await expect(images.find(p.id, size)).resolves.toMatchObject({ version: 'eeeeeeeeeeeeeeee' });
    await expect(products.find(p.id)).resolves.toMatchObject({ uploadedImage: good.set });
  });
});
