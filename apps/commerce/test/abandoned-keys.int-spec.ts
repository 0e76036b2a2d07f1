import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IDEMPOTENCY_LEASE_SECONDS } from '@tinkerdesk/persistence';
import { openShop, uniqueEmail, type LoopbackStripe, type Shop, type TestPlatform } from '@tinkerdesk/testing';
import { eventually } from './eventually.js';
import { placeOrder, startStripePlatform, type StripePlatform } from './stripe-platform.js';

/**
 * An Idempotency-Key whose request died between its claim and its answer, through the real gateway,
 * identity and commerce against the loopback Stripe server. The "crash" is made in the database after a
 * real request: its stored answer removed, what it did after the provider answered undone (the payment
 * session it inserted, the refund it counted), and its claim moved back past IDEMPOTENCY_LEASE_SECONDS —
 * as a process killed right after the provider's answer leaves them. Parallel retries under the key:
 * one takes the claim over and asks the provider again under the key made from the client's, which
 * answers its first outcome; the money moves once.
 */
const SELLER_ACCOUNT = 'acct_1LeaseShop12345';
const RETRIES = 8;
const TRIALS = 3;
const PRICE = 999;

let started: StripePlatform;
let platform: TestPlatform;
let stripe: LoopbackStripe;
let buyer: { token: string; email: string };
let shop: Shop;

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

const orderOf = async (id: string) =>
  (await call('GET', `/v1/orders/${id}`, undefined, buyer.token)).body.order as { state: string; refundedAmount: number };

/** The key's request "died" before storing its answer, long enough ago for its claim to lapse. */
async function abandon(scope: string, key: string): Promise<void> {
  const changed = await platform.query(
    `UPDATE "commerce"."idempotency_key" SET "response" = NULL, "created" = now() - make_interval(secs => $3)
      WHERE "scope" = $1 AND "key" = $2 RETURNING 1`,
    [scope, key, IDEMPOTENCY_LEASE_SECONDS + 1],
  );
  expect(changed).toHaveLength(1);
}

beforeAll(async () => {
  started = await startStripePlatform([{ id: SELLER_ACCOUNT, chargesEnabled: true, detailsSubmitted: true }]);
  ({ platform, stripe } = started);
  shop = await openShop(platform, {
    tag: 'lease-stripe',
    service: { name: 'Lease shop', displayName: 'Lease shop', provider: 'stripe', vendor: 'digital', account: SELLER_ACCOUNT },
    product: { name: 'E-book', price: PRICE },
  });
  const email = uniqueEmail('lease-buyer');
  const created = await call('POST', '/v1/users', { email, password: 'lease buyer password' });
  buyer = { token: created.body.token as string, email };
}, 120_000);

afterAll(async () => {
  await started?.close();
});

describe('a key whose request died after the provider answered', () => {
  it(`pay: ${RETRIES} retries at once × ${TRIALS} trials take the claim over once; the provider answers the same page; one charge`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const orderId = await placeOrder(platform, shop, buyer);
      const key = randomUUID();
      const pay = () => platform.request('POST', `/v1/orders/${orderId}/pay`, { token: buyer.token, headers: { 'idempotency-key': key } });
      const first = await pay();
      expect(first.status).toBe(200);
      const sessionId = first.body.sessionId as string;
      // Within the lease the claim still runs: a retry waits up to 2 s, then is told so.
      await platform.query(`UPDATE "commerce"."idempotency_key" SET "response" = NULL WHERE "scope" = $1 AND "key" = $2`, [
        `pay:${orderId}`,
        key,
      ]);
      expect(await pay()).toMatchObject({ status: 409, body: { detail: expect.stringMatching(/still being processed/) } });
      // Died after Stripe made the page, before the order's session was committed.
      await platform.query(`DELETE FROM "commerce"."payment_session" WHERE "id" = $1`, [sessionId]);
      await abandon(`pay:${orderId}`, key);
      const retries = await Promise.all(Array.from({ length: RETRIES }, pay));
      const ok = retries.filter((r) => r.status === 200);
      expect(retries.every((r) => r.status === 200 || r.status === 409)).toBe(true);
      expect(ok.length).toBeGreaterThan(0);
      expect(new Set(ok.map((r) => r.body.sessionId))).toEqual(new Set([sessionId]));
      const sessions = await platform.query<{ id: string }>(`SELECT "id" FROM "commerce"."payment_session" WHERE "order_id" = $1`, [
        orderId,
      ]);
      expect(sessions.map((s) => s.id)).toEqual([sessionId]);
      await stripe.pay(sessionId, '4242424242424242');
      const paid = await eventually(
        () => orderOf(orderId),
        (o) => o.state === 'paid',
      );
      expect(paid.state).toBe('paid');
      expect(stripe.charges(sessionId)).toBe(1);
      expect(stripe.money(orderId)).toEqual({ charged: PRICE, refunded: 0 });
      // Answered now: a later retry is the stored answer.
      expect((await pay()).body.sessionId).toBe(sessionId);
    }
  }, 120_000);

  it(`refund: ${RETRIES} retries at once × ${TRIALS} trials take the claim over once; Stripe answers the same refund; refunded once`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const orderId = await placeOrder(platform, shop, buyer);
      const started = await call('POST', `/v1/orders/${orderId}/pay`, undefined, buyer.token);
      await stripe.pay(started.body.sessionId as string, '4242424242424242');
      await eventually(
        () => orderOf(orderId),
        (o) => o.state === 'paid',
      );
      const key = randomUUID();
      const refund = () =>
        platform.request('POST', `/v1/orders/${orderId}/refund`, {
          body: { amount: 100 },
          token: shop.seller.token,
          headers: { 'idempotency-key': key },
        });
      expect(await refund()).toMatchObject({ status: 200, body: { order: { refundedAmount: 100 } } });
      expect(stripe.money(orderId).refunded).toBe(100);
      // Died after Stripe refunded, before the refund was counted: its reservation still pending.
      await platform.query(
        `UPDATE "commerce"."order_refund" SET "state" = 'pending', "provider_refund_id" = NULL, "refunded_at" = NULL WHERE "order_id" = $1`,
        [orderId],
      );
      await platform.query(`UPDATE "commerce"."order" SET "refunded_amount" = 0 WHERE "id" = $1`, [orderId]);
      await abandon(`refund:${orderId}`, key);
      const retries = await Promise.all(Array.from({ length: RETRIES }, refund));
      expect(retries.every((r) => r.status === 200 || r.status === 409)).toBe(true);
      for (const r of retries.filter((x) => x.status === 200)) expect(r.body.order).toMatchObject({ refundedAmount: 100 });
      expect(retries.filter((r) => r.status === 200).length).toBeGreaterThan(0);
      expect(stripe.money(orderId)).toEqual({ charged: PRICE, refunded: 100 });
      const rows = await platform.query<{ state: string; amount: number }>(
        `SELECT "state", "amount" FROM "commerce"."order_refund" WHERE "order_id" = $1`,
        [orderId],
      );
      expect(rows).toEqual([{ state: 'done', amount: 100 }]);
      expect(await orderOf(orderId)).toMatchObject({ state: 'paid', refundedAmount: 100 });
    }
  }, 120_000);
});
