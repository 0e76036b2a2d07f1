import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { RepositoryDatabase } from '@tinkerdesk/testing';
import { OrdersRepository } from '../../orders/orders.repository.js';
import { commerceDatabase, insertService, newOrder } from '../../../test/repository-database.js';
import { SellerDisplayName1796000000000 } from './1796000000000-seller-display-name.js';

/**
 * The migration that gave services the name buyers see, run again over data as it was before it:
 * each service takes its own name (trimmed; "Shop" for one named only with spaces), and a receipt
 * issued with an empty seller name takes its service's, while a receipt with a name keeps it.
 */
let db: RepositoryDatabase;

beforeAll(async () => {
  db = await commerceDatabase();
});

afterAll(() => db?.close());

it('backfills display names from service names and fills only the empty seller names of receipts', async () => {
  const sellerId = randomUUID();
  const serviceId = await insertService(db, sellerId);
  const orders = new OrdersRepository(db.dataSource);
  const receiptOf = async (sellerName: string) => {
    const order = await orders.insertOrder(newOrder({ serviceId, sellerId }));
    const receipt = { orderId: order.id, amount: 1250, currency: 'USD' as const, items: order.items, email: order.email };
    const fields = { ...receipt, sellerName, serviceName: 'Shop', supportEmail: null, paidAt: new Date() };
    await orders.inTransaction((tx) => tx.insertReceipt(fields));
    return order.id;
  };
  const nameless = await receiptOf('');
  const named = await receiptOf('Ada Lovelace');

  const migration = new SellerDisplayName1796000000000();
  const runner = db.dataSource.createQueryRunner();
  try {
    await migration.down(runner);
    await runner.query(`UPDATE "commerce"."service" SET "name" = '  Riso Corner  ' WHERE "id" = $1`, [serviceId]);
    const blank = randomUUID();
    await runner.query(
      `INSERT INTO "commerce"."service" ("id", "user_id", "name", "provider", "vendor", "account") VALUES ($1, $2, '   ', 'sandbox', 'digital', 'sandbox_x')`,
      [blank, sellerId],
    );
    await migration.up(runner);

    const names = await runner.query(`SELECT "id", "display_name" FROM "commerce"."service" WHERE "user_id" = $1`, [sellerId]);
    expect(Object.fromEntries(names.map((r: { id: string; display_name: string }) => [r.id, r.display_name]))).toEqual({
      [serviceId]: 'Riso Corner',
      [blank]: 'Shop',
    });
    await expect(orders.receipt(nameless)).resolves.toMatchObject({ sellerName: 'Riso Corner' });
    await expect(orders.receipt(named)).resolves.toMatchObject({ sellerName: 'Ada Lovelace' });
    await expect(runner.query(`UPDATE "commerce"."service" SET "display_name" = '  ' WHERE "id" = $1`, [serviceId])).rejects.toThrow(
      /service_display_name_present/,
    );
  } finally {
    await runner.release();
  }
});
