import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TransactionManager } from '@tinkerdesk/persistence';
import { staysBlocked, type RepositoryDatabase } from '@tinkerdesk/testing';
import { OrdersRepository } from '../orders/orders.repository.js';
import type { ProductShipping } from './product.entity.js';
import { ProductsRepository, type ProductRow } from './products.repository.js';
import { commerceDatabase, insertOrder, insertService } from '../../test/repository-database.js';

let db: RepositoryDatabase;
let repository: ProductsRepository;

beforeAll(async () => {
  db = await commerceDatabase();
  repository = new ProductsRepository(db.dataSource);
});

afterAll(() => db?.close());

async function service(userId = randomUUID()): Promise<{ serviceId: string; userId: string }> {
  return { serviceId: await insertService(db, userId), userId };
}

function product(
  owner: { serviceId: string; userId: string },
  fields: Partial<ProductRow> = {},
): Omit<ProductRow, 'created' | 'modified' | 'uploadedImage'> {
  return {
    id: randomUUID(),
    ...owner,
    name: 'Poster',
    description: 'A1, matte',
    price: 1250,
    currency: 'USD',
    image: null,
    active: true,
    shipping: null,
    ...fields,
  };
}

const shipping: ProductShipping = { services: ['USPS_PRIORITY', 'UPS_NEXT_DAY_AIR'], options: ['color'] };

describe('products', () => {
  it('inserts and reads back every field, shipping as JSON', async () => {
    const owner = await service();
    const p = product(owner, { image: 'https://img.example/1.png', shipping });
    const inserted = await repository.upsert(p);
    expect(inserted).toEqual({ ...p, uploadedImage: null, created: expect.any(Date), modified: expect.any(Date) });
    await expect(repository.find(p.id)).resolves.toEqual(inserted);
    await expect(repository.find(randomUUID())).resolves.toBeNull();
  });

  it('updates in place, moving the modified time, but never a product of another service or user', async () => {
    const owner = await service();
    const p = await repository.upsert(product(owner));
    const updated = await repository.upsert({ ...p, name: 'Print', price: 990, active: false, shipping });
    expect(updated).toMatchObject({ id: p.id, name: 'Print', price: 990, active: false, shipping, created: p.created });
    expect(updated.modified.getTime()).toBeGreaterThanOrEqual(p.modified.getTime());
    const stranger = await service();
    await expect(repository.upsert({ ...p, ...stranger, name: 'Stolen' })).rejects.toThrow(/expected a row/);
    await expect(repository.find(p.id)).resolves.toMatchObject({ name: 'Print', serviceId: owner.serviceId });
  });

  it('refuses a price out of range, another currency and an unknown service (constraints)', async () => {
    const owner = await service();
    await expect(repository.upsert(product(owner, { price: 49 }))).rejects.toThrow(/check/);
    await expect(repository.upsert(product(owner, { currency: 'EUR' as never }))).rejects.toThrow(/check/);
    await expect(repository.upsert(product({ serviceId: randomUUID(), userId: owner.userId }))).rejects.toThrow(/foreign key/);
  });

  it('lists a service’s products oldest first, all or only the active ones', async () => {
    const owner = await service();
    const first = await repository.upsert(product(owner, { name: 'first' }));
    const second = await repository.upsert(product(owner, { name: 'second', active: false }));
    const third = await repository.upsert(product(owner, { name: 'third' }));
    await repository.upsert(product(await service()));
    expect((await repository.listByService(owner.serviceId, false)).map((p) => p.id)).toEqual([first.id, second.id, third.id]);
    expect((await repository.listByService(owner.serviceId, true)).map((p) => p.id)).toEqual([first.id, third.id]);
  });

  it('deletes a product no order refers to (asked in its transaction); keeps one an order refers to', async () => {
    const owner = await service();
    const free = await repository.upsert(product(owner));
    const ordered = await repository.upsert(product(owner));
    await insertOrder(db, { serviceId: owner.serviceId, sellerId: owner.userId, productId: ordered.id });
    // The orders feature's answer (OrdersService.isOrdered in the service), on its repository.
    const orders = new OrdersRepository(db.dataSource);
    const isOrdered = async (m: TransactionManager, id: string) => (await orders.countOrdersOfProduct(id, m)) > 0;
    await expect(repository.deleteIfUnordered(free.id, isOrdered)).resolves.toBe(true);
    await expect(repository.find(free.id)).resolves.toBeNull();
    await expect(repository.deleteIfUnordered(ordered.id, isOrdered)).resolves.toBe(false);
    await expect(repository.find(ordered.id)).resolves.not.toBeNull();
    await expect(repository.deleteIfUnordered(randomUUID(), isOrdered)).resolves.toBe(false);
  });

  it('holds the product locked while it is deleted: an order for it waits, then fails', async () => {
    const owner = await service();
    const doomed = await repository.upsert(product(owner));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const asked = new Promise<void>((resolve) => (entered = resolve));
    const deleting = repository.deleteIfUnordered(doomed.id, async () => {
      entered();
      await held;
      return false;
    });
    await asked;
    const placing = insertOrder(db, { serviceId: owner.serviceId, sellerId: owner.userId, productId: doomed.id });
    await expect(staysBlocked(placing)).resolves.toBe(true);
    release();
    await expect(deleting).resolves.toBe(true);
    await expect(placing).rejects.toThrow(/foreign key/);
  });
});
