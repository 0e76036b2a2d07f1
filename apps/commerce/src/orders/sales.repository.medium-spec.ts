import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { OrderState } from '@tinkerdesk/contracts';
import { sql } from '@tinkerdesk/persistence';
import type { RepositoryDatabase } from '@tinkerdesk/testing';
import { commerceDatabase, insertService, newOrder } from '../../test/repository-database.js';
import { OrdersRepository, type OrderRow } from './orders.repository.js';
import { SalesRepository } from './sales.repository.js';

let db: RepositoryDatabase;
let orders: OrdersRepository;
let sales: SalesRepository;

beforeAll(async () => {
  db = await commerceDatabase();
  orders = new OrdersRepository(db.dataSource);
  sales = new SalesRepository(db.dataSource);
});

afterAll(() => db?.close());

interface Placed {
  state?: OrderState;
  amount?: number;
  paidAt?: string;
  created?: string;
  currency?: string;
  email?: string;
  share?: boolean;
  name?: string;
  /** Refunds made (done), each with the instant it was made; they add up to the order's refunded_amount. */
  refunds?: { amount: number; at: string }[];
}

/** An order of `sellerId`'s service in a state; a paid one (paidAt) gets its receipt, as paying makes it. */
async function place(sellerId: string, serviceId: string, o: Placed = {}): Promise<{ id: string; receipt: string | null }> {
  const amount = o.amount ?? 1250;
  const fields: Partial<OrderRow> = {
    serviceId,
    sellerId,
    amount,
    email: o.email ?? 'buyer@example.test',
    share: o.share ?? false,
    items: [{ productId: null, name: o.name ?? 'Poster', description: '', unitPrice: amount, quantity: 1, amount }],
    ...(o.currency ? { currency: o.currency as 'USD' } : {}),
  };
  const { id } = await orders.insertOrder(newOrder({ serviceId, sellerId, ...fields }));
  const paidAt = o.paidAt ? new Date(o.paidAt) : null;
  const receipt = await orders.inTransaction(async (tx) => {
    await tx.updateOrder(id, { state: o.state ?? 'pending', paidAt });
    if (!paidAt) return null;
    const r = await tx.insertReceipt({
      orderId: id,
      amount,
      currency: 'USD',
      items: [],
      email: o.email ?? 'buyer@example.test',
      sellerName: 'Riso Corner',
      serviceName: 'Shop',
      supportEmail: null,
      paidAt,
    });
    return r.number;
  });
  if (o.created) await sql.execute(db.dataSource, `UPDATE "commerce"."order" SET "created" = $2 WHERE "id" = $1`, [id, o.created]);
  for (const refund of o.refunds ?? []) {
    await sql.execute(
      db.dataSource,
      `INSERT INTO "commerce"."order_refund" ("id", "order_id", "amount", "state", "refunded_at") VALUES ($1, $2, $3, 'done', $4)`,
      [randomUUID(), id, refund.amount, refund.at],
    );
    await sql.execute(db.dataSource, `UPDATE "commerce"."order" SET "refunded_amount" = "refunded_amount" + $2 WHERE "id" = $1`, [
      id,
      refund.amount,
    ]);
  }
  return { id, receipt };
}

describe('figures', () => {
  const seller = randomUUID();
  let service: string;

  beforeAll(async () => {
    service = await insertService(db, seller);
    // New York is UTC−5 in winter: its February runs from 2026-02-01T05:00Z to 2026-03-01T05:00Z.
    await place(seller, service, { state: 'paid', amount: 1000, paidAt: '2026-02-10T12:00:00Z' });
    await place(seller, service, { state: 'paid', amount: 2000, paidAt: '2026-03-01T02:00:00Z' }); // NY: Feb 28, 21:00
    // Paid in (New York's) January, partly refunded in February: the refund counts in February.
    const partly = [{ amount: 200, at: '2026-02-20T12:00:00Z' }];
    await place(seller, service, { state: 'fulfilled', amount: 3000, paidAt: '2026-02-01T03:00:00Z', refunds: partly }); // NY: Jan 31, 22:00
    await place(seller, service, {
      state: 'refunded',
      amount: 500,
      paidAt: '2026-02-15T12:00:00Z',
      refunds: [{ amount: 500, at: '2026-02-16T12:00:00Z' }],
    });
    await place(seller, service, { state: 'paid', amount: 4000, paidAt: '2026-02-20T12:00:00Z', currency: 'EUR' });
    // Never paid: not earnings.
    await place(seller, service, { state: 'cancelled', amount: 700 });
    await place(seller, service, { state: 'pending', amount: 800 });
    await place(seller, service, { state: 'failed', amount: 900 });
    // Another seller's sale.
    const other = randomUUID();
    await place(other, await insertService(db, other), { state: 'paid', amount: 9999, paidAt: '2026-02-10T12:00:00Z' });
  });

  const now = new Date('2026-03-01T03:00:00Z');

  it("counts this month in the seller's time zone, per currency, refunds apart, unpaid orders never", async () => {
    const ny = await sales.figures(seller, 'America/New_York', now);
    expect(ny.monthStart.toISOString()).toBe('2026-02-01T05:00:00.000Z');
    expect(ny.earnings).toEqual([
      { currency: 'EUR', month: { gross: 4000, refunds: 0, orders: 1 }, allTime: { gross: 4000, refunds: 0, orders: 1 } },
      { currency: 'USD', month: { gross: 3500, refunds: 700, orders: 3 }, allTime: { gross: 6500, refunds: 700, orders: 4 } },
    ]);
  });

  it('counts in UTC the same instant as the next month', async () => {
    const utc = await sales.figures(seller, 'UTC', now);
    expect(utc.monthStart.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(utc.earnings).toEqual([
      { currency: 'EUR', month: { gross: 0, refunds: 0, orders: 0 }, allTime: { gross: 4000, refunds: 0, orders: 1 } },
      { currency: 'USD', month: { gross: 2000, refunds: 0, orders: 1 }, allTime: { gross: 6500, refunds: 700, orders: 4 } },
    ]);
    // A zone ahead of UTC: 2026-02-28T23:30Z is already March 1 in Tokyo; the order paid at 02:00Z is its March.
    const tokyo = await sales.figures(seller, 'Asia/Tokyo', new Date('2026-02-28T23:30:00Z'));
    expect(tokyo.monthStart.toISOString()).toBe('2026-02-28T15:00:00.000Z');
    expect(tokyo.earnings.find((e) => e.currency === 'USD')?.month).toEqual({ gross: 2000, refunds: 0, orders: 1 });
  });

  it('answers the month and no earnings for a seller with no paid order', async () => {
    const none = await sales.figures(randomUUID(), 'Europe/Paris', new Date('2026-07-15T12:00:00Z'));
    expect(none).toEqual({ monthStart: new Date('2026-06-30T22:00:00.000Z'), earnings: [], seenAt: null, newOrders: 0 });
  });

  it('counts new orders after the seen marker (every paid one before the first look), or after since', async () => {
    const seller2 = randomUUID();
    const service2 = await insertService(db, seller2);
    await place(seller2, service2, { state: 'paid', paidAt: '2026-02-10T12:00:00Z' });
    await place(seller2, service2, { state: 'fulfilled', paidAt: '2026-02-11T12:00:00Z' });
    await place(seller2, service2, { state: 'pending' });
    await expect(sales.figures(seller2, 'UTC', now)).resolves.toMatchObject({ seenAt: null, newOrders: 2 });
    const seen = await sales.markSeen(seller2);
    await expect(sales.figures(seller2, 'UTC', now)).resolves.toMatchObject({ seenAt: seen, newOrders: 0 });
    await place(seller2, service2, { state: 'paid', paidAt: new Date(seen.getTime() + 1000).toISOString() });
    await expect(sales.figures(seller2, 'UTC', now)).resolves.toMatchObject({ newOrders: 1 });
    await expect(sales.figures(seller2, 'UTC', now, new Date('2026-02-10T13:00:00Z'))).resolves.toMatchObject({ newOrders: 2 });
    // The marker never moves back.
    await sql.execute(db.dataSource, `UPDATE "commerce"."seller_seen" SET "seen_at" = now() + interval '1 hour' WHERE "seller_id" = $1`, [
      seller2,
    ]);
    const later = (await sales.figures(seller2, 'UTC', now)).seenAt;
    await expect(sales.markSeen(seller2)).resolves.toEqual(later);
  });

  it('reads the figures in one statement', async () => {
    const { queries } = await db.countQueries(() => sales.figures(seller, 'UTC', now));
    expect(queries).toHaveLength(1);
  });
});

describe('sellerOrders', () => {
  const seller = randomUUID();
  let posters: string;
  let prints: string;
  type Name = 'pending' | 'paid' | 'fulfilled' | 'refunded' | 'cancelled' | 'paid2';
  const made = {} as Record<Name, { id: string; receipt: string | null }>;

  beforeAll(async () => {
    posters = await insertService(db, seller);
    prints = await insertService(db, seller);
    made.pending = await place(seller, posters, { created: '2026-01-01T10:00:00Z', email: 'ann@example.test', share: true });
    made.paid = await place(seller, posters, {
      state: 'paid',
      paidAt: '2026-01-02T10:00:00Z',
      created: '2026-01-02T09:00:00Z',
      email: 'bob@example.test',
    });
    made.fulfilled = await place(seller, prints, {
      state: 'fulfilled',
      paidAt: '2026-01-03T10:00:00Z',
      created: '2026-01-03T09:00:00Z',
      email: 'cy_50%@example.test',
      share: true,
      name: 'Zine',
    });
    made.refunded = await place(seller, prints, { state: 'refunded', paidAt: '2026-01-04T10:00:00Z', created: '2026-01-04T09:00:00Z' });
    made.cancelled = await place(seller, posters, { state: 'cancelled', created: '2026-01-05T09:00:00Z' });
    made.paid2 = await place(seller, prints, { state: 'paid', paidAt: '2026-01-01T08:00:00Z', created: '2026-01-06T09:00:00Z' });
    const other = randomUUID();
    await place(other, await insertService(db, other), { state: 'paid', paidAt: '2026-01-02T10:00:00Z' });
  });

  const page = (fields: Partial<Parameters<SalesRepository['sellerOrders']>[0]> = {}) =>
    sales.sellerOrders({ sellerId: seller, order: 'newest', offset: 0, limit: 20, ...fields });
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

  it('answers one line per order, newest first, with its receipt number, and the address only when shared', async () => {
    const all = await page();
    expect(all.total).toBe(6);
    expect(ids(all.rows)).toEqual([made.paid2, made.cancelled, made.refunded, made.fulfilled, made.paid, made.pending].map((m) => m.id));
    const fulfilled = all.rows.find((r) => r.id === made.fulfilled.id);
    expect(fulfilled).toEqual({
      id: made.fulfilled.id,
      state: 'fulfilled',
      serviceId: prints,
      title: 'Zine',
      itemCount: 1,
      amount: 1250,
      currency: 'USD',
      email: 'cy_50%@example.test',
      receiptNumber: made.fulfilled.receipt,
      created: new Date('2026-01-03T09:00:00Z'),
      paidAt: new Date('2026-01-03T10:00:00Z'),
      fulfilledAt: null,
    });
    expect(all.rows.find((r) => r.id === made.paid.id)).toMatchObject({ email: null, receiptNumber: made.paid.receipt });
    expect(all.rows.find((r) => r.id === made.pending.id)).toMatchObject({ email: 'ann@example.test', receiptNumber: null, paidAt: null });
  });

  it('filters by states and service, pages with the total (also past the end), and orders what to fulfil oldest paid first', async () => {
    await expect(page({ states: ['paid'] }).then((p) => ids(p.rows))).resolves.toEqual([made.paid2.id, made.paid.id]);
    const toFulfil = await page({ states: ['paid'], order: 'oldest_paid' });
    expect(ids(toFulfil.rows)).toEqual([made.paid2.id, made.paid.id]);
    await expect(page({ serviceId: prints }).then((p) => p.total)).resolves.toBe(3);
    await expect(page({ serviceId: prints, states: ['paid', 'fulfilled'] }).then((p) => ids(p.rows))).resolves.toEqual([
      made.paid2.id,
      made.fulfilled.id,
    ]);
    const second = await page({ offset: 2, limit: 2 });
    expect(second.total).toBe(6);
    expect(ids(second.rows)).toEqual([made.refunded.id, made.fulfilled.id]);
    await expect(page({ offset: 50, limit: 2 })).resolves.toEqual({ total: 6, rows: [] });
    await expect(page({ serviceId: randomUUID() })).resolves.toEqual({ total: 0, rows: [] });
  });

  it('searches receipt numbers and shared addresses only, wildcards taken literally', async () => {
    const byReceipt = made.refunded.receipt ?? '';
    await expect(page({ search: byReceipt.toLowerCase() }).then((p) => ids(p.rows))).resolves.toEqual([made.refunded.id]);
    await expect(page({ search: ' ANN@example ' }).then((p) => ids(p.rows))).resolves.toEqual([made.pending.id]);
    // bob did not share his address: the seller cannot find him by it.
    await expect(page({ search: 'bob@' }).then((p) => p.total)).resolves.toBe(0);
    await expect(page({ search: '50%' }).then((p) => ids(p.rows))).resolves.toEqual([made.fulfilled.id]);
    await expect(page({ search: '%' }).then((p) => ids(p.rows))).resolves.toEqual([made.fulfilled.id]);
    await expect(page({ search: '_' }).then((p) => ids(p.rows))).resolves.toEqual([made.fulfilled.id]);
  });

  it('reads a page in one statement whatever its size', async () => {
    const small = await db.countQueries(() => page({ limit: 1 }));
    const large = await db.countQueries(() => page({ limit: 100 }));
    expect(small.result.rows).toHaveLength(1);
    expect(large.result.rows).toHaveLength(6);
    expect(small.queries).toHaveLength(1);
    expect(large.queries).toHaveLength(1);
  });
});
