import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLoopbackSmtp, TestPlatform, uniqueEmail, type LoopbackSmtp } from '@tinkerdesk/testing';
import { eventually } from './eventually.js';

/**
 * Payment requests and the timeline through the real gateway, identity and commerce: a seller asks a
 * person by email to pay; the payer (the emailed key, or signed in with that verified address) accepts
 * and pays, or declines; strangers are answered as for a missing request; everything lands on both
 * timelines, newest first.
 */
let platform: TestPlatform;
let smtp: LoopbackSmtp;

interface Account {
  token: string;
  guid: string;
  email: string;
}

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

async function account(tag: string, verified = false): Promise<Account> {
  const email = uniqueEmail(tag);
  const created = await call('POST', '/v1/users', { email, password: 'requests password 1' });
  const result = { token: created.body.token as string, guid: (created.body.profile as { guid: string }).guid, email };
  if (verified) {
    const mail = await smtp.mailTo(email, /\/v1\/account\/verify\?token=/);
    const link = /http:\/\/shop\.test(\/v1\/account\/verify\?token=[A-Za-z0-9_-]{43})/.exec(mail)?.[1];
    expect((await call('GET', link!)).location).toBe('/account?verified=1');
  }
  return result;
}

let seller: Account;
let serviceId: string;
let productId: string;
const CARD = { expiry: '12 / 34', cvc: '123' };

/** Sends a request and answers its id and the key of the emailed link. */
async function send(email: string, fields: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  const sent = await call(
    'POST',
    '/v1/requests',
    { email, note: 'For the poster', service: serviceId, product: productId, ...fields },
    seller.token,
  );
  expect(sent.status).toBe(201);
  const id = (sent.body.request as { id: string }).id;
  const mail = await smtp.mailTo(email, new RegExp(`/requests/${id}\\?key=`));
  const key = new RegExp(`/requests/${id}\\?key=([A-Za-z0-9_-]{43})`).exec(mail)?.[1];
  return { id, key: key! };
}

/** A request sent, accepted by its payer and its pay page opened: the ids and the key. */
async function acceptedAndOpened(tag: string): Promise<{ id: string; key: string; orderId: string; sessionId: string }> {
  const payer = uniqueEmail(tag);
  const { id, key } = await send(payer);
  const accepted = await call('POST', `/v1/requests/${id}/accept?key=${key}`, { email: payer });
  const orderId = (accepted.body.order as { id: string }).id;
  const opened = await call('POST', `/v1/orders/${orderId}/pay`);
  expect(opened.status).toBe(200);
  return { id, key, orderId, sessionId: opened.body.sessionId as string };
}

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  platform = await TestPlatform.start(['identity', 'commerce', 'gateway'], {
    RATE_LIMIT_FACTOR: '1000',
    PUBLIC_URL: 'http://shop.test',
    SMTP_URL: smtp.url,
    MAIL_RETRY_DELAY_MS: '100',
  });
  seller = await account('req-seller');
  const service = await call(
    'POST',
    `/v1/users/${seller.guid}/services`,
    { name: 'Posters', displayName: 'Poster Studio', provider: 'sandbox', vendor: 'digital', account: 'sandbox_posters' },
    seller.token,
  );
  serviceId = (service.body.service as { id: string }).id;
  const product = await call(
    'POST',
    `/v1/users/${seller.guid}/services/${serviceId}/products`,
    { name: 'Poster', price: 1500 },
    seller.token,
  );
  productId = (product.body.product as { id: string }).id;
}, 120_000);

afterAll(async () => {
  await platform?.close();
  await smtp?.close();
});

describe('sending', () => {
  it('emails the payer a link with its own key; the seller and the key holder see it', async () => {
    const payer = uniqueEmail('payer');
    const { id, key } = await send(payer);
    const mail = await smtp.mailTo(payer, new RegExp(id));
    expect(mail).toContain('$15.00 for Poster');
    expect(mail).toContain('For the poster');
    expect(await call('GET', `/v1/requests/${id}`, undefined, seller.token)).toMatchObject({
      status: 200,
      body: { request: { state: 'open', role: 'seller', email: payer } },
    });
    expect(await call('GET', `/v1/requests/${id}?key=${key}`)).toMatchObject({
      status: 200,
      body: { request: { state: 'open', role: 'payer', product: { name: 'Poster', price: 1500 }, serviceName: 'Posters' } },
    });
  });

  it.each([
    ['another seller’s service', 'service'],
    ['a product of another service', 'product'],
  ])('refuses %s as missing', async (_what, field) => {
    const other = await account('req-other');
    const s = await call(
      'POST',
      `/v1/users/${other.guid}/services`,
      { name: 'X', displayName: 'X', provider: 'sandbox', vendor: 'digital', account: 'sandbox_x' },
      other.token,
    );
    const sid = (s.body.service as { id: string }).id;
    const p = await call('POST', `/v1/users/${other.guid}/services/${sid}/products`, { name: 'X', price: 100 }, other.token);
    const pid = (p.body.product as { id: string }).id;
    const body = { email: 'a@example.com', service: field === 'service' ? sid : serviceId, product: field === 'service' ? productId : pid };
    expect(await call('POST', '/v1/requests', body, seller.token)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } });
  });

  it('refuses a bad email, no token, and an inactive product', async () => {
    expect(await call('POST', '/v1/requests', { email: 'nope', service: serviceId, product: productId }, seller.token)).toMatchObject({
      status: 400,
    });
    expect(await call('POST', '/v1/requests', { email: 'a@example.com', service: serviceId, product: productId })).toMatchObject({
      status: 401,
    });
    const off = await call(
      'POST',
      `/v1/users/${seller.guid}/services/${serviceId}/products`,
      { name: 'Off', price: 100, active: false },
      seller.token,
    );
    const offId = (off.body.product as { id: string }).id;
    expect(await call('POST', '/v1/requests', { email: 'a@example.com', service: serviceId, product: offId }, seller.token)).toMatchObject({
      status: 409,
    });
  });
});

describe('who may read or answer', () => {
  it('a stranger, a wrong key and no key are answered as for a missing request', async () => {
    const { id } = await send(uniqueEmail('victim'));
    const stranger = await account('stranger', true);
    const wrong = 'A'.repeat(43);
    expect(await call('GET', `/v1/requests/${id}`, undefined, stranger.token)).toMatchObject({ status: 404 });
    expect(await call('GET', `/v1/requests/${id}`)).toMatchObject({ status: 404 });
    expect(await call('GET', `/v1/requests/${id}?key=${wrong}`)).toMatchObject({ status: 404 });
    expect(await call('POST', `/v1/requests/${id}/accept?key=${wrong}`, { email: 'x@example.com' })).toMatchObject({ status: 404 });
    expect(await call('POST', `/v1/requests/${id}/decline`, undefined, stranger.token)).toMatchObject({ status: 404 });
    expect(await call('GET', `/v1/requests/${id}?key=short`)).toMatchObject({ status: 400 });
    expect(await call('GET', '/v1/requests/not-a-uuid')).toMatchObject({ status: 400 });
  });

  it('the addressed payer, signed in with that verified address, needs no key', async () => {
    const payer = await account('payer-acct', true);
    const { id } = await send(payer.email);
    expect(await call('GET', `/v1/requests/${id}`, undefined, payer.token)).toMatchObject({
      status: 200,
      body: { request: { role: 'payer' } },
    });
    const received = await call('GET', '/v1/requests?box=received', undefined, payer.token);
    expect((received.body.requests as Array<{ id: string }>).map((r) => r.id)).toContain(id);
  });
});

describe('answering', () => {
  it('declining tells the seller; accepting a declined request is 409', async () => {
    const payer = uniqueEmail('decliner');
    const { id, key } = await send(payer);
    expect(await call('POST', `/v1/requests/${id}/decline?key=${key}`)).toMatchObject({
      status: 200,
      body: { request: { state: 'declined' } },
    });
    expect(await smtp.mailTo(seller.email, new RegExp(`${payer} declined`))).toContain('Subject: Your payment request was declined');
    expect(await call('POST', `/v1/requests/${id}/accept?key=${key}`, { email: payer })).toMatchObject({
      status: 409,
      body: { error: 'CONFLICT' },
    });
    expect(await call('POST', `/v1/requests/${id}/decline?key=${key}`)).toMatchObject({ status: 409 });
  });

  it('accepting places the order at the asked price and paying it marks the request paid', async () => {
    const payer = uniqueEmail('accepter');
    const { id, key } = await send(payer);
    await call('POST', `/v1/users/${seller.guid}/services/${serviceId}/products/${productId}`, { price: 9900 }, seller.token);
    try {
      const accepted = await call('POST', `/v1/requests/${id}/accept?key=${key}`, { email: payer, share: true });
      expect(accepted).toMatchObject({ status: 200, body: { request: { state: 'accepted' }, order: { state: 'pending', amount: 1500 } } });
      const orderId = (accepted.body.order as { id: string }).id;
      expect(await call('POST', `/v1/requests/${id}/accept?key=${key}`, { email: payer })).toMatchObject({ status: 409 });
      const pay = await platform.request('POST', `/v1/orders/${orderId}/pay`, {});
      const sessionId = pay.body.sessionId as string;
      const paid = await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4242424242424242', ...CARD });
      // The sandbox page sends the payer back through the order's return page on to the request.
      expect(paid.body.session).toMatchObject({
        status: 'complete',
        successUrl: `http://shop.test/orders/${orderId}/return?session_id=${sessionId}&request=${id}`,
      });
      expect(await call('GET', `/v1/requests/${id}?key=${key}`)).toMatchObject({ body: { request: { state: 'paid', orderId } } });
    } finally {
      await call('POST', `/v1/users/${seller.guid}/services/${serviceId}/products/${productId}`, { price: 1500 }, seller.token);
    }
  });

  it('two accepts at once make one order', async () => {
    const payer = uniqueEmail('race');
    const { id, key } = await send(payer);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call('POST', `/v1/requests/${id}/accept?key=${key}`, { email: payer })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(4);
  });

  it('the seller withdraws an open request; the payer cannot', async () => {
    const { id, key } = await send(uniqueEmail('withdrawn'));
    const stranger = await account('not-seller');
    expect(await call('POST', `/v1/requests/${id}/cancel`, undefined, stranger.token)).toMatchObject({ status: 404 });
    expect(await call('POST', `/v1/requests/${id}/cancel`, undefined, seller.token)).toMatchObject({
      status: 200,
      body: { request: { state: 'cancelled' } },
    });
    expect(await call('POST', `/v1/requests/${id}/accept?key=${key}`, { email: 'x@example.com' })).toMatchObject({ status: 409 });
  });

  it('withdrawing an accepted request cancels its unpaid order: paying it afterwards is refused and charges nothing', async () => {
    const { id, key, orderId, sessionId } = await acceptedAndOpened('withdrawn-accepted');
    expect(await call('POST', `/v1/requests/${id}/cancel`, undefined, seller.token)).toMatchObject({
      status: 200,
      body: { request: { state: 'cancelled', orderId } },
    });
    expect(await call('GET', `/v1/orders/${orderId}`, undefined, seller.token)).toMatchObject({ body: { order: { state: 'cancelled' } } });
    expect(await call('POST', `/v1/orders/${orderId}/pay`)).toMatchObject({ status: 409, body: { success: false, error: 'CONFLICT' } });
    // The pay page opened before the withdrawal takes no card either.
    const late = await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4242424242424242', ...CARD });
    expect(late.status).toBe(409);
    const charged = await platform.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "commerce"."sandbox_session" WHERE "order_id" = $1 AND "payment_intent" IS NOT NULL`,
      [orderId],
    );
    expect(charged[0]?.n).toBe(0);
    expect(await call('GET', `/v1/requests/${id}?key=${key}`)).toMatchObject({ body: { request: { state: 'cancelled' } } });
  });

  it('a request whose order is paid is not withdrawn: 409, refund the order instead', async () => {
    const { id, orderId, sessionId } = await acceptedAndOpened('withdraw-paid');
    await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4242424242424242', ...CARD });
    const refused = await call('POST', `/v1/requests/${id}/cancel`, undefined, seller.token);
    expect(refused).toMatchObject({ status: 409, body: { success: false, error: 'CONFLICT' } });
    expect(String(refused.body.detail)).toMatch(new RegExp(`refund the order instead \\(POST /v1/orders/${orderId}/refund\\)`));
    expect(await call('GET', `/v1/requests/${id}`, undefined, seller.token)).toMatchObject({ body: { request: { state: 'paid' } } });
    expect(await call('POST', `/v1/orders/${orderId}/refund`, undefined, seller.token)).toMatchObject({
      status: 200,
      body: { order: { state: 'refunded' } },
    });
    expect(await call('POST', `/v1/requests/${id}/cancel`, undefined, seller.token)).toMatchObject({ status: 409 });
  });
});

describe('timeline', () => {
  it('records both sides as things happen, newest first, with paging and totals', async () => {
    const buyer = await account('timeline-buyer', true);
    const { id } = await send(buyer.email);
    const accepted = await call('POST', `/v1/requests/${id}/accept`, { email: buyer.email }, buyer.token);
    const orderId = (accepted.body.order as { id: string }).id;
    const pay = await platform.request('POST', `/v1/orders/${orderId}/pay`, { token: buyer.token });
    await call('POST', `/v1/sandbox/sessions/${pay.body.sessionId as string}/pay`, { number: '4242424242424242', ...CARD });
    // The payment's entries are written by the timeline listener, a moment after the payment committed.
    const mine = await eventually(
      () => call('GET', '/v1/timeline?limit=100', undefined, buyer.token),
      (r) => r.body.total === 4,
    );
    expect((mine.body.events as Array<{ kind: string }>).map((e) => e.kind)).toEqual([
      'order.paid',
      'request.accepted',
      'order.placed',
      'request.received',
    ]);
    expect(mine.body).toMatchObject({ total: 4, offset: 0, limit: 100 });
    const paid = (mine.body.events as Array<{ id: string; title: string; amount: number; orderId: string }>)[0]!;
    expect(paid).toMatchObject({ amount: 1500, orderId });
    expect(paid.title).toMatch(/^You paid \$15\.00 to Poster Studio for Poster \(receipt R-\d{4}-\d{6}\)$/);
    expect(await call('GET', `/v1/timeline/${paid.id}`, undefined, buyer.token)).toMatchObject({
      status: 200,
      body: { event: { id: paid.id } },
    });
    expect(await call('GET', `/v1/timeline/${paid.id}`, undefined, seller.token)).toMatchObject({ status: 404 });
    expect(await call('GET', '/v1/timeline?offset=2&limit=1', undefined, buyer.token)).toMatchObject({
      body: { total: 4, events: [{ kind: 'order.placed' }] },
    });
    expect(await call('GET', '/v1/timeline?offset=50', undefined, buyer.token)).toMatchObject({
      status: 200,
      body: { events: [], total: 4 },
    });
    expect(await call('GET', '/v1/timeline?limit=0', undefined, buyer.token)).toMatchObject({ status: 400 });
    expect(await call('GET', '/v1/timeline')).toMatchObject({ status: 401 });
    const sellers = (await call('GET', '/v1/timeline?limit=100', undefined, seller.token)).body.events as Array<{
      kind: string;
      requestId: string | null;
    }>;
    expect(sellers.filter((e) => e.requestId === id).map((e) => e.kind)).toEqual(['request.accepted', 'request.sent']);
    expect(sellers.map((e) => e.kind)).toContain('order.sold');
  });

  it('pages past the end of sent requests answer an empty list with the total', async () => {
    const all = await call('GET', '/v1/requests?box=sent&limit=100', undefined, seller.token);
    const total = all.body.total as number;
    expect(total).toBeGreaterThan(0);
    expect(await call('GET', `/v1/requests?box=sent&offset=${total + 10}`, undefined, seller.token)).toMatchObject({
      status: 200,
      body: { requests: [], total },
    });
  });
});

/** Sends a custom amount request (no product) and answers its id and the key of the emailed link. */
async function sendCustom(email: string, amount: number, description: string, note?: string): Promise<{ id: string; key: string }> {
  const sent = await call(
    'POST',
    '/v1/requests',
    { email, service: serviceId, amount, description, ...(note ? { note } : {}) },
    seller.token,
  );
  expect(sent).toMatchObject({ status: 201, body: { request: { product: { id: null, name: description, price: amount } } } });
  const id = (sent.body.request as { id: string }).id;
  const mail = await smtp.mailTo(email, new RegExp(`/requests/${id}\\?key=`));
  return { id, key: new RegExp(`/requests/${id}\\?key=([A-Za-z0-9_-]{43})`).exec(mail)![1]! };
}

describe('a custom amount (no product)', () => {
  it('is emailed, accepted, paid: the order, the receipt, the emails and both timelines carry the description and amount', async () => {
    const payer = await account('custom-payer', true);
    const description = 'Consulting hour, 3 March <b>plain</b>';
    const { id, key } = await sendCustom(payer.email, 12_550, description, 'As agreed on the phone');
    const asked = await smtp.mailTo(payer.email, new RegExp(id));
    expect(asked).toContain(`$125.50 for ${description}`);
    expect(await call('GET', `/v1/requests/${id}?key=${key}`)).toMatchObject({
      status: 200,
      body: { request: { state: 'open', role: 'payer', product: { id: null, name: description, description: '', price: 12_550 } } },
    });
    const accepted = await call('POST', `/v1/requests/${id}/accept`, { email: payer.email }, payer.token);
    expect(accepted).toMatchObject({
      status: 200,
      body: {
        order: { state: 'pending', amount: 12_550, items: [{ productId: null, name: description, unitPrice: 12_550, quantity: 1 }] },
      },
    });
    const orderId = (accepted.body.order as { id: string }).id;
    const pay = await platform.request('POST', `/v1/orders/${orderId}/pay`, { token: payer.token });
    await call('POST', `/v1/sandbox/sessions/${pay.body.sessionId as string}/pay`, { number: '4242424242424242', ...CARD });
    const order = await call('GET', `/v1/orders/${orderId}`, undefined, payer.token);
    expect(order).toMatchObject({
      status: 200,
      body: { order: { state: 'paid', amount: 12_550, receipt: { amount: 12_550, items: [{ name: description, amount: 12_550 }] } } },
    });
    expect(await call('GET', `/v1/requests/${id}`, undefined, seller.token)).toMatchObject({
      body: { request: { state: 'paid', orderId } },
    });
    const receipt = await smtp.mailTo(payer.email, /Subject: Your receipt R-/);
    expect(receipt).toContain(description);
    expect(receipt).toContain('$125.50');
    const mine = await eventually(
      () => call('GET', '/v1/timeline?limit=100', undefined, payer.token),
      (r) => (r.body.events as Array<{ kind: string }>).some((e) => e.kind === 'order.paid'),
    );
    const titles = (mine.body.events as Array<{ title: string; amount: number | null }>).map((e) => e.title);
    expect(titles).toContainEqual(expect.stringContaining(`$125.50 for ${description}`));
    const sellers = await eventually(
      () => call('GET', '/v1/timeline?limit=100', undefined, seller.token),
      (r) =>
        (r.body.events as Array<{ kind: string; orderId: string | null }>).some((e) => e.kind === 'order.sold' && e.orderId === orderId),
    );
    const sold = (sellers.body.events as Array<{ kind: string; orderId: string | null; title: string; amount: number }>).find(
      (e) => e.kind === 'order.sold' && e.orderId === orderId,
    );
    expect(sold).toMatchObject({ amount: 12_550, title: expect.stringContaining(description) });
  });

  it.each([
    ['no amount', { description: 'Consulting' }, /^amount must be a whole number of cents/],
    ['a zero amount', { amount: 0, description: 'Consulting' }, /^amount must be at least 50 cents/],
    ['an amount under the minimum', { amount: 49, description: 'Consulting' }, /^amount must be at least 50 cents/],
    ['a negative amount', { amount: -1250, description: 'Consulting' }, /^amount must be at least 50 cents/],
    ['a fraction of a cent', { amount: 12.5, description: 'Consulting' }, /^amount must be a whole number of cents/],
    ['an amount as text', { amount: '1250', description: 'Consulting' }, /^amount must be a whole number of cents/],
    ['an amount over the maximum', { amount: 100_000_000, description: 'Consulting' }, /^amount may be at most 99999999 cents/],
    ['no description', { amount: 1250 }, /^description is required without a product/],
    ['a blank description', { amount: 1250, description: '   ' }, /^description is required without a product/],
    ['a description too long', { amount: 1250, description: 'x'.repeat(121) }, /^description may have at most 120 characters/],
    ['a description on two lines', { amount: 1250, description: 'one\ntwo' }, /^description must be one line of plain text/],
    [
      'a product with an amount',
      { product: 'PRODUCT', amount: 1250, description: 'Consulting' },
      /^amount and description are for a request without a product/,
    ],
  ])('refuses %s: 400 on the field', async (_what, fields, detail) => {
    const body = { email: 'custom@example.com', service: serviceId, ...fields };
    if ('product' in body) body.product = productId;
    const refused = await call('POST', '/v1/requests', body, seller.token);
    expect(refused).toMatchObject({ status: 400, body: { success: false, error: 'VALIDATION_FAILED' } });
    expect(String(refused.body.detail)).toMatch(detail);
  });

  it('is refused on printed mail (shipped as a product) and on another seller’s service (404)', async () => {
    const mail = await call(
      'POST',
      `/v1/users/${seller.guid}/services`,
      {
        name: 'Cards by mail',
        displayName: 'Cards by mail',
        provider: 'sandbox',
        vendor: 'mail',
        account: 'sandbox_cards',
        shippingOrigin: { name: 'Shop', line1: '1 Main St', city: 'Boston', state: 'MA', postalCode: '02110', country: 'US' },
      },
      seller.token,
    );
    const mailId = (mail.body.service as { id: string }).id;
    const refused = await call(
      'POST',
      '/v1/requests',
      { email: 'a@example.com', service: mailId, amount: 900, description: 'Cards' },
      seller.token,
    );
    expect(refused).toMatchObject({
      status: 400,
      body: { error: 'VALIDATION_FAILED', detail: expect.stringMatching(/^amount: printed mail/) },
    });
    const other = await account('custom-other');
    expect(
      await call('POST', '/v1/requests', { email: 'a@example.com', service: serviceId, amount: 900, description: 'Cards' }, other.token),
    ).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } });
  });
});

describe('declining with a reason', () => {
  it('the seller sees the reason: on the request, in the sent list, in the email and on the timeline', async () => {
    const payer = uniqueEmail('reason');
    const { id, key } = await sendCustom(payer, 4_000, 'Logo sketch');
    const reason = 'I paid in cash at the fair.\nThanks anyway!';
    expect(await call('POST', `/v1/requests/${id}/decline?key=${key}`, { reason: `  ${reason}  ` })).toMatchObject({
      status: 200,
      body: { request: { state: 'declined', declineReason: reason, role: 'payer' } },
    });
    expect(await call('GET', `/v1/requests/${id}`, undefined, seller.token)).toMatchObject({
      body: { request: { state: 'declined', declineReason: reason, role: 'seller' } },
    });
    const sent = await call('GET', '/v1/requests?box=sent&limit=100', undefined, seller.token);
    expect((sent.body.requests as Array<{ id: string; declineReason: string | null }>).find((r) => r.id === id)).toMatchObject({
      declineReason: reason,
    });
    const told = await smtp.mailTo(seller.email, new RegExp(`${payer} declined`));
    expect(told).toContain('I paid in cash at the fair.');
    expect(told).toContain(`/requests/${id}`);
    const timeline = await eventually(
      () => call('GET', '/v1/timeline?limit=100', undefined, seller.token),
      (r) => (r.body.events as Array<{ kind: string; requestId: string }>).some((e) => e.kind === 'request.declined' && e.requestId === id),
    );
    const entry = (timeline.body.events as Array<{ kind: string; requestId: string; title: string }>).find(
      (e) => e.kind === 'request.declined' && e.requestId === id,
    );
    expect(entry?.title).toBe(`${payer} declined your request of $40.00 for Logo sketch: “I paid in cash at the fair. Thanks anyway!”`);
  });

  it('without a reason (no body, or blank) is declined as before, with no reason', async () => {
    const { id, key } = await sendCustom(uniqueEmail('no-reason'), 4_000, 'Logo sketch');
    expect(await call('POST', `/v1/requests/${id}/decline?key=${key}`, { reason: '   ' })).toMatchObject({
      status: 200,
      body: { request: { state: 'declined', declineReason: null } },
    });
  });

  it('refuses a reason too long or not text (400 on the field), and another user’s request (404)', async () => {
    const { id, key } = await send(uniqueEmail('bad-reason'));
    const long = await call('POST', `/v1/requests/${id}/decline?key=${key}`, { reason: 'x'.repeat(501) });
    expect(long).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED', detail: 'reason may have at most 500 characters' } });
    expect(await call('POST', `/v1/requests/${id}/decline?key=${key}`, { reason: 42 })).toMatchObject({
      status: 400,
      body: { detail: expect.stringMatching(/^reason must be text/) },
    });
    const stranger = await account('reason-stranger', true);
    expect(await call('POST', `/v1/requests/${id}/decline`, { reason: 'not mine' }, stranger.token)).toMatchObject({ status: 404 });
    expect(await call('GET', `/v1/requests/${id}?key=${key}`)).toMatchObject({ body: { request: { state: 'open', declineReason: null } } });
  });
});

describe('decline against accept and pay at the same moment', () => {
  const orderCount = async (email: string) =>
    (await platform.query<{ n: number }>(`SELECT count(*)::int AS n FROM "commerce"."order" WHERE "email" = $1`, [email]))[0]!.n;

  it('decline vs accept: exactly one wins, and an order exists only when the accept won (8 trials)', async () => {
    for (let trial = 0; trial < 8; trial++) {
      const payer = uniqueEmail(`race-decline-${trial}`);
      const { id, key } = await sendCustom(payer, 2_500, 'Race test');
      const [accept, decline] = await Promise.all([
        call('POST', `/v1/requests/${id}/accept?key=${key}`, { email: payer }),
        call('POST', `/v1/requests/${id}/decline?key=${key}`, { reason: 'changed my mind' }),
      ]);
      expect([accept.status, decline.status].sort()).toEqual([200, 409]);
      const request = (await call('GET', `/v1/requests/${id}`, undefined, seller.token)).body.request as {
        state: string;
        orderId: string | null;
        declineReason: string | null;
      };
      if (accept.status === 200) {
        expect(request).toMatchObject({ state: 'accepted', orderId: (accept.body.order as { id: string }).id, declineReason: null });
        expect(await orderCount(payer)).toBe(1);
      } else {
        expect(request).toMatchObject({ state: 'declined', orderId: null, declineReason: 'changed my mind' });
        expect(await orderCount(payer)).toBe(0);
      }
    }
  });

  it('decline vs pay of the accepted request: the payment wins, the money and the state agree (5 trials)', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const payer = uniqueEmail(`race-pay-${trial}`);
      const { id, key } = await sendCustom(payer, 3_100, 'Race pay');
      const accepted = await call('POST', `/v1/requests/${id}/accept?key=${key}`, { email: payer });
      const orderId = (accepted.body.order as { id: string }).id;
      const opened = await call('POST', `/v1/orders/${orderId}/pay`);
      const [paid, decline] = await Promise.all([
        call('POST', `/v1/sandbox/sessions/${opened.body.sessionId as string}/pay`, { number: '4242424242424242', ...CARD }),
        call('POST', `/v1/requests/${id}/decline?key=${key}`, { reason: 'too late' }),
      ]);
      expect(paid.status).toBe(200);
      expect(decline).toMatchObject({ status: 409, body: { error: 'CONFLICT' } });
      expect(await call('GET', `/v1/requests/${id}`, undefined, seller.token)).toMatchObject({
        body: { request: { state: 'paid', orderId, declineReason: null } },
      });
      expect(await call('GET', `/v1/orders/${orderId}`, undefined, seller.token)).toMatchObject({
        body: { order: { state: 'paid', amount: 3_100, receipt: { amount: 3_100 } } },
      });
      expect(await orderCount(payer)).toBe(1);
    }
  });
});
