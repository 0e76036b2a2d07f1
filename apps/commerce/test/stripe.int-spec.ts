import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { uniqueEmail, type LoopbackSmtp, type LoopbackStripe, type TestPlatform } from '@tinkerdesk/testing';
import { expectSettled } from './settled.js';
import { eventually } from './eventually.js';
import { startStripePlatform, type StripePlatform } from './stripe-platform.js';

/**
 * The Stripe path through the real gateway and commerce service, against a loopback server that speaks
 * the part of Stripe's HTTP API the adapter uses (the `stripe` SDK pointed at it by STRIPE_API_URL) and
 * signs its webhooks with Stripe's scheme: connected accounts, Checkout Sessions, the hosted page's test
 * cards, signed webhooks applied once, refunds.
 */
const SELLER_ACCOUNT = 'acct_1SellerAbcdef';
const PENDING_ACCOUNT = 'acct_1NotOnboarded';

let started: StripePlatform;
let platform: TestPlatform;
let stripe: LoopbackStripe;
let smtp: LoopbackSmtp;
let seller: { token: string; guid: string; email: string };
let serviceId: string;
let productId: string;

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  return read();
}

async function orderAndPay(key?: string): Promise<{ orderId: string; sessionId: string; url: string }> {
  const placed = await call('POST', `/v1/users/${seller.guid}/services/${serviceId}/order`, {
    product: productId,
    email: 'buyer@example.com',
    share: false,
  });
  expect(placed.status).toBe(201);
  const orderId = (placed.body.order as { id: string }).id;
  const started = await platform.request('POST', `/v1/orders/${orderId}/pay`, key ? { headers: { 'idempotency-key': key } } : {});
  expect(started.status).toBe(200);
  return { orderId, sessionId: started.body.sessionId as string, url: started.body.url as string };
}

const orderState = async (orderId: string) => ((await call('GET', `/v1/orders/${orderId}`)).body.order as { state: string }).state;

beforeAll(async () => {
  started = await startStripePlatform([
    { id: SELLER_ACCOUNT, chargesEnabled: true, detailsSubmitted: true },
    { id: PENDING_ACCOUNT, chargesEnabled: false, detailsSubmitted: false },
  ]);
  ({ platform, stripe, smtp } = started);
  const sellerEmail = uniqueEmail('stripe-seller');
  const created = await call('POST', '/v1/users', { email: sellerEmail, password: 'stripe seller pw' });
  seller = { token: created.body.token as string, guid: (created.body.profile as { guid: string }).guid, email: sellerEmail };
  const service = await call(
    'POST',
    `/v1/users/${seller.guid}/services`,
    {
      name: 'Stripe shop',
      displayName: 'Stripe Shop Co',
      provider: 'stripe',
      vendor: 'digital',
      account: SELLER_ACCOUNT,
      statementDescriptor: 'STRIPE SHOP',
    },
    seller.token,
  );
  expect(service.status).toBe(201);
  serviceId = (service.body.service as { id: string }).id;
  const product = await call(
    'POST',
    `/v1/users/${seller.guid}/services/${serviceId}/products`,
    { name: 'E-book', price: 999 },
    seller.token,
  );
  productId = (product.body.product as { id: string }).id;
}, 120_000);

afterAll(async () => {
  await started?.close();
});

describe('accounts', () => {
  it.each([
    [SELLER_ACCOUNT, true, /can take charges/],
    [PENDING_ACCOUNT, false, /cannot take charges yet/],
    ['acct_1Unknown1234', false, /no such account/],
    ['not-an-account', false, /acct_/],
  ])('validate %s → %s', async (account, valid, reason) => {
    const answer = await call('POST', `/v1/users/${seller.guid}/validate`, { provider: 'stripe', account }, seller.token);
    expect(answer).toMatchObject({ status: 200, body: { valid, provider: 'stripe' } });
    expect(String(answer.body.reason)).toMatch(reason);
  });

  it('refuses a service on an account that cannot take charges', async () => {
    const answer = await call(
      'POST',
      `/v1/users/${seller.guid}/services`,
      { name: 'X', displayName: 'X', provider: 'stripe', vendor: 'digital', account: PENDING_ACCOUNT },
      seller.token,
    );
    expect(answer).toMatchObject({ status: 422, body: { error: 'ACCOUNT_INVALID' } });
  });
});

describe('Checkout and webhooks', () => {
  it("a payment request's order comes back from Checkout to the request (through the order's return page)", async () => {
    const payer = uniqueEmail('stripe-payer');
    const sent = await call(
      'POST',
      '/v1/requests',
      { email: payer, note: 'For the e-book', service: serviceId, product: productId },
      seller.token,
    );
    expect(sent.status).toBe(201);
    const requestId = (sent.body.request as { id: string }).id;
    const mail = await smtp.mailTo(payer, new RegExp(`/requests/${requestId}\\?key=`));
    const key = new RegExp(`/requests/${requestId}\\?key=([A-Za-z0-9_-]{43})`).exec(mail)?.[1];
    const accepted = await call('POST', `/v1/requests/${requestId}/accept?key=${key!}`, { email: payer });
    expect(accepted.status).toBe(200);
    const orderId = (accepted.body.order as { id: string }).id;
    const started = await call('POST', `/v1/orders/${orderId}/pay`);
    expect(started.status).toBe(200);
    expect(stripe.session(started.body.sessionId as string)).toMatchObject({
      success_url: `http://shop.test/orders/${orderId}/return?session_id={CHECKOUT_SESSION_ID}&request=${requestId}`,
      cancel_url: `http://shop.test/orders/${orderId}`,
    });
  });

  it('opens a Checkout Session on the connected account; the signed webhook marks the order paid once', async () => {
    const { orderId, sessionId, url } = await orderAndPay();
    expect(sessionId).toMatch(/^cs_test_/);
    expect(url).toBe(`${stripe.url}/c/pay/${sessionId}`);
    const session = stripe.session(sessionId);
    expect(session).toMatchObject({
      client_reference_id: orderId,
      amount_total: 999,
      currency: 'usd',
      success_url: `http://shop.test/orders/${orderId}/return?session_id={CHECKOUT_SESSION_ID}`,
    });
    expect(await stripe.pay(sessionId, '4242 4242 4242 4242')).toBe('paid');
    expect(
      await waitFor(
        () => orderState(orderId),
        (s) => s === 'paid',
      ),
    ).toBe('paid');
    const delivered = stripe.deliveries.filter(
      (d) => d.event.type === 'checkout.session.completed' && (d.event.data.object as { id: string }).id === sessionId,
    );
    expect(delivered.map((d) => d.status)).toEqual([200]);
    // The browser's return afterwards changes nothing; the same event again is not applied twice.
    const completed = await call('POST', `/v1/orders/${orderId}/complete/${sessionId}`);
    expect(completed).toMatchObject({ status: 200, body: { order: { state: 'paid' } } });
    const receipt = (completed.body.order as { receipt: { number: string } }).receipt.number;
    expect(await stripe.deliver(delivered[0]!.event)).toBe(200);
    const last = stripe.deliveries.at(-1)!;
    expect(JSON.parse(last.body)).toMatchObject({ success: true, applied: false });
    expect(((await call('GET', `/v1/orders/${orderId}`)).body.order as { receipt: { number: string } }).receipt.number).toBe(receipt);
    expect(stripe.charges(sessionId)).toBe(1);
  });

  it('completes from the browser return alone when no webhook arrives', async () => {
    stripe.setWebhookUrl(undefined);
    try {
      const { orderId, sessionId } = await orderAndPay();
      expect(await orderState(orderId)).toBe('pending');
      expect(await call('POST', `/v1/orders/${orderId}/complete/${sessionId}`)).toMatchObject({
        status: 200,
        body: { order: { state: 'pending' } },
      });
      await stripe.pay(sessionId, '4242424242424242');
      expect(await call('POST', `/v1/orders/${orderId}/complete/${sessionId}`)).toMatchObject({
        status: 200,
        body: { order: { state: 'paid' } },
      });
    } finally {
      stripe.setWebhookUrl(`${platform.url}/v1/webhooks/stripe`);
    }
  });

  it('a declined card leaves the order unpaid (Checkout lets the buyer try another card)', async () => {
    const { orderId, sessionId } = await orderAndPay();
    expect(await stripe.pay(sessionId, '4000 0000 0000 0002')).toBe('declined');
    expect(await orderState(orderId)).toBe('pending');
    expect(await stripe.pay(sessionId, '4000 0025 0000 3155', { authenticate: true })).toBe('paid');
    expect(
      await waitFor(
        () => orderState(orderId),
        (s) => s === 'paid',
      ),
    ).toBe('paid');
  });

  it('concurrent pays with one Idempotency-Key open one Checkout Session and make one charge', async () => {
    const placed = await call('POST', `/v1/users/${seller.guid}/services/${serviceId}/order`, {
      product: productId,
      email: 'race@example.com',
    });
    const orderId = (placed.body.order as { id: string }).id;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => platform.request('POST', `/v1/orders/${orderId}/pay`, { headers: { 'idempotency-key': 'one-key' } })),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThan(0);
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect(new Set(ok.map((a) => a.body.sessionId)).size).toBe(1);
    const sessionId = ok[0]!.body.sessionId as string;
    await Promise.all([stripe.pay(sessionId, '4242424242424242'), stripe.pay(sessionId, '4242424242424242').catch(() => 'refused')]);
    expect(stripe.charges(sessionId)).toBe(1);
  });

  it('refuses a forged or altered webhook, and an event of another account', async () => {
    const { orderId, sessionId } = await orderAndPay();
    const object = { ...stripe.session(sessionId), status: 'complete', payment_status: 'paid', payment_intent: 'pi_forged' };
    const post = (payload: string, signature: string) =>
      fetch(`${platform.url}/v1/webhooks/stripe`, {
        method: 'POST',
        body: payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      });
    const good = stripe.signedEvent('checkout.session.completed', object, SELLER_ACCOUNT);
    const forged = await post(good.payload, good.header.replace(/v1=[0-9a-f]{8}/, 'v1=00000000'));
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ success: false, error: 'SIGNATURE_INVALID' });
    const tampered = good.payload.replace(/"amount_total":\s*999/, '"amount_total": 1');
    expect(tampered).not.toBe(good.payload);
    const altered = await post(tampered, good.header);
    expect(altered.status).toBe(400);
    expect(await post(good.payload, 't=1,v1=' + '0'.repeat(64)).then((r) => r.status)).toBe(400);
    const otherAccount = stripe.signedEvent('checkout.session.completed', object, 'acct_1SomeoneElse12');
    const foreign = await post(otherAccount.payload, otherAccount.header);
    expect(foreign.status).toBe(200);
    expect(await foreign.json()).toMatchObject({ applied: false });
    expect(await orderState(orderId)).toBe('pending');
    // The genuine event, delivered twice, is applied once.
    expect(await (await post(good.payload, good.header)).json()).toMatchObject({ applied: true });
    expect(await (await post(good.payload, good.header)).json()).toMatchObject({ applied: false });
    expect(await orderState(orderId)).toBe('paid');
  });

  it('refunds through Stripe; its charge.refunded webhook then changes nothing', async () => {
    const { orderId, sessionId } = await orderAndPay();
    await stripe.pay(sessionId, '4242424242424242');
    await waitFor(
      () => orderState(orderId),
      (s) => s === 'paid',
    );
    expect(await call('POST', `/v1/orders/${orderId}/refund`, undefined, seller.token)).toMatchObject({
      status: 200,
      body: { order: { state: 'refunded' } },
    });
    const refunded = await waitFor(
      async () => stripe.deliveries.filter((d) => d.event.type === 'charge.refunded'),
      (list) => list.length > 0,
    );
    expect(refunded.at(-1)!.status).toBe(200);
    expect(await orderState(orderId)).toBe('refunded');
  });

  it('a charge refunded in Stripe’s dashboard reaches the order through the webhook', async () => {
    const { orderId, sessionId } = await orderAndPay();
    await stripe.pay(sessionId, '4242424242424242');
    await waitFor(
      () => orderState(orderId),
      (s) => s === 'paid',
    );
    const pi = stripe.session(sessionId)!.payment_intent as string;
    const event = stripe.signedEvent(
      'charge.refunded',
      { id: 'ch_x', object: 'charge', payment_intent: pi, amount: 999, amount_refunded: 999, refunded: true, currency: 'usd' },
      SELLER_ACCOUNT,
    );
    const res = await fetch(`${platform.url}/v1/webhooks/stripe`, {
      method: 'POST',
      body: event.payload,
      headers: { 'stripe-signature': event.header, 'content-type': 'application/json' },
    });
    expect(await res.json()).toMatchObject({ applied: true });
    expect(await orderState(orderId)).toBe('refunded');
  });
});

describe('cancel and pay at the same moment', () => {
  interface Seen {
    state: string;
    receipt: { amount: number } | null;
    latePayments: Array<{ amount: number; state: string }>;
  }

  /** The trial's outcome, on Stripe's own records. */
  const settled = (orderId: string, cancelStatus: number) =>
    expectSettled(platform, { orderId, sellerToken: seller.token, price: 999, cancelStatus, money: stripe.money(orderId) });

  async function trial(hold: boolean): Promise<{ orderId: string; paying: Promise<unknown>; cancel: Promise<{ status: number }> }> {
    const { orderId, sessionId } = await orderAndPay();
    const paying = stripe.pay(sessionId, '4242424242424242');
    const cancel = call('POST', `/v1/orders/${orderId}/cancel`);
    if (!hold) await paying;
    return { orderId, paying, cancel };
  }

  it('50 trials, half with the webhook arriving after the cancel: paid with a receipt, or cancelled with no net charge', async () => {
    const outcomes: string[] = [];
    for (const hold of [false, true]) {
      for (let batch = 0; batch < 5; batch++) {
        if (hold) stripe.holdWebhooks();
        const trials = await Promise.all(Array.from({ length: 5 }, () => trial(hold)));
        const cancels = await Promise.all(trials.map((t) => t.cancel));
        if (hold) await stripe.releaseWebhooks();
        await Promise.all(trials.map((t) => t.paying));
        for (const [i, t] of trials.entries()) outcomes.push(await settled(t.orderId, cancels[i]!.status));
      }
    }
    expect(outcomes).toHaveLength(50);
  }, 300_000);

  it('a Checkout Session paid before the cancel is refunded automatically; its late webhook changes nothing; both sides are told', async () => {
    const buyerEmail = uniqueEmail('stripe-buyer');
    const buyer = await call('POST', '/v1/users', { email: buyerEmail, password: 'stripe buyer pw' });
    const buyerToken = buyer.body.token as string;
    const placed = await call(
      'POST',
      `/v1/users/${seller.guid}/services/${serviceId}/order`,
      { product: productId, email: buyerEmail, share: false },
      buyerToken,
    );
    const orderId = (placed.body.order as { id: string }).id;
    const started = await platform.request('POST', `/v1/orders/${orderId}/pay`, { token: buyerToken });
    const sessionId = started.body.sessionId as string;
    stripe.holdWebhooks();
    const paying = stripe.pay(sessionId, '4242424242424242');
    expect(await call('POST', `/v1/orders/${orderId}/cancel`, undefined, buyerToken)).toMatchObject({
      status: 200,
      body: { order: { state: 'cancelled', latePayments: [{ amount: 999, state: 'refunded' }] } },
    });
    expect(stripe.money(orderId)).toEqual({ charged: 999, refunded: 999 });
    const statuses = await stripe.releaseWebhooks();
    expect(statuses.every((s) => s === 200)).toBe(true);
    await paying;
    expect(stripe.money(orderId)).toEqual({ charged: 999, refunded: 999 });
    const order = (await call('GET', `/v1/orders/${orderId}`, undefined, buyerToken)).body.order as Seen;
    expect(order).toMatchObject({ state: 'cancelled', receipt: null, latePayments: [{ amount: 999, state: 'refunded' }] });
    // Both sides' entries are written by the timeline listener after the commits: read until both are in.
    const kinds = (token: string) =>
      eventually(
        async () =>
          (
            (await call('GET', '/v1/timeline', undefined, token)).body.events as Array<{ kind: string; orderId: string; title: string }>
          ).filter((e) => e.orderId === orderId),
        (events) => ['order.cancelled', 'order.late_refund'].every((k) => events.some((e) => e.kind === k)),
      );
    expect((await kinds(buyerToken)).map((e) => e.kind)).toEqual(expect.arrayContaining(['order.cancelled', 'order.late_refund']));
    const sellerEvents = await kinds(seller.token);
    expect(sellerEvents.map((e) => e.kind)).toEqual(expect.arrayContaining(['order.cancelled', 'order.late_refund']));
    expect(JSON.stringify(sellerEvents)).not.toContain(buyerEmail);
    expect(await smtp.mailTo(buyerEmail, /refunded in full automatically/)).toContain('$9.99');
    const sellerMail = await smtp.mailTo(seller.email, /refunded in full automatically/);
    expect(sellerMail).not.toContain(buyerEmail);
  });

  it('the seller refunds a paid order, but not a cancelled one', async () => {
    const { orderId, sessionId } = await orderAndPay();
    expect((await call('POST', `/v1/orders/${orderId}/cancel`)).status).toBe(200);
    expect(stripe.session(sessionId)?.status).toBe('expired');
    expect(await stripe.pay(sessionId, '4242424242424242')).toBe('invalid');
    expect(await call('POST', `/v1/orders/${orderId}/refund`, undefined, seller.token)).toMatchObject({ status: 409 });
    expect(stripe.money(orderId)).toEqual({ charged: 0, refunded: 0 });
  });
});
