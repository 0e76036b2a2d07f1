import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IDEMPOTENCY_LEASE_SECONDS, requestFingerprint, sql } from '@tinkerdesk/persistence';
import { staysBlocked, type RepositoryDatabase } from '@tinkerdesk/testing';
import { COMMERCE_EVENTS } from '@tinkerdesk/contracts';
import { commerceEvent, orderSnapshot } from '../events/commerce-events.js';
import { listedOf } from './listed-order.js';
import { OrdersRepository, type OrderRow } from './orders.repository.js';
import { commerceDatabase, insertService, newOrder, outboxCount } from '../../test/repository-database.js';

let db: RepositoryDatabase;
let repository: OrdersRepository;
let serviceId: string;
const sellerId = randomUUID();

beforeAll(async () => {
  db = await commerceDatabase();
  repository = new OrdersRepository(db.dataSource);
  serviceId = await insertService(db, sellerId);
});

afterAll(() => db?.close());

const order = (fields: Partial<OrderRow> = {}) => newOrder({ serviceId, sellerId, ...fields });

/** A page as the service reads it: orderPage, then listedOrders of its ids. */
async function listOrders(...page: Parameters<OrdersRepository['orderPage']>) {
  const { total, orders } = await repository.orderPage(...page);
  return { total, rows: await repository.listedOrders(orders.map((o) => o.id)) };
}

/** An order and what its view shows, read one by one as a single order's view reads them, in the list's terms. */
async function readOneByOne(id: string) {
  const found = await repository.findOrder(id);
  if (!found) throw new Error(`no order ${id}`);
  const [receipt, replies, refunds, latePayments] = await Promise.all([
    repository.receipt(id),
    repository.replies(id),
    repository.refunds(id),
    repository.latePayments(id),
  ]);
  return listedOf(found, receipt, replies, refunds, latePayments);
}

const listedFields = async (id: string) => (await readOneByOne(id)).order;

const late = (orderId: string, paymentId = `pi_${randomUUID()}`) => ({
  provider: 'stripe' as const,
  paymentId,
  orderId,
  sessionId: `cs_${randomUUID()}`,
  account: 'acct_1',
  amount: 1250,
});

describe('refunds', () => {
  it('reserves (pending), releases, finishes once; lists done ones; refunded_amount never exceeds the amount', async () => {
    const o = await repository.insertOrder(order({ state: 'paid', amount: 1250 }));
    const refund = (amount: number, id = randomUUID()) => ({
      id,
      orderId: o.id,
      amount,
      reason: null,
      state: 'pending' as const,
      providerRefundId: null,
      refundedAt: null,
    });
    const a = refund(500);
    const b = refund(300);
    // One reservation per transaction, as the service makes them: listed in the order they were made.
    await repository.inTransaction(async (tx) => {
      await tx.lockOrder(o.id);
      await tx.insertRefund(a);
    });
    await repository.inTransaction(async (tx) => {
      await tx.lockOrder(o.id);
      await tx.insertRefund({ ...b, reason: 'Damaged' });
    });
    await expect(repository.inTransaction((tx) => tx.refundsOf(o.id))).resolves.toMatchObject([
      { id: a.id, state: 'pending', amount: 500 },
      { id: b.id, state: 'pending', reason: 'Damaged' },
    ]);
    await expect(repository.refunds(o.id)).resolves.toEqual([]);
    const done = await repository.inTransaction((tx) => tx.finishRefund(a.id, 're_1'));
    expect(done).toMatchObject({ id: a.id, state: 'done', providerRefundId: 're_1', refundedAt: expect.any(Date) });
    await expect(repository.inTransaction((tx) => tx.finishRefund(a.id, 're_1'))).resolves.toBeNull();
    await repository.inTransaction((tx) => tx.releaseRefund(a.id));
    await repository.inTransaction((tx) => tx.releaseRefund(b.id));
    await expect(repository.refunds(o.id)).resolves.toMatchObject([{ id: a.id, amount: 500 }]);
    await expect(repository.inTransaction((tx) => tx.refundsOf(o.id))).resolves.toHaveLength(1);
    await expect(repository.inTransaction((tx) => tx.updateOrder(o.id, { refundedAmount: 500 }))).resolves.toMatchObject({
      refundedAmount: 500,
    });
    await expect(repository.inTransaction((tx) => tx.updateOrder(o.id, { refundedAmount: 1251 }))).rejects.toThrow(/check/);
    await expect(repository.inTransaction((tx) => tx.insertRefund(refund(0)))).rejects.toThrow(/check/);
  });
});

describe('orders', () => {
  it('inserts and reads back every field; finds by payment', async () => {
    const o = order();
    const inserted = await repository.insertOrder(o);
    expect(inserted).toEqual({
      ...o,
      claimedBy: null,
      failure: null,
      paymentId: null,
      fulfilNote: null,
      paidAt: null,
      fulfilledAt: null,
      refundedAmount: 0,
      created: expect.any(Date),
      modified: expect.any(Date),
    });
    await expect(repository.findOrder(o.id)).resolves.toEqual(inserted);
    await expect(repository.findOrder(randomUUID())).resolves.toBeNull();
    await expect(repository.findOrderByPayment('pi_none')).resolves.toBeNull();
    await expect(repository.insertOrder(order({ amount: 0 }))).rejects.toThrow(/check/);
    await expect(repository.insertOrder(order({ state: 'lost' as never }))).rejects.toThrow(/check/);
  });

  it('lists a seller’s or buyer’s orders newest first, by state, with the total', async () => {
    const seller = randomUUID();
    const buyer = randomUUID();
    const a = await repository.insertOrder(order({ sellerId: seller, buyerId: buyer }));
    const b = await repository.insertOrder(order({ sellerId: seller, state: 'paid' }));
    const c = await repository.insertOrder(order({ sellerId: seller, state: 'cancelled' }));
    const page = await listOrders({ sellerId: seller }, undefined, 0, 2);
    expect(page.total).toBe(3);
    expect(page.rows.map((o) => o.order.id)).toEqual([c.id, b.id]);
    // The order as findOrder reads it, in the list's terms.
    expect(page.rows[1]?.order).toEqual(await listedFields(b.id));
    const some = await listOrders({ sellerId: seller }, ['pending', 'paid'], 0, 10);
    expect(some).toMatchObject({ total: 2, rows: [{ order: { id: b.id } }, { order: { id: a.id } }] });
    await expect(listOrders({ sellerId: seller }, 'cancelled', 0, 10)).resolves.toMatchObject({
      total: 1,
      rows: [{ order: { id: c.id } }],
    });
    await expect(listOrders({ buyerId: buyer }, undefined, 0, 10)).resolves.toMatchObject({ total: 1, rows: [{ order: { id: a.id } }] });
    // Past the end: no rows, the total still counted; nobody's orders: none.
    await expect(listOrders({ sellerId: seller }, undefined, 5, 10)).resolves.toEqual({ total: 3, rows: [] });
    await expect(listOrders({ sellerId: seller }, ['paid', 'cancelled'], 5, 10)).resolves.toEqual({ total: 2, rows: [] });
    // No state allowed (a receipts filter naming a state without receipts): nothing.
    await expect(listOrders({ sellerId: seller }, [], 0, 10)).resolves.toEqual({ total: 0, rows: [] });
    await expect(listOrders({ sellerId: randomUUID() }, undefined, 0, 10)).resolves.toEqual({ total: 0, rows: [] });
  });

  it('reads a page with each order’s receipt, replies, done refunds and late payments in two statements, whatever its size', async () => {
    const seller = randomUUID();
    const service = await insertService(db, seller);
    const plain = await repository.insertOrder(newOrder({ serviceId: service, sellerId: seller }));
    const paid = await repository.insertOrder(newOrder({ serviceId: service, sellerId: seller }));
    const paidAt = new Date('2026-03-01T10:00:00.123Z');
    const receipt = await repository.inTransaction(async (tx) => {
      await tx.updateOrder(paid.id, { state: 'paid', paidAt });
      const made = await tx.insertReceipt({
        orderId: paid.id,
        amount: 1250,
        currency: 'USD',
        items: [{ productId: null, name: 'Poster', description: '', unitPrice: 1250, quantity: 1, amount: 1250 }],
        email: 'buyer@example.test',
        sellerName: 'Riso Corner',
        serviceName: 'Shop',
        supportEmail: null,
        paidAt,
      });
      await tx.insertReply({ id: randomUUID(), orderId: paid.id, authorId: seller, authorRole: 'seller', note: 'Ships Monday.' });
      await tx.insertRefund({
        id: randomUUID(),
        orderId: paid.id,
        amount: 200,
        reason: 'Bent corner',
        state: 'pending',
        providerRefundId: null,
        refundedAt: null,
      });
      await tx.insertRefund({
        id: randomUUID(),
        orderId: paid.id,
        amount: 100,
        reason: null,
        state: 'pending',
        providerRefundId: null,
        refundedAt: null,
      });
      await tx.recordLatePayment(late(paid.id));
      return made;
    });
    const [done] = await repository.inTransaction((tx) => tx.refundsOf(paid.id));
    await repository.inTransaction((tx) => tx.finishRefund(done?.id ?? '', 're_1'));

    const small = await db.countQueries(() => listOrders({ sellerId: seller }, undefined, 0, 1));
    const large = await db.countQueries(() => listOrders({ sellerId: seller }, undefined, 0, 100));
    // Two statements (the page's ids, then its orders), the same texts whatever the size.
    expect(small.queries).toHaveLength(2);
    expect(large.queries).toEqual(small.queries);
    expect(small.result.total).toBe(2);
    expect(large.result.rows.map((r) => r.order.id).sort()).toEqual([plain.id, paid.id].sort());

    // What the view reads one by one (the order, receipt, replies, refunds, latePayments), equal field for field
    // and key for key (the view's keys in its order: its JSON is the same text).
    const listed = large.result.rows.find((r) => r.order.id === paid.id);
    const one = await readOneByOne(paid.id);
    expect(listed).toEqual(one);
    expect(JSON.stringify(listed)).toBe(JSON.stringify(one));
    expect(listed?.receipt).toMatchObject({ number: receipt.number, paidAt: paidAt.toISOString() });
    expect(listed?.replies).toMatchObject([{ from: 'seller', note: 'Ships Monday.' }]);
    expect(listed?.refunds).toMatchObject([{ id: done?.id, amount: done?.amount, reason: done?.reason }]);
    expect(listed?.latePayments).toMatchObject([{ amount: 1250, state: 'refund_pending', refundedAt: null }]);
    expect(large.result.rows.find((r) => r.order.id === plain.id)).toMatchObject({
      receipt: null,
      replies: [],
      refunds: [],
      latePayments: [],
    });
  });

  it('writes a page’s dates as the text pg’s Date gives (to the millisecond, truncated), whatever their microseconds', async () => {
    const seller = randomUUID();
    const service = await insertService(db, seller);
    // 400 orders: the edges of a second and of a millisecond, then random microseconds over 60 years.
    await db.dataSource.query(
      `INSERT INTO "commerce"."order" ("id", "service_id", "seller_id", "email", "state", "provider", "account", "vendor", "items", "amount", "currency",
                                       "created", "modified", "paid_at", "fulfilled_at")
       SELECT gen_random_uuid(), $1, $2, 'b' || i || '@example.test', 'fulfilled', 'stripe', 'acct_1', 'digital', '[]', 1250, 'USD',
              t, t + interval '1 microsecond', t - interval '1 microsecond', t + interval '999 microseconds'
         FROM (SELECT i, CASE i WHEN 1 THEN timestamptz '2026-01-01T00:00:00Z' WHEN 2 THEN timestamptz '2026-12-31T23:59:59.999999Z'
                                WHEN 3 THEN timestamptz '2026-06-30T12:00:00.0005Z' WHEN 4 THEN timestamptz '2000-02-29T23:59:59.999Z'
                                ELSE timestamptz '1990-01-01T00:00:00Z' + random() * interval '60 years' END AS t
                 FROM generate_series(1, 400) AS i) d`,
      [service, seller],
    );
    const stored = await sql.rows<Pick<OrderRow, 'id' | 'created' | 'modified' | 'paidAt' | 'fulfilledAt'>>(
      db.dataSource,
      `SELECT "id", "created", "modified", "paid_at" AS "paidAt", "fulfilled_at" AS "fulfilledAt" FROM "commerce"."order" WHERE "seller_id" = $1`,
      [seller],
    );
    expect(stored).toHaveLength(400);
    const listed = new Map((await repository.listedOrders(stored.map((o) => o.id))).map((r) => [r.order.id, r.order]));
    for (const o of stored)
      expect(listed.get(o.id)).toMatchObject({
        created: o.created.toISOString(),
        modified: o.modified.toISOString(),
        paidAt: o.paidAt?.toISOString(),
        fulfilledAt: o.fulfilledAt?.toISOString(),
      });
  });

  it('pages the same orders whatever the page size, filter or party; a deep page; ties in time by id', async () => {
    const seller = randomUUID();
    const buyer = randomUUID();
    const service = await insertService(db, seller);
    // 45 orders, in threes at the same moment (ties broken by id), a third paid, every fifth the buyer's.
    await db.dataSource.query(
      `INSERT INTO "commerce"."order" ("id", "service_id", "seller_id", "buyer_id", "email", "state", "provider", "account", "vendor", "items", "amount", "currency", "created")
       SELECT gen_random_uuid(), $1, $2, CASE WHEN i % 5 = 0 THEN $3::uuid END, 'b' || i || '@example.test',
              CASE WHEN i % 3 = 0 THEN 'paid' ELSE 'pending' END, 'stripe', 'acct_1', 'digital', '[]', 1250, 'USD',
              timestamptz '2026-03-01T10:00:00Z' - (i / 3) * interval '1 minute'
         FROM generate_series(1, 45) AS i`,
      [service, seller, buyer],
    );
    const expected = async (where: string, param: string) =>
      (
        await sql.rows<{ id: string }>(
          db.dataSource,
          `SELECT "id" FROM "commerce"."order" WHERE ${where} ORDER BY "created" DESC, "id" ASC`,
          [param],
        )
      ).map((r) => r.id);
    const cases = [
      { who: { sellerId: seller }, state: undefined, ids: await expected(`"seller_id" = $1`, seller) },
      { who: { sellerId: seller }, state: ['paid' as const], ids: await expected(`"seller_id" = $1 AND "state" = 'paid'`, seller) },
      { who: { buyerId: buyer }, state: undefined, ids: await expected(`"buyer_id" = $1`, buyer) },
    ];
    expect(cases.map((c) => c.ids.length)).toEqual([45, 15, 9]);
    for (const { who, state, ids } of cases) {
      for (const size of [1, 7, 20, 100]) {
        const walked: string[] = [];
        for (let offset = 0; offset < ids.length + size; offset += size) {
          const page = await listOrders(who, state, offset, size);
          expect(page.total).toBe(ids.length);
          expect(page.rows.length).toBe(Math.max(0, Math.min(size, ids.length - offset)));
          walked.push(...page.rows.map((r) => r.order.id));
        }
        expect(walked).toEqual(ids);
      }
    }
    // A deep page: the last 5 of 45, each order as findOrder reads it.
    const deep = await listOrders({ sellerId: seller }, undefined, 40, 20);
    expect(deep.rows.map((r) => r.order.id)).toEqual(cases[0]?.ids.slice(40));
    for (const row of deep.rows) expect(row.order).toEqual(await listedFields(row.order.id));
    // The page statement answers each order's service; the orders' statement keeps the ids' order, leaving out an unknown id.
    const page = await repository.orderPage({ sellerId: seller }, undefined, 0, 3);
    expect(page.orders).toEqual(cases[0]?.ids.slice(0, 3).map((id) => ({ id, serviceId: service })));
    const reversed = [...page.orders.map((o) => o.id)].reverse();
    await expect(
      repository.listedOrders([reversed[0] ?? '', randomUUID(), ...reversed.slice(1)]).then((rows) => rows.map((r) => r.order.id)),
    ).resolves.toEqual(reversed);
    await expect(repository.listedOrders([])).resolves.toEqual([]);
  });

  it('claims the unclaimed guest orders of an address for an account, once; lists them among its orders', async () => {
    const account = randomUUID();
    const email = `claim-${randomUUID()}@example.test`;
    const guest = await repository.insertOrder(order({ buyerId: null, email }));
    const signedIn = await repository.insertOrder(order({ buyerId: randomUUID(), email }));
    const claimedAlready = await repository.insertOrder({ ...order({ buyerId: null, email }), claimedBy: randomUUID() });
    const otherAddress = await repository.insertOrder(order({ buyerId: null, email: `other-${email}` }));
    const claim = () => db.dataSource.transaction((manager) => repository.claimByEmail(manager, account, email.toUpperCase()));
    await expect(claim()).resolves.toBe(1);
    await expect(claim()).resolves.toBe(0);
    await expect(repository.findOrder(guest.id)).resolves.toMatchObject({ claimedBy: account });
    for (const o of [signedIn, otherAddress]) await expect(repository.findOrder(o.id)).resolves.toMatchObject({ claimedBy: null });
    await expect(repository.findOrder(claimedAlready.id)).resolves.toMatchObject({ claimedBy: claimedAlready.claimedBy });
    const bought = await repository.insertOrder(order({ buyerId: account, state: 'paid' }));
    await expect(listOrders({ buyerId: account }, undefined, 0, 10)).resolves.toMatchObject({
      total: 2,
      rows: [{ order: { id: bought.id } }, { order: { id: guest.id } }],
    });
    await expect(listOrders({ buyerId: account }, 'paid', 0, 10)).resolves.toMatchObject({
      total: 1,
      rows: [{ order: { id: bought.id } }],
    });
  });

  it('locks the order in a transaction (FOR UPDATE) and updates the given fields', async () => {
    const o = await repository.insertOrder(order());
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const paidAt = new Date('2026-05-01T10:00:00Z');
    const first = repository.inTransaction(async (tx) => {
      await expect(tx.lockOrder(o.id)).resolves.toMatchObject({ id: o.id, state: 'pending' });
      entered();
      await held;
      return tx.updateOrder(o.id, { state: 'paid', paymentId: 'pi_lock', paidAt, failure: null });
    });
    await inside;
    const second = repository.inTransaction((tx) => tx.lockOrder(o.id));
    await expect(staysBlocked(second)).resolves.toBe(true);
    release();
    const updated = await first;
    expect(updated).toMatchObject({ state: 'paid', paymentId: 'pi_lock', paidAt, failure: null, email: o.email });
    expect(updated.modified.getTime()).toBeGreaterThanOrEqual(o.modified.getTime());
    await expect(second).resolves.toMatchObject({ state: 'paid' });
    await expect(repository.findOrderByPayment('pi_lock')).resolves.toMatchObject({ id: o.id });
    await expect(repository.inTransaction((tx) => tx.lockOrder(randomUUID()))).resolves.toBeNull();
  });

  it('numbers receipts per year from the sequence; one receipt per order', async () => {
    const o = await repository.insertOrder(order());
    const receipt = {
      orderId: o.id,
      amount: 1250,
      currency: 'USD' as const,
      items: o.items,
      email: o.email,
      sellerName: 'Shop',
      serviceName: 'Shop',
      supportEmail: null,
      paidAt: new Date('2026-05-01T10:00:00Z'),
    };
    const inserted = await repository.inTransaction((tx) => tx.insertReceipt(receipt));
    expect(inserted).toEqual({ ...receipt, number: expect.stringMatching(/^R-2026-\d{6}$/) });
    await expect(repository.receipt(o.id)).resolves.toEqual(inserted);
    await expect(repository.receipt(randomUUID())).resolves.toBeNull();
    await expect(repository.inTransaction((tx) => tx.insertReceipt(receipt))).rejects.toThrow(/duplicate key/);
  });

  it('keeps one open payment session per order; closes one by its status', async () => {
    const o = await repository.insertOrder(order());
    const s = {
      id: `cs_${randomUUID()}`,
      orderId: o.id,
      provider: 'stripe' as const,
      account: 'acct_1',
      url: 'https://pay.example',
      status: 'open' as const,
      amount: 1250,
    };
    await repository.inTransaction((tx) => tx.insertSession(s));
    await expect(repository.openSessionOf(o.id)).resolves.toEqual({ ...s, created: expect.any(Date) });
    await expect(repository.findSession(s.id)).resolves.not.toHaveProperty('modified');
    await expect(repository.inTransaction((tx) => tx.insertSession({ ...s, id: `cs_${randomUUID()}` }))).rejects.toThrow(/duplicate key/);
    await repository.inTransaction((tx) => tx.setSessionStatus(s.id, 'expired'));
    await expect(repository.inTransaction((tx) => tx.openSession(o.id))).resolves.toBeNull();
    await expect(repository.findSession(s.id)).resolves.toMatchObject({ status: 'expired' });
  });

  it('claims a provider event once', async () => {
    const id = `evt_${randomUUID()}`;
    await expect(repository.inTransaction((tx) => tx.claimEvent('stripe', id, 'checkout.session.completed'))).resolves.toBe(true);
    await expect(repository.inTransaction((tx) => tx.claimEvent('stripe', id, 'checkout.session.completed'))).resolves.toBe(false);
    await expect(repository.inTransaction((tx) => tx.claimEvent('sandbox', id, 'checkout.session.completed'))).resolves.toBe(true);
  });

  it('inserts an order with its events in one transaction (none when the insert fails)', async () => {
    const o = order();
    const placed = commerceEvent(
      COMMERCE_EVENTS.orderPlaced,
      { type: 'order', id: o.id },
      { order: orderSnapshot({ ...o, fulfilNote: null }) },
    );
    await repository.insertOrder(o, [placed]);
    await expect(outboxCount(db, o.id)).resolves.toBe(1);
    await expect(repository.insertOrder(o, [placed])).rejects.toThrow(/duplicate key/);
    await expect(outboxCount(db, o.id)).resolves.toBe(1);
  });

  it('records a late payment once, leases it to one replica at a time, marks it refunded once', async () => {
    const o = await repository.insertOrder(order());
    const payment = late(o.id);
    await expect(repository.inTransaction((tx) => tx.recordLatePayment(payment))).resolves.toBe(true);
    await expect(repository.inTransaction((tx) => tx.recordLatePayment(payment))).resolves.toBe(false);
    const [leased] = await repository.leaseLateRefunds(0, 1000).then((rows) => rows.filter((r) => r.orderId === o.id));
    expect(leased).toEqual({
      ...payment,
      state: 'refund_pending',
      attempts: 1,
      lastError: null,
      refundedAt: null,
      created: expect.any(Date),
    });
    // Leased just now: not again within the lease.
    expect((await repository.leaseLateRefunds(3600, 1000)).map((r) => r.paymentId)).not.toContain(payment.paymentId);
    await repository.noteLateRefundError('stripe', payment.paymentId, 'x'.repeat(600));
    await expect(repository.latePayments(o.id)).resolves.toMatchObject([{ lastError: 'x'.repeat(500), attempts: 1 }]);
    await expect(repository.markLateRefunded('stripe', payment.paymentId)).resolves.toMatchObject({ state: 'refunded', lastError: null });
    await expect(repository.inTransaction((tx) => tx.markLateRefunded('stripe', payment.paymentId))).resolves.toBeNull();
    await expect(repository.latePayments(o.id)).resolves.toMatchObject([{ state: 'refunded', refundedAt: expect.any(Date) }]);
  });

  it('leases a late payment locked by another replica to nobody (SKIP LOCKED)', async () => {
    const o = await repository.insertOrder(order());
    const payment = late(o.id);
    await repository.inTransaction((tx) => tx.recordLatePayment(payment));
    await db.dataSource.transaction(async (tx) => {
      await sql.execute(tx, `SELECT 1 FROM "commerce"."late_payment" WHERE "payment_id" = $1 FOR UPDATE`, [payment.paymentId]);
      expect((await repository.leaseLateRefunds(0, 1000)).map((r) => r.paymentId)).not.toContain(payment.paymentId);
    });
  });

  it('keeps replies in order, in or out of a transaction; counts the orders of a product', async () => {
    const o = await repository.insertOrder(order());
    const first = { id: randomUUID(), orderId: o.id, authorId: o.buyerId!, authorRole: 'buyer' as const, note: 'when?' };
    const second = { id: randomUUID(), orderId: o.id, authorId: sellerId, authorRole: 'seller' as const, note: 'today' };
    await repository.insertReply(first);
    await repository.inTransaction((tx) => tx.insertReply(second));
    await expect(repository.replies(o.id)).resolves.toEqual([
      { ...first, created: expect.any(Date) },
      { ...second, created: expect.any(Date) },
    ]);
    await expect(repository.insertReply({ ...first, id: randomUUID(), authorRole: 'admin' as never })).rejects.toThrow(/check/);
    await expect(repository.countOrdersOfProduct(randomUUID())).resolves.toBe(0);
  });
});

describe('idempotency keys', () => {
  it('pay, complete and refund run once per key on commerce’s table; a claim left without an answer past its lease is taken over', async () => {
    const create = { scope: `pay:${randomUUID()}`, key: 'k', request: { viewerId: null } };
    let asked = 0;
    const work = () => Promise.resolve({ sessionId: `s${++asked}` });
    expect(await repository.outside(create, work)).toEqual({ answer: { sessionId: 's1' }, replayed: false });
    expect(await repository.outside(create, work)).toEqual({ answer: { sessionId: 's1' }, replayed: true });
    const crashed = { ...create, key: 'crashed' };
    await sql.execute(
      db.dataSource,
      `INSERT INTO "commerce"."idempotency_key" ("scope", "key", "fingerprint", "created") VALUES ($1, $2, $3, now() - make_interval(secs => $4))`,
      [crashed.scope, crashed.key, requestFingerprint(crashed.request), IDEMPOTENCY_LEASE_SECONDS + 1],
    );
    expect(await repository.outside(crashed, work)).toEqual({ answer: { sessionId: 's2' }, replayed: false });
    expect(asked).toBe(2);
  });
});
