import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openShop, startLoopbackSmtp, TestPlatform, uniqueEmail, type LoopbackSmtp } from '@tinkerdesk/testing';
import { expectSettled } from './settled.js';

/**
 * Cancel and payment at the same moment, through the real gateway, identity and commerce with the
 * built-in sandbox processor: the buyer's card payment (POST /v1/sandbox/sessions/{s}/pay) fired
 * together with POST /v1/orders/{id}/cancel, and with the seller's POST /v1/requests/{id}/cancel of an
 * accepted payment request. Many trials; each must end either paid with a receipt (the cancel
 * refused) or cancelled with no net charge on the sandbox's own records (charges minus refunds = 0).
 */
let platform: TestPlatform;
let smtp: LoopbackSmtp;
let seller: { token: string; guid: string; email: string };
let serviceId: string;
let productId: string;

const PRICE = 1250;
const TRIALS = 50;
/** Trials running at once (each one fires its pay and its cancel together). */
const AT_ONCE = 10;
const CARD = { number: '4242424242424242', expiry: '12 / 34', cvc: '123' };

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

/** What the sandbox processor itself charged and refunded for an order (its sessions), in cents. */
async function sandboxMoney(orderId: string): Promise<{ charged: number; refunded: number }> {
  const rows = await platform.query<{ charged: number; refunded: number }>(
    `SELECT coalesce(sum("amount") FILTER (WHERE "payment_intent" IS NOT NULL), 0)::int AS charged,
            coalesce(sum("amount") FILTER (WHERE "refunded"), 0)::int AS refunded
       FROM "commerce"."sandbox_session" WHERE "order_id" = $1`,
    [orderId],
  );
  return rows[0] ?? { charged: 0, refunded: 0 };
}

async function inBatches<T>(count: number, size: number, trial: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += size) {
    results.push(...(await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, k) => trial(start + k)))));
  }
  return results;
}

/** The trial's outcome, on the sandbox's own records. */
async function settled(orderId: string, cancelStatus: number): Promise<'paid' | 'cancelled'> {
  return expectSettled(platform, { orderId, sellerToken: seller.token, price: PRICE, cancelStatus, money: await sandboxMoney(orderId) });
}

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  platform = await TestPlatform.start(['identity', 'commerce', 'gateway'], {
    RATE_LIMIT_FACTOR: '1000',
    PUBLIC_URL: 'http://shop.test',
    SMTP_URL: smtp.url,
    MAIL_RETRY_DELAY_MS: '100',
  });
  ({ seller, serviceId, productId } = await openShop(platform, {
    tag: 'race-seller',
    service: { name: 'Race shop', displayName: 'Race shop', provider: 'sandbox', vendor: 'digital', account: 'sandbox_race' },
    product: { name: 'Print', price: PRICE },
  }));
}, 120_000);

afterAll(async () => {
  await platform?.close();
  await smtp?.close();
});

describe('cancel and pay at the same moment (sandbox)', () => {
  it(`${TRIALS} trials: each ends paid with a receipt (cancel refused) or cancelled with no net charge`, async () => {
    const outcomes = await inBatches(TRIALS, AT_ONCE, async () => {
      const placed = await call('POST', `/v1/users/${seller.guid}/services/${serviceId}/order`, {
        product: productId,
        email: 'racer@example.com',
        share: false,
      });
      const orderId = (placed.body.order as { id: string }).id;
      const started = await call('POST', `/v1/orders/${orderId}/pay`);
      expect(started.status).toBe(200);
      const [, cancel] = await Promise.all([
        call('POST', `/v1/sandbox/sessions/${started.body.sessionId as string}/pay`, CARD),
        call('POST', `/v1/orders/${orderId}/cancel`),
      ]);
      if (cancel.status === 409) expect(String(cancel.body.detail)).toMatch(/it is paid already/);
      return settled(orderId, cancel.status);
    });
    expect(outcomes).toHaveLength(TRIALS);
  }, 300_000);

  it('a cancelled order refuses a new pay page, and its old one takes no card', async () => {
    const placed = await call('POST', `/v1/users/${seller.guid}/services/${serviceId}/order`, {
      product: productId,
      email: 'x@example.com',
    });
    const orderId = (placed.body.order as { id: string }).id;
    const started = await call('POST', `/v1/orders/${orderId}/pay`);
    expect((await call('POST', `/v1/orders/${orderId}/cancel`)).status).toBe(200);
    expect(await call('POST', `/v1/orders/${orderId}/pay`)).toMatchObject({ status: 409, body: { error: 'CONFLICT' } });
    expect((await call('POST', `/v1/sandbox/sessions/${started.body.sessionId as string}/pay`, CARD)).status).toBe(409);
    expect(await sandboxMoney(orderId)).toEqual({ charged: 0, refunded: 0 });
  });
});

describe('withdrawing an accepted payment request while it is paid (sandbox)', () => {
  it(`${TRIALS} trials: each ends paid (the withdrawal refused: refund instead) or withdrawn with no net charge`, async () => {
    const outcomes = await inBatches(TRIALS, AT_ONCE, async (i) => {
      const payer = uniqueEmail(`race-payer-${i}`);
      const sent = await call('POST', '/v1/requests', { email: payer, service: serviceId, product: productId }, seller.token);
      expect(sent.status).toBe(201);
      const requestId = (sent.body.request as { id: string }).id;
      const mail = await smtp.mailTo(payer, new RegExp(`/requests/${requestId}\\?key=`));
      const key = new RegExp(`/requests/${requestId}\\?key=([A-Za-z0-9_-]{43})`).exec(mail)?.[1] ?? '';
      const accepted = await call('POST', `/v1/requests/${requestId}/accept?key=${key}`, { email: payer, share: false });
      expect(accepted.status).toBe(200);
      const orderId = (accepted.body.order as { id: string }).id;
      const started = await call('POST', `/v1/orders/${orderId}/pay`);
      expect(started.status).toBe(200);
      const [, withdrawn] = await Promise.all([
        call('POST', `/v1/sandbox/sessions/${started.body.sessionId as string}/pay`, CARD),
        call('POST', `/v1/requests/${requestId}/cancel`, undefined, seller.token),
      ]);
      const outcome = await settled(orderId, withdrawn.status);
      const request = (await call('GET', `/v1/requests/${requestId}`, undefined, seller.token)).body.request as { state: string };
      if (outcome === 'paid') {
        expect(withdrawn.body).toMatchObject({ success: false, error: 'CONFLICT' });
        expect(String(withdrawn.body.detail)).toMatch(/refund the order instead/);
        expect(request.state).toBe('paid');
      } else {
        expect(request.state).toBe('cancelled');
        expect(await call('POST', `/v1/orders/${orderId}/pay`)).toMatchObject({ status: 409 });
      }
      return outcome;
    });
    expect(outcomes).toHaveLength(TRIALS);
  }, 300_000);
});
