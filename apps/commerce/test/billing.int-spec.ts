import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestPlatform, uniqueEmail } from '@tinkerdesk/testing';
import { eventually } from './eventually.js';

/**
 * Saved cards and plans through the real gateway, identity and commerce: the sandbox's card page
 * saves a card, which is kept, listed, made default and deleted (not while a live plan needs it,
 * unless another card takes the plan over); plans are started with every bad input refused, read
 * by payer and seller only, and cancelled with 204. The charging itself: plan-scheduler.int-spec.ts.
 */
let platform: TestPlatform;

interface Account {
  token: string;
  guid: string;
}

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

async function account(tag: string): Promise<Account> {
  const created = await call('POST', '/v1/users', { email: uniqueEmail(tag), password: 'billing password 1' });
  return { token: created.body.token as string, guid: (created.body.profile as { guid: string }).guid };
}

/** Saves a card through the sandbox's page, as a browser would, and keeps it. */
async function saveCard(who: Account, number = '4242 4242 4242 4242'): Promise<{ id: string; last4: string; default: boolean }> {
  const setup = await call('POST', '/v1/paymentmethods', {}, who.token);
  expect(setup).toMatchObject({ status: 201, body: { setup: { provider: 'sandbox' } } });
  const { id, url } = setup.body.setup as { id: string; url: string };
  expect(url).toBe(`http://shop.test/pay/sandbox/${id}`);
  const page = await call('GET', `/v1/sandbox/sessions/${id}`);
  expect(page.body.session).toMatchObject({ mode: 'setup', orderId: null, successUrl: `http://shop.test/billing?setup=${id}` });
  const paid = await call('POST', `/v1/sandbox/sessions/${id}/pay`, { number, expiry: '12 / 34', cvc: '123' });
  expect(paid.status).toBe(200);
  if ((paid.body.session as { status: string }).status === 'requires_action') {
    expect((await call('POST', `/v1/sandbox/sessions/${id}/authenticate`, { approve: true })).status).toBe(200);
  }
  const kept = await call('POST', `/v1/paymentmethods/setup/${id}/complete`, undefined, who.token);
  expect(kept.status).toBe(200);
  // The page coming back again keeps the same card.
  const again = await call('POST', `/v1/paymentmethods/setup/${id}/complete`, undefined, who.token);
  expect(again.body.instrument).toEqual(kept.body.instrument);
  return kept.body.instrument as { id: string; last4: string; default: boolean };
}

let seller: Account;
let serviceId: string;
let productId: string;
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

function planBody(paymentMethod: string, fields: Record<string, unknown> = {}) {
  return {
    service: serviceId,
    product: productId,
    interval: 'month',
    reminderDay: -1,
    start: inMinutes(60),
    timeZone: 'America/New_York',
    paymentMethod,
    ...fields,
  };
}

beforeAll(async () => {
  platform = await TestPlatform.start(['identity', 'commerce', 'gateway'], { RATE_LIMIT_FACTOR: '1000', PUBLIC_URL: 'http://shop.test' });
  seller = await account('plan-seller');
  const service = await call(
    'POST',
    `/v1/users/${seller.guid}/services`,
    { name: 'Lessons', displayName: 'Lesson Studio', provider: 'sandbox', vendor: 'digital', account: 'sandbox_lessons' },
    seller.token,
  );
  serviceId = (service.body.service as { id: string }).id;
  const product = await call(
    'POST',
    `/v1/users/${seller.guid}/services/${serviceId}/products`,
    { name: 'Lesson', price: 2500 },
    seller.token,
  );
  productId = (product.body.product as { id: string }).id;
}, 120_000);

afterAll(async () => {
  await platform?.close();
});

describe('payment methods', () => {
  it('an empty list at first; the first card saved is the default; the page coming back twice keeps one card', async () => {
    const payer = await account('cards');
    expect(await call('GET', '/v1/paymentinstruments', undefined, payer.token)).toMatchObject({
      status: 200,
      body: { instruments: [], providers: ['sandbox'] },
    });
    const first = await saveCard(payer);
    expect(first).toMatchObject({ last4: '4242', default: true });
    const second = await saveCard(payer, '4000 0025 0000 3155');
    expect(second).toMatchObject({ last4: '3155', default: false });
    const list = await call('GET', '/v1/paymentinstruments', undefined, payer.token);
    expect(list.body.instruments).toEqual([
      expect.objectContaining({ id: first.id, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, default: true, plans: 0 }),
      expect.objectContaining({ id: second.id, last4: '3155', default: false }),
    ]);
    // Made default (204), the other is no longer.
    const made = await call('POST', `/v1/paymentmethods/${second.id}/default`, undefined, payer.token);
    expect(made.status).toBe(204);
    expect(made.body).toEqual({});
    const after = (await call('GET', '/v1/paymentinstruments', undefined, payer.token)).body.instruments as Array<{
      id: string;
      default: boolean;
    }>;
    expect(after.map((i) => [i.id, i.default])).toEqual([
      [first.id, false],
      [second.id, true],
    ]);
    // Deleting the default makes the other one the default.
    expect((await call('DELETE', `/v1/paymentmethods/${second.id}`, undefined, payer.token)).status).toBe(204);
    const left = (await call('GET', '/v1/paymentinstruments', undefined, payer.token)).body.instruments as Array<{
      id: string;
      default: boolean;
    }>;
    expect(left).toEqual([expect.objectContaining({ id: first.id, default: true })]);
  });

  it('a declined card is not saved; completing before the card, or another user’s setup, is refused', async () => {
    const payer = await account('declined');
    const setup = await call('POST', '/v1/paymentmethods', { provider: 'sandbox' }, payer.token);
    const id = (setup.body.setup as { id: string }).id;
    expect(await call('POST', `/v1/paymentmethods/setup/${id}/complete`, undefined, payer.token)).toMatchObject({
      status: 409,
      body: { error: 'CONFLICT', detail: 'the card is not saved yet: finish the card page first' },
    });
    const declined = await call('POST', `/v1/sandbox/sessions/${id}/pay`, { number: '4000 0000 0000 0002', expiry: '12 / 34', cvc: '123' });
    expect(declined.body.session).toMatchObject({ status: 'open', error: 'Your card was declined.' });
    await call('POST', `/v1/sandbox/sessions/${id}/pay`, { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' });
    const stranger = await account('stranger');
    expect(await call('POST', `/v1/paymentmethods/setup/${id}/complete`, undefined, stranger.token)).toMatchObject({
      status: 404,
      body: { error: 'NOT_FOUND' },
    });
    expect(await call('POST', `/v1/paymentmethods/setup/sbs_${'x'.repeat(24)}/complete`, undefined, payer.token)).toMatchObject({
      status: 404,
    });
    expect(await call('POST', '/v1/paymentmethods/setup/nope/complete', undefined, payer.token)).toMatchObject({ status: 400 });
    expect(await call('POST', '/v1/paymentmethods', { provider: 'paypal' }, payer.token)).toMatchObject({ status: 400 });
    expect(await call('POST', '/v1/paymentmethods', {})).toMatchObject({ status: 401 });
  });

  it('another user’s card cannot be read, made default or deleted: 404 as for a missing one', async () => {
    const owner = await account('owner');
    const card = await saveCard(owner);
    const other = await account('other');
    expect(await call('POST', `/v1/paymentmethods/${card.id}/default`, undefined, other.token)).toMatchObject({ status: 404 });
    expect(await call('DELETE', `/v1/paymentmethods/${card.id}`, undefined, other.token)).toMatchObject({ status: 404 });
    expect(await call('DELETE', '/v1/paymentmethods/not-a-uuid', undefined, other.token)).toMatchObject({ status: 400 });
    expect((await call('GET', '/v1/paymentinstruments', undefined, other.token)).body.instruments).toEqual([]);
    expect((await call('GET', '/v1/paymentinstruments', undefined, owner.token)).body.instruments).toHaveLength(1);
  });
});

describe('plans', () => {
  it('starts a plan; payer and seller see it; the card counts it; cancelling answers 204 and stops it', async () => {
    const payer = await account('plan-payer');
    const card = await saveCard(payer);
    const start = inMinutes(90);
    const created = await call('POST', '/v1/plans', planBody(card.id, { start, reminderDay: 15 }), payer.token);
    expect(created).toMatchObject({
      status: 201,
      body: {
        plan: {
          state: 'active',
          role: 'payer',
          interval: 'month',
          reminderDay: 15,
          timeZone: 'America/New_York',
          product: { id: productId, name: 'Lesson', price: 2500 },
          service: { id: serviceId, name: 'Lessons', provider: 'sandbox' },
          paymentMethod: { id: card.id, last4: '4242' },
          nextCharge: start,
          paidPeriods: 0,
          charges: [],
          cancelled: null,
        },
      },
    });
    const plan = created.body.plan as { id: string };
    expect((await call('GET', `/v1/plans/${plan.id}`, undefined, seller.token)).body.plan).toMatchObject({
      role: 'seller',
      paymentMethod: null,
    });
    expect((await call('GET', '/v1/plans', undefined, payer.token)).body.plans).toEqual([expect.objectContaining({ id: plan.id })]);
    expect(
      ((await call('GET', '/v1/paymentinstruments', undefined, payer.token)).body.instruments as Array<{ plans: number }>)[0]?.plans,
    ).toBe(1);
    // Its card cannot go without another taking the plan over.
    expect(await call('DELETE', `/v1/paymentmethods/${card.id}`, undefined, payer.token)).toMatchObject({
      status: 409,
      body: { error: 'CONFLICT', detail: 'this card pays for a plan: choose another card for it first (replacement)' },
    });
    const other = await saveCard(payer, '4000 0000 0000 0341');
    expect((await call('DELETE', `/v1/paymentmethods/${card.id}?replacement=${other.id}`, undefined, payer.token)).status).toBe(204);
    expect((await call('GET', `/v1/plans/${plan.id}`, undefined, payer.token)).body.plan).toMatchObject({
      paymentMethod: { id: other.id, last4: '0341' },
    });
    const cancelled = await call('DELETE', `/v1/plans/${plan.id}`, undefined, payer.token);
    expect(cancelled.status).toBe(204);
    expect((await call('GET', `/v1/plans/${plan.id}`, undefined, payer.token)).body.plan).toMatchObject({
      state: 'cancelled',
      nextCharge: null,
    });
    expect((await call('DELETE', `/v1/plans/${plan.id}`, undefined, payer.token)).status).toBe(204);
    // A cancelled plan no longer holds its card.
    expect((await call('DELETE', `/v1/paymentmethods/${other.id}`, undefined, payer.token)).status).toBe(204);
    // Timeline entries are written by the outbox listener after each commit: read until the last one is in.
    const timeline = await eventually(
      () => call('GET', '/v1/timeline?limit=10', undefined, payer.token),
      (t) => (t.body.events as Array<{ kind: string }>).length >= 6,
    );
    expect((timeline.body.events as Array<{ kind: string }>).map((e) => e.kind)).toEqual([
      'method.removed',
      'plan.cancelled',
      'method.removed',
      'method.added',
      'plan.created',
      'method.added',
    ]);
    // Starting a plan charges nothing (its first charge is ahead): no amount on that entry, for either side.
    const started = (timeline.body.events as Array<{ kind: string; amount: number | null }>).find((e) => e.kind === 'plan.created');
    expect(started?.amount).toBeNull();
    const sellerKinds = (
      (
        await eventually(
          () => call('GET', '/v1/timeline?limit=50', undefined, seller.token),
          (t) => (t.body.events as Array<{ planId: string }>).filter((e) => e.planId === plan.id).length >= 2,
        )
      ).body.events as Array<{ kind: string; planId: string }>
    )
      .filter((e) => e.planId === plan.id)
      .map((e) => e.kind);
    expect(sellerKinds).toEqual(['plan.cancelled', 'plan.subscribed']);
    const subscribed = (
      (await call('GET', '/v1/timeline?limit=50', undefined, seller.token)).body.events as Array<{
        kind: string;
        planId: string;
        amount: number | null;
      }>
    ).find((e) => e.planId === plan.id && e.kind === 'plan.subscribed');
    expect(subscribed?.amount).toBeNull();
  });

  it('refuses every bad plan with the right status and detail', async () => {
    const payer = await account('bad-plans');
    const card = await saveCard(payer);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ start: inMinutes(2) }, 400, 'start must be at least 5 minutes from now'],
      [{ start: inMinutes(-60) }, 400, 'start must be at least 5 minutes from now'],
      [{ start: '2026-13-01T00:00:00Z' }, 400, 'start must be a date and time (ISO 8601)'],
      [{ start: '2030-01-01T09:00:00' }, 400, 'start must say its offset from UTC (Z or ±hh:mm)'],
      [{ reminderDay: 29 }, 400, 'reminderDay must be a reminder day index: 1 … 28, or -1 for the last day'],
      [{ reminderDay: 0 }, 400, 'reminderDay must be a reminder day index: 1 … 28, or -1 for the last day'],
      [{ interval: 'week' }, 400, 'interval must be one of month, quarter, year'],
      [{ timeZone: 'Mars/Olympus' }, 400, 'timeZone must be an IANA time zone (for example America/New_York)'],
      [{ paymentMethod: 'nope' }, 400, 'paymentMethod must be a payment method id (UUID)'],
    ];
    for (const [fields, status, detail] of cases) {
      const answer = await call('POST', '/v1/plans', planBody(card.id, fields), payer.token);
      expect({ fields, status: answer.status, detail: answer.body.detail }).toEqual({
        fields,
        status,
        detail: expect.stringContaining(detail),
      });
    }
    expect(await call('POST', '/v1/plans', planBody(card.id))).toMatchObject({ status: 401 });
    // Someone else's card, and a plan on a product of another seller's service.
    const stranger = await account('bad-plans-stranger');
    const strangerCard = await saveCard(stranger);
    expect(await call('POST', '/v1/plans', planBody(strangerCard.id), payer.token)).toMatchObject({
      status: 404,
      body: { detail: 'no such payment method' },
    });
    const s = await call(
      'POST',
      `/v1/users/${stranger.guid}/services`,
      { name: 'Other', displayName: 'Other', provider: 'sandbox', vendor: 'digital', account: 'sandbox_other' },
      stranger.token,
    );
    const sid = (s.body.service as { id: string }).id;
    const p = await call('POST', `/v1/users/${stranger.guid}/services/${sid}/products`, { name: 'Other', price: 100 }, stranger.token);
    const pid = (p.body.product as { id: string }).id;
    expect(await call('POST', '/v1/plans', planBody(card.id, { product: pid }), payer.token)).toMatchObject({
      status: 404,
      body: { detail: 'no such product' },
    });
    // Paying oneself.
    const own = await saveCard(seller);
    expect(await call('POST', '/v1/plans', planBody(own.id), seller.token)).toMatchObject({ status: 422 });
    // Nothing was written.
    expect((await call('GET', '/v1/plans', undefined, payer.token)).body.plans).toEqual([]);
  });

  it('a stranger cannot read or cancel a plan: 404 as for a missing one', async () => {
    const payer = await account('plan-owner');
    const card = await saveCard(payer);
    const plan = (await call('POST', '/v1/plans', planBody(card.id), payer.token)).body.plan as { id: string };
    const stranger = await account('plan-stranger');
    expect(await call('GET', `/v1/plans/${plan.id}`, undefined, stranger.token)).toMatchObject({
      status: 404,
      body: { error: 'NOT_FOUND' },
    });
    expect(await call('DELETE', `/v1/plans/${plan.id}`, undefined, stranger.token)).toMatchObject({ status: 404 });
    expect((await call('GET', `/v1/plans/${plan.id}`, undefined, payer.token)).body.plan).toMatchObject({ state: 'active' });
    expect(await call('GET', '/v1/timeline?offset=500&limit=10', undefined, payer.token)).toMatchObject({
      status: 200,
      body: { events: [], offset: 500 },
    });
  });
});

describe('receipts', () => {
  it('GET /v1/orders?receipts=true lists only the orders that were paid', async () => {
    const buyer = await account('receipts');
    const order = async () => {
      const placed = await call(
        'POST',
        `/v1/users/${seller.guid}/services/${serviceId}/order`,
        { product: productId, email: 'receipts@example.com' },
        buyer.token,
      );
      expect(placed.status).toBe(201);
      return (placed.body.order as { id: string }).id;
    };
    const paidId = await order();
    const pendingId = await order();
    const pay = await call('POST', `/v1/orders/${paidId}/pay`, undefined, buyer.token);
    const sessionId = pay.body.sessionId as string;
    await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' });
    const receipts = await call('GET', '/v1/orders?receipts=true', undefined, buyer.token);
    expect(receipts).toMatchObject({ status: 200, body: { total: 1 } });
    expect(receipts.body.orders).toEqual([
      expect.objectContaining({
        id: paidId,
        state: 'paid',
        receipt: expect.objectContaining({ number: expect.stringMatching(/^R-\d{4}-\d{6}$/) }),
      }),
    ]);
    const all = await call('GET', '/v1/orders', undefined, buyer.token);
    expect((all.body.orders as Array<{ id: string }>).map((o) => o.id).sort()).toEqual([paidId, pendingId].sort());
    expect(await call('GET', '/v1/orders?receipts=true&state=pending', undefined, buyer.token)).toMatchObject({
      body: { orders: [], total: 0 },
    });
    expect(await call('GET', '/v1/orders?receipts=maybe', undefined, buyer.token)).toMatchObject({
      status: 400,
      body: { detail: expect.stringContaining('receipts must be true or false') },
    });
  });
});
