import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openShop, uniqueEmail, type LoopbackSmtp, type LoopbackStripe, type TestPlatform } from '@tinkerdesk/testing';
import { eventually } from './eventually.js';
import { placeOrder, startStripePlatform, type StripePlatform } from './stripe-platform.js';

/**
 * Partial refunds through the real gateway, identity and commerce, on both providers (the sandbox
 * processor and the loopback Stripe server): the seller refunds part, then the rest; the limits of the
 * amount on the field; each refund on both timelines as a negative amount and in the buyer's email; a
 * retried Idempotency-Key refunds once; and refunds fired at the same moment whose total is more than
 * was paid: the money refunded never exceeds it, and the order's refunded_amount, the sum of its refund
 * rows and what the provider itself refunded are equal.
 */
const SELLER_ACCOUNT = 'acct_1RefundShop1234';
const CARD = { number: '4242424242424242', expiry: '12 / 34', cvc: '123' };

let started: StripePlatform;
let platform: TestPlatform;
let stripe: LoopbackStripe;
let smtp: LoopbackSmtp;
let buyer: { token: string; email: string };
const shops: Record<
  'sandbox' | 'stripe',
  { seller: { token: string; guid: string }; serviceId: string; productId: string; price: number }
> = {} as never;

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

interface Order {
  id: string;
  state: string;
  amount: number;
  refundedAmount: number;
  refunds: Array<{ amount: number; reason: string | null; refundedAt: string }>;
}

const orderOf = async (id: string, token?: string) => (await call('GET', `/v1/orders/${id}`, undefined, token)).body.order as Order;

/** An order of the buyer's, paid on the shop's provider. */
async function paidOrder(provider: 'sandbox' | 'stripe'): Promise<string> {
  const orderId = await placeOrder(platform, shops[provider], buyer);
  const started = await call('POST', `/v1/orders/${orderId}/pay`, undefined, buyer.token);
  expect(started.status).toBe(200);
  const sessionId = started.body.sessionId as string;
  if (provider === 'stripe') await stripe.pay(sessionId, CARD.number);
  else expect((await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, CARD)).status).toBe(200);
  const paid = await eventually(
    () => orderOf(orderId, buyer.token),
    (o) => o.state === 'paid',
  );
  expect(paid.state).toBe('paid');
  return orderId;
}

/** What the provider itself refunded of the order's payments, in cents. */
async function providerRefunded(provider: 'sandbox' | 'stripe', orderId: string): Promise<number> {
  if (provider === 'stripe') return stripe.money(orderId).refunded;
  const rows = await platform.query<{ refunded: number }>(
    `SELECT coalesce(sum("refunded_amount"), 0)::int AS "refunded" FROM "commerce"."sandbox_session" WHERE "order_id" = $1`,
    [orderId],
  );
  return rows[0]?.refunded ?? 0;
}

/** The order's refunded_amount and the sum of its refund rows, from the database. */
async function ledger(orderId: string): Promise<{ refundedAmount: number; rows: number; pending: number }> {
  const [row] = await platform.query<{ refundedAmount: number; rows: number; pending: number }>(
    `SELECT o."refunded_amount" AS "refundedAmount",
            coalesce((SELECT sum(r."amount") FROM "commerce"."order_refund" r WHERE r."order_id" = o."id" AND r."state" = 'done'), 0)::int AS "rows",
            (SELECT count(*) FROM "commerce"."order_refund" r WHERE r."order_id" = o."id" AND r."state" = 'pending')::int AS "pending"
       FROM "commerce"."order" o WHERE o."id" = $1`,
    [orderId],
  );
  return row!;
}

const refundEntries = async (token: string, orderId: string) => {
  const answer = await call('GET', '/v1/timeline?limit=100', undefined, token);
  return (answer.body.events as Array<{ kind: string; orderId: string | null; amount: number | null; title: string }>).filter(
    (e) => e.orderId === orderId && e.kind === 'order.refunded',
  );
};

beforeAll(async () => {
  started = await startStripePlatform([{ id: SELLER_ACCOUNT, chargesEnabled: true, detailsSubmitted: true }]);
  ({ platform, stripe, smtp } = started);
  const sandbox = await openShop(platform, {
    tag: 'refund-sandbox',
    service: { name: 'Refund shop', displayName: 'Refund shop', provider: 'sandbox', vendor: 'digital', account: 'sandbox_refunds' },
    product: { name: 'Print', price: 1250 },
  });
  const viaStripe = await openShop(platform, {
    tag: 'refund-stripe',
    service: {
      name: 'Refund Stripe shop',
      displayName: 'Refund Stripe shop',
      provider: 'stripe',
      vendor: 'digital',
      account: SELLER_ACCOUNT,
    },
    product: { name: 'E-book', price: 999 },
  });
  shops.sandbox = { ...sandbox, price: 1250 };
  shops.stripe = { ...viaStripe, price: 999 };
  const email = uniqueEmail('refund-buyer');
  const created = await call('POST', '/v1/users', { email, password: 'refund buyer password' });
  buyer = { token: created.body.token as string, email };
}, 120_000);

afterAll(async () => {
  await started?.close();
});

describe.each(['sandbox', 'stripe'] as const)('partial refunds (%s)', (provider) => {
  it('refunds part with a reason, then the rest; the amount is checked on the field; nothing left is a conflict', async () => {
    const { seller, price } = shops[provider];
    const orderId = await paidOrder(provider);
    const refund = (body: unknown, token = seller.token, headers: Record<string, string> = {}) =>
      platform.request('POST', `/v1/orders/${orderId}/refund`, { body, token, headers });
    expect(await refund({ amount: 100 }, buyer.token)).toMatchObject({ status: 404 });
    for (const [amount, detail] of [
      [0, /amount must be more than 0/],
      [-5, /amount must be more than 0/],
      [2.5, /amount must be a whole number of cents/],
      ['4', /amount must be a whole number of cents/],
      [price + 1, new RegExp(`amount may be at most ${price} cents`)],
    ] as const) {
      const refused = await refund({ amount });
      expect(refused).toMatchObject({ status: 400, body: { success: false, error: 'VALIDATION_FAILED' } });
      expect(String(refused.body.detail)).toMatch(detail);
    }
    const part = await refund({ amount: 400, reason: 'One print was damaged' });
    expect(part).toMatchObject({
      status: 200,
      body: { order: { state: 'paid', refundedAmount: 400, refunds: [{ amount: 400, reason: 'One print was damaged' }] } },
    });
    const tooMuch = await refund({ amount: price - 400 + 1 });
    expect(tooMuch).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED' } });
    expect(String(tooMuch.body.detail)).toContain(`amount may be at most ${price - 400} cents`);
    const rest = await refund(undefined);
    expect(rest).toMatchObject({ status: 200, body: { order: { state: 'refunded', refundedAmount: price } } });
    expect((rest.body.order as Order).refunds.map((r) => r.amount)).toEqual([400, price - 400]);
    expect(await refund({ amount: 1 })).toMatchObject({ status: 409, body: { error: 'CONFLICT' } });
    expect(await providerRefunded(provider, orderId)).toBe(price);
    expect(await ledger(orderId)).toEqual({ refundedAmount: price, rows: price, pending: 0 });
    // The buyer's page says it, each refund is on both timelines as a negative amount, and emailed.
    expect(await orderOf(orderId, buyer.token)).toMatchObject({
      refundedAmount: price,
      refunds: [{ amount: 400 }, { amount: price - 400 }],
    });
    for (const token of [buyer.token, seller.token]) {
      const entries = await eventually(
        () => refundEntries(token, orderId),
        (list) => list.length === 2,
      );
      expect(entries.map((e) => e.amount).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([-400, -(price - 400)].sort((a, b) => a - b));
    }
    const mail = await smtp.mailTo(buyer.email, new RegExp(`refunded \\$4\\.00 of your payment`));
    expect(mail).toContain('Refunded so far: $4.00');
    expect(mail).toContain("The seller's reason: One print was damaged");
    expect(mail).toMatch(/Your receipt R-\d{4}-\d{6} shows the refund/);
    if (provider === 'stripe') {
      // Stripe's charge.refunded webhooks of these refunds add nothing: the order knew them.
      await eventually(
        async () => stripe.deliveries.filter((d) => d.event.type === 'charge.refunded' && d.status === 200).length,
        (n) => n >= 2,
      );
      expect(await ledger(orderId)).toEqual({ refundedAmount: price, rows: price, pending: 0 });
    }
  }, 60_000);

  it('the same Idempotency-Key again refunds once; another key is another refund', async () => {
    const { seller } = shops[provider];
    const orderId = await paidOrder(provider);
    const refund = (key: string) =>
      platform.request('POST', `/v1/orders/${orderId}/refund`, {
        body: { amount: 100 },
        token: seller.token,
        headers: { 'idempotency-key': key },
      });
    const key = randomUUID();
    expect(await refund(key)).toMatchObject({ status: 200, body: { order: { refundedAmount: 100 } } });
    expect(await refund(key)).toMatchObject({ status: 200, body: { order: { refundedAmount: 100 } } });
    expect(await refund(randomUUID())).toMatchObject({ status: 200, body: { order: { refundedAmount: 200 } } });
    expect(await providerRefunded(provider, orderId)).toBe(200);
  }, 60_000);

  it('refunds fired at the same moment never refund more than was paid; order, rows and provider agree', async () => {
    const { seller, price } = shops[provider];
    for (let trial = 0; trial < 4; trial++) {
      const orderId = await paidOrder(provider);
      const each = 300;
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => call('POST', `/v1/orders/${orderId}/refund`, { amount: each }, seller.token)),
      );
      const statuses = answers.map((a) => a.status);
      // The losers are refused before the provider is asked (what remains is reserved): 400 on amount, never a provider's refusal.
      expect(statuses.filter((s) => s !== 200).every((s) => s === 400)).toBe(true);
      const refunded = statuses.filter((s) => s === 200).length * each;
      expect(refunded).toBe(Math.floor(price / each) * each);
      expect(await providerRefunded(provider, orderId)).toBe(refunded);
      expect(await ledger(orderId)).toEqual({ refundedAmount: refunded, rows: refunded, pending: 0 });
      // What remains can still be refunded, once; then the order is refunded in full.
      const rest = await call('POST', `/v1/orders/${orderId}/refund`, undefined, seller.token);
      expect(rest).toMatchObject({ status: 200, body: { order: { state: 'refunded', refundedAmount: price } } });
      expect(await providerRefunded(provider, orderId)).toBe(price);
    }
  }, 120_000);
});

describe('a part refunded in Stripe’s dashboard', () => {
  it('reaches the order through the webhook as one refund; the seller can refund what remains, no more', async () => {
    const { seller, price } = shops.stripe;
    const orderId = await paidOrder('stripe');
    const session = (
      await platform.query<{ id: string }>(`SELECT "id" FROM "commerce"."payment_session" WHERE "order_id" = $1`, [orderId])
    )[0]!;
    const pi = stripe.session(session.id)!.payment_intent as string;
    const event = stripe.signedEvent(
      'charge.refunded',
      { id: 'ch_dash', object: 'charge', payment_intent: pi, amount: price, amount_refunded: 300, refunded: false, currency: 'usd' },
      SELLER_ACCOUNT,
    );
    const send = () =>
      fetch(`${platform.url}/v1/webhooks/stripe`, {
        method: 'POST',
        body: event.payload,
        headers: { 'stripe-signature': event.header, 'content-type': 'application/json' },
      }).then((r) => r.json());
    expect(await send()).toMatchObject({ applied: true });
    expect(await send()).toMatchObject({ applied: false });
    expect(await orderOf(orderId, seller.token)).toMatchObject({
      state: 'paid',
      refundedAmount: 300,
      refunds: [{ amount: 300, reason: null }],
    });
    const tooMuch = await call('POST', `/v1/orders/${orderId}/refund`, { amount: price - 299 }, seller.token);
    expect(tooMuch).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED' } });
    expect(await call('POST', `/v1/orders/${orderId}/refund`, undefined, seller.token)).toMatchObject({
      status: 200,
      body: { order: { state: 'refunded', refundedAmount: price } },
    });
    expect(await ledger(orderId)).toEqual({ refundedAmount: price, rows: price, pending: 0 });
  }, 60_000);
});
