import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLoopbackSmtp, TestPlatform, uniqueEmail, type LoopbackSmtp } from '@tinkerdesk/testing';

/**
 * Selling through the real gateway, identity and commerce services with the built-in sandbox
 * processor: services, products, orders, paying with Stripe's test cards, receipts, replies,
 * fulfilment, refunds; and every bad input of those calls.
 */
let platform: TestPlatform;
/** A real SMTP server on loopback receives what identity sends for commerce. */
let smtp: LoopbackSmtp;
const mailTo = (to: string, pattern: RegExp): Promise<string> => smtp.mailTo(to, pattern);

interface Account {
  token: string;
  guid: string;
  email: string;
}

async function account(tag: string): Promise<Account> {
  const email = uniqueEmail(tag);
  const created = await platform.call('POST', '/v1/users', { email, password: 'selling password 1' });
  expect(created.status).toBe(201);
  return { token: created.body.token as string, guid: (created.body.profile as { guid: string }).guid, email };
}

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

async function request(method: string, path: string, options: { body?: unknown; token?: string; headers?: Record<string, string> }) {
  return platform.request(method, path, options);
}

const SERVICE = {
  name: 'Print shop',
  displayName: 'Print Shop Co',
  provider: 'sandbox',
  vendor: 'digital',
  account: 'sandbox_printshop',
  supportEmail: 'help@print.example',
};

async function service(seller: Account, fields: Record<string, unknown> = {}): Promise<string> {
  const created = await call('POST', `/v1/users/${seller.guid}/services`, { ...SERVICE, ...fields }, seller.token);
  expect(created.status).toBe(201);
  return (created.body.service as { id: string }).id;
}

async function product(seller: Account, serviceId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const created = await call(
    'POST',
    `/v1/users/${seller.guid}/services/${serviceId}/products`,
    { name: 'Poster', price: 1250, ...fields },
    seller.token,
  );
  expect(created.status).toBe(201);
  return (created.body.product as { id: string }).id;
}

async function order(seller: Account, serviceId: string, productId: string, token?: string, fields: Record<string, unknown> = {}) {
  const placed = await call(
    'POST',
    `/v1/users/${seller.guid}/services/${serviceId}/order`,
    { product: productId, email: 'buyer@example.com', note: 'Thanks!', share: true, ...fields },
    token,
  );
  expect(placed.status).toBe(201);
  return placed.body.order as { id: string; state: string; amount: number; role: string };
}

async function pay(orderId: string, token?: string, key?: string) {
  return request('POST', `/v1/orders/${orderId}/pay`, {
    ...(token ? { token } : {}),
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });
}

const CARD = { expiry: '12 / 34', cvc: '123' };

let seller: Account;
let serviceId: string;
let productId: string;

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  platform = await TestPlatform.start(['identity', 'commerce', 'gateway'], {
    RATE_LIMIT_FACTOR: '1000',
    PUBLIC_URL: 'http://shop.test',
    SMTP_URL: smtp.url,
    MAIL_RETRY_DELAY_MS: '100',
  });
  seller = await account('seller');
  serviceId = await service(seller);
  productId = await product(seller, serviceId);
}, 120_000);

afterAll(async () => {
  await platform?.close();
  await smtp?.close();
});

describe('provider services', () => {
  it('creates and updates a service of your own, answered in the service view with its extras', async () => {
    const s = await account('svc');
    const id = await service(s, {
      name: 'Mail room',
      vendor: 'mail',
      shippingOrigin: { name: 'Shop', line1: '1 Main St', city: 'Boston', state: 'MA', postalCode: '02110', country: 'US' },
    });
    const updated = await call('POST', `/v1/users/${s.guid}/services/${id}`, { ...SERVICE, name: 'Renamed' }, s.token);
    expect(updated).toMatchObject({
      status: 200,
      body: {
        service: {
          id,
          name: 'Renamed',
          provider: 'sandbox',
          vendor: 'digital',
          account: 'sandbox_printshop',
          supportEmail: 'help@print.example',
        },
      },
    });
    const me = await call('GET', '/v1/users/me?include=services', undefined, s.token);
    expect((me.body.services as Array<{ id: string; name: string }>).map((x) => x.name)).toEqual(['Renamed']);
  });

  it.each([
    ['an unknown provider', { provider: 'paypal' }, 400, 'VALIDATION_FAILED'],
    ['an unknown vendor', { vendor: 'cars' }, 400, 'VALIDATION_FAILED'],
    ['an account the provider refuses', { account: 'not-a-sandbox-account' }, 422, 'ACCOUNT_INVALID'],
    ['a Stripe account on a site without Stripe', { provider: 'stripe', account: 'acct_1234567890' }, 422, 'UNPROCESSABLE'],
    ['a statement descriptor for the sandbox', { statementDescriptor: 'PRINTSHOP' }, 400, 'VALIDATION_FAILED'],
    ['mail without a shipping origin', { vendor: 'mail' }, 400, 'VALIDATION_FAILED'],
    ['no name', { name: '' }, 400, 'VALIDATION_FAILED'],
  ])('refuses %s', async (_what, fields, status, code) => {
    const answer = await call('POST', `/v1/users/${seller.guid}/services`, { ...SERVICE, ...fields }, seller.token);
    expect(answer).toMatchObject({ status, body: { success: false, error: code } });
  });

  it("answers another user's guid or service like a missing one, and needs a token", async () => {
    const other = await account('other');
    expect(await call('POST', `/v1/users/${seller.guid}/services`, SERVICE, other.token)).toMatchObject({
      status: 404,
      body: { error: 'NOT_FOUND' },
    });
    expect(await call('POST', `/v1/users/${other.guid}/services/${serviceId}`, SERVICE, other.token)).toMatchObject({ status: 404 });
    expect(await call('POST', `/v1/users/${seller.guid}/services`, SERVICE)).toMatchObject({ status: 401 });
    expect(await call('POST', `/v1/users/not-a-guid/services`, SERVICE, seller.token)).toMatchObject({ status: 400 });
  });

  it('validates an account with the provider: yes or no with the reason', async () => {
    expect(
      await call('POST', `/v1/users/${seller.guid}/validate`, { provider: 'sandbox', account: 'sandbox_ok' }, seller.token),
    ).toMatchObject({
      status: 200,
      body: { valid: true, provider: 'sandbox', account: 'sandbox_ok' },
    });
    const no = await call('POST', `/v1/users/${seller.guid}/validate`, { provider: 'sandbox', account: 'acct_123' }, seller.token);
    expect(no).toMatchObject({ status: 200, body: { valid: false } });
    expect(String(no.body.reason)).toMatch(/sandbox_/);
    expect(await call('POST', `/v1/users/${seller.guid}/validate`, { provider: 'sandbox', account: 'x' })).toMatchObject({ status: 401 });
  });
});

describe('products', () => {
  it.each([
    ['a negative price', { price: -100 }],
    ['a price under 50 cents', { price: 49 }],
    ['an absurd price', { price: 100_000_000_000 }],
    ['a fractional price', { price: 12.5 }],
    ['a price as text', { price: '1250' }],
    ['another currency', { currency: 'EUR' }],
    ['an http image', { image: 'http://example.com/a.png' }],
    ['shipping on a digital product', { shipping: { services: ['USPS_PRIORITY'], options: [] } }],
  ])('refuses %s', async (_what, fields) => {
    const answer = await call(
      'POST',
      `/v1/users/${seller.guid}/services/${serviceId}/products`,
      { name: 'Bad', price: 1000, ...fields },
      seller.token,
    );
    expect(answer).toMatchObject({ status: 400, body: { success: false, error: 'VALIDATION_FAILED' } });
  });

  it("refuses products on another seller's service", async () => {
    const other = await account('intruder');
    expect(
      await call('POST', `/v1/users/${seller.guid}/services/${serviceId}/products`, { name: 'X', price: 100 }, other.token),
    ).toMatchObject({ status: 404 });
    expect(
      await call('POST', `/v1/users/${other.guid}/services/${serviceId}/products`, { name: 'X', price: 100 }, other.token),
    ).toMatchObject({ status: 404 });
  });

  it('lists active products publicly; the owner also sees inactive ones; servicetype filters by vendor', async () => {
    const hidden = await product(seller, serviceId, { name: 'Hidden', active: false });
    const publicList = await call('GET', `/v1/users/${seller.guid}/services/${serviceId}/products`);
    const ids = (publicList.body.products as Array<{ id: string }>).map((p) => p.id);
    expect(ids).toContain(productId);
    expect(ids).not.toContain(hidden);
    const ownerList = await call('GET', `/v1/users/${seller.guid}/services/${serviceId}/products`, undefined, seller.token);
    expect((ownerList.body.products as Array<{ id: string }>).map((p) => p.id)).toContain(hidden);
    expect(await call('GET', `/v1/users/${seller.guid}/services/${serviceId}/products/${hidden}`)).toMatchObject({ status: 404 });
    expect(await call('GET', `/v1/users/${seller.guid}/services/${serviceId}/products/${productId}`)).toMatchObject({
      status: 200,
      body: { product: { id: productId, name: 'Poster', price: 1250, currency: 'USD', active: true } },
    });
    expect((await call('GET', `/v1/users/${seller.guid}/services/${serviceId}/products?servicetype=mail`)).body.products).toEqual([]);
    expect(await call('GET', `/v1/users/${seller.guid}/services/${serviceId}/products?servicetype=cars`)).toMatchObject({ status: 400 });
    expect((await call('GET', `/v1/users/${seller.guid}/services/${serviceId}/products?servicetype=digital`)).body.products).toHaveLength(
      ids.length,
    );
  });

  it("answers another user's service, and a missing one, with the same 404 (the products list)", async () => {
    const other = await account('lister');
    const missing = { status: 404, body: { success: false, error: 'NOT_FOUND', detail: 'no such service' } };
    expect(await call('GET', `/v1/users/${other.guid}/services/${serviceId}/products`)).toMatchObject(missing);
    expect(await call('GET', `/v1/users/${other.guid}/services/${serviceId}/products`, undefined, other.token)).toMatchObject(missing);
    expect(await call('GET', `/v1/users/${seller.guid}/services/${randomUUID()}/products`)).toMatchObject(missing);
  });

  it('serves the public page: service, seller and active products, never the payment account', async () => {
    const page = await call('GET', `/v1/users/${seller.guid}/services/${serviceId}`);
    expect(page).toMatchObject({
      status: 200,
      body: { service: { id: serviceId, name: 'Print shop', supportEmail: 'help@print.example' } },
    });
    expect(JSON.stringify(page.body)).not.toContain('sandbox_printshop');
  });

  it('deletes an unordered product, and deactivates an ordered one instead', async () => {
    const lone = await product(seller, serviceId, { name: 'Lone' });
    expect(await call('DELETE', `/v1/users/${seller.guid}/services/${serviceId}/products/${lone}`, undefined, seller.token)).toMatchObject({
      status: 200,
      body: { deleted: true },
    });
    const ordered = await product(seller, serviceId, { name: 'Ordered' });
    await order(seller, serviceId, ordered);
    expect(
      await call('DELETE', `/v1/users/${seller.guid}/services/${serviceId}/products/${ordered}`, undefined, seller.token),
    ).toMatchObject({
      status: 200,
      body: { deleted: false },
    });
    expect(await call('GET', `/v1/users/${seller.guid}/services/${serviceId}/products/${ordered}`)).toMatchObject({ status: 404 });
  });
});

describe('orders and the sandbox', () => {
  it('orders at the current price; a later price change never changes the order', async () => {
    const p = await product(seller, serviceId, { name: 'Changing', price: 2000 });
    const placed = await order(seller, serviceId, p);
    expect(placed).toMatchObject({ state: 'pending', amount: 2000, role: 'visitor' });
    await call('POST', `/v1/users/${seller.guid}/services/${serviceId}/products/${p}`, { price: 9900 }, seller.token);
    expect(await call('GET', `/v1/orders/${placed.id}`)).toMatchObject({ body: { order: { amount: 2000, items: [{ unitPrice: 2000 }] } } });
  });

  it.each([
    ['an inactive product', 'inactive', 409],
    ["another service's product", 'foreign', 404],
    ['a wrong seller guid', 'guid', 404],
    ['a bad email', 'email', 400],
  ])('refuses an order of %s', async (_what, kind, status) => {
    const inactive = await product(seller, serviceId, { name: 'Off', active: false });
    const other = await account('other-seller');
    const otherService = await service(other);
    const otherProduct = await product(other, otherService);
    const guid = kind === 'guid' ? other.guid : seller.guid;
    const body = {
      product: kind === 'inactive' ? inactive : kind === 'foreign' ? otherProduct : productId,
      email: kind === 'email' ? 'not an email' : 'b@example.com',
    };
    expect(await call('POST', `/v1/users/${guid}/services/${serviceId}/order`, body)).toMatchObject({ status, body: { success: false } });
  });

  it('pays with 4242 through the sandbox page: paid, one receipt, completing twice is harmless', async () => {
    const placed = await order(seller, serviceId, productId);
    const started = await pay(placed.id);
    expect(started.status).toBe(200);
    const sessionId = started.body.sessionId as string;
    expect(started.body).toMatchObject({ provider: 'sandbox', url: `http://shop.test/pay/sandbox/${sessionId}` });
    const page = await call('GET', `/v1/sandbox/sessions/${sessionId}`);
    expect(page.body.session).toMatchObject({ status: 'open', amount: 1250, productName: 'Poster', email: 'buyer@example.com' });
    const paid = await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4242 4242 4242 4242', ...CARD });
    expect(paid.body.session).toMatchObject({
      status: 'complete',
      successUrl: `http://shop.test/orders/${placed.id}/return?session_id=${sessionId}`,
    });
    const completed = await call('POST', `/v1/orders/${placed.id}/complete/${sessionId}`);
    expect(completed).toMatchObject({
      status: 200,
      body: { order: { state: 'paid', receipt: { amount: 1250, currency: 'USD', items: [{ name: 'Poster' }] } } },
    });
    const receipt = (completed.body.order as { receipt: { number: string; date: string } }).receipt;
    expect(receipt.number).toMatch(/^R-\d{4}-\d{6}$/);
    expect(receipt.date).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4} \d{1,2}:\d{2} (AM|PM)$/);
    const again = await call('POST', `/v1/orders/${placed.id}/complete/${sessionId}`);
    expect((again.body.order as { receipt: { number: string } }).receipt.number).toBe(receipt.number);
    expect(await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4242 4242 4242 4242', ...CARD })).toMatchObject({
      status: 409,
    });
    expect(await pay(placed.id)).toMatchObject({ status: 409, body: { error: 'CONFLICT' } });
  });

  it('emails the buyer the receipt and the seller the new order; replies reach the other side', async () => {
    const buyerEmail = uniqueEmail('receipt');
    const placed = await order(seller, serviceId, productId, undefined, { email: buyerEmail, note: 'Gift wrap please' });
    const sessionId = (await pay(placed.id)).body.sessionId as string;
    await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4242424242424242', ...CARD });
    const number = ((await call('GET', `/v1/orders/${placed.id}`)).body.order as { receipt: { number: string } }).receipt.number;
    const receipt = await mailTo(buyerEmail, new RegExp(`Subject: Your receipt ${number}`));
    expect(receipt).toContain('Total paid: $12.50');
    expect(receipt).toContain(`http://shop.test/orders/${placed.id}/receipt`);
    // The seller gets one mail per paid order: this order's is the one that links to it.
    const sold = await mailTo(seller.email, new RegExp(`account/orders/${placed.id}`));
    expect(sold).toContain('Subject: New order: Poster');
    expect(sold).toContain('Gift wrap please');
    expect(sold).toContain(buyerEmail);
    expect(sold).toContain(`http://shop.test/account/orders/${placed.id}`);
    await call('POST', `/v1/orders/${placed.id}/reply`, { note: 'Wrapped and ready.' }, seller.token);
    expect(await mailTo(buyerEmail, /Wrapped and ready\./)).toContain('New message from the seller');
  });

  it("shows the receipt's date in the viewer's time zone", async () => {
    const placed = await order(seller, serviceId, productId);
    const sessionId = (await pay(placed.id)).body.sessionId as string;
    await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4242424242424242', ...CARD });
    const utc = (await call('GET', `/v1/orders/${placed.id}?tz=UTC`)).body.order as { receipt: { date: string; paidAt: string } };
    const tokyo = (await call('GET', `/v1/orders/${placed.id}?tz=Asia/Tokyo`)).body.order as {
      receipt: { date: string; timeZone: string };
    };
    expect(tokyo.receipt.timeZone).toBe('Asia/Tokyo');
    expect(tokyo.receipt.date).not.toBe(utc.receipt.date);
  });

  it('a declined card fails the order with the reason; another card then pays it', async () => {
    const placed = await order(seller, serviceId, productId);
    const sessionId = (await pay(placed.id)).body.sessionId as string;
    const declined = await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4000 0000 0000 0002', ...CARD });
    expect(declined.body.session).toMatchObject({ status: 'open', error: 'Your card was declined.' });
    expect(await call('GET', `/v1/orders/${placed.id}`)).toMatchObject({
      body: { order: { state: 'failed', failure: 'Your card was declined.', receipt: null } },
    });
    const retry = await pay(placed.id);
    expect(retry.body.sessionId).toBe(sessionId);
    await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4242 4242 4242 4242', ...CARD });
    expect(await call('GET', `/v1/orders/${placed.id}`)).toMatchObject({ body: { order: { state: 'paid', failure: null } } });
  });

  it('4000 0025 0000 3155 asks for confirmation: failing it fails the order, completing it pays', async () => {
    const placed = await order(seller, serviceId, productId);
    const sessionId = (await pay(placed.id)).body.sessionId as string;
    const asked = await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4000 0025 0000 3155', ...CARD });
    expect(asked.body.session).toMatchObject({ status: 'requires_action' });
    const failed = await call('POST', `/v1/sandbox/sessions/${sessionId}/authenticate`, { approve: false });
    expect(failed.body.session).toMatchObject({ status: 'open', error: expect.stringMatching(/unable to authenticate/) });
    expect((await call('GET', `/v1/orders/${placed.id}`)).body.order).toMatchObject({ state: 'failed' });
    await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4000 0025 0000 3155', ...CARD });
    expect((await call('POST', `/v1/sandbox/sessions/${sessionId}/authenticate`, { approve: true })).body.session).toMatchObject({
      status: 'complete',
    });
    expect((await call('GET', `/v1/orders/${placed.id}`)).body.order).toMatchObject({ state: 'paid' });
  });

  it('refuses bad cards and bad session ids clearly', async () => {
    const placed = await order(seller, serviceId, productId);
    const sessionId = (await pay(placed.id)).body.sessionId as string;
    expect(
      (await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4242 4242 4242 4241', ...CARD })).body.session,
    ).toMatchObject({
      error: 'Your card number is incorrect.',
    });
    expect(
      (await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4242 4242 4242 4242', expiry: '01/20', cvc: '123' })).body
        .session,
    ).toMatchObject({
      error: 'Your card has expired.',
    });
    expect(await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: 'abcd', ...CARD })).toMatchObject({ status: 400 });
    expect(await call('GET', '/v1/sandbox/sessions/sbs_AAAAAAAAAAAAAAAAAAAAAAAA')).toMatchObject({ status: 404 });
    expect(await call('GET', '/v1/sandbox/sessions/nonsense')).toMatchObject({ status: 400 });
  });

  it('two pays at once, and retries with one Idempotency-Key, open one payment session and make one charge', async () => {
    const placed = await order(seller, serviceId, productId);
    const answers = await Promise.all(Array.from({ length: 6 }, () => pay(placed.id)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.body.sessionId)).size).toBe(1);
    const second = await order(seller, serviceId, productId);
    const keyed = await Promise.all(Array.from({ length: 6 }, () => pay(second.id, undefined, 'key-123')));
    const ok = keyed.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThan(0);
    expect(new Set(ok.map((a) => a.body.sessionId)).size).toBe(1);
    for (const a of keyed.filter((x) => x.status !== 200)) expect(a).toMatchObject({ status: 409, body: { error: 'CONFLICT' } });
    expect((await pay(second.id, undefined, 'key-123')).body.sessionId).toBe(ok[0]?.body.sessionId);
    const sessionId = ok[0]?.body.sessionId as string;
    const charges = await Promise.all(
      Array.from({ length: 4 }, () => call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4242424242424242', ...CARD })),
    );
    expect(charges.filter((c) => c.status === 200)).toHaveLength(1);
    expect(charges.filter((c) => c.status === 409)).toHaveLength(3);
  });

  it("refuses completing with another order's session, and a made-up one", async () => {
    const a = await order(seller, serviceId, productId);
    const b = await order(seller, serviceId, productId);
    const sessionB = (await pay(b.id)).body.sessionId as string;
    expect(await call('POST', `/v1/orders/${a.id}/complete/${sessionB}`)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } });
    expect(await call('POST', `/v1/orders/${a.id}/complete/cs_test_madeup123`)).toMatchObject({ status: 404 });
    expect(await call('POST', `/v1/orders/${a.id}/complete/bad!id`)).toMatchObject({ status: 400 });
  });

  it('keeps an order placed signed in to its buyer and seller', async () => {
    const buyer = await account('buyer');
    const placed = await order(seller, serviceId, productId, buyer.token, { email: buyer.email });
    expect(placed.role).toBe('buyer');
    expect(await call('GET', `/v1/orders/${placed.id}`)).toMatchObject({ status: 404 });
    const stranger = await account('stranger');
    expect(await call('GET', `/v1/orders/${placed.id}`, undefined, stranger.token)).toMatchObject({ status: 404 });
    expect(await pay(placed.id, stranger.token)).toMatchObject({ status: 404 });
    expect(await call('GET', `/v1/orders/${placed.id}`, undefined, seller.token)).toMatchObject({
      status: 200,
      body: { order: { role: 'seller' } },
    });
    const mine = await call('GET', '/v1/orders', undefined, buyer.token);
    expect((mine.body.orders as Array<{ id: string }>).map((o) => o.id)).toEqual([placed.id]);
    expect(await call('GET', `/v1/orders/${placed.id}`, undefined, 'not-a-real-token')).toMatchObject({
      status: 401,
      body: { error: 'INVALID_TOKEN' },
    });
  });

  it("shows the seller the buyer's email only with the buyer's consent", async () => {
    const secret = await order(seller, serviceId, productId, undefined, { email: 'private@example.com', share: false });
    expect((await call('GET', `/v1/orders/${secret.id}`, undefined, seller.token)).body.order).toMatchObject({ email: null, share: false });
    expect((await call('GET', `/v1/fulfillment/${secret.id}/order`, undefined, seller.token)).body).toMatchObject({ buyer: null });
    expect((await call('GET', `/v1/orders/${secret.id}`)).body.order).toMatchObject({ email: 'private@example.com' });
    const incoming = (await call('GET', '/v1/fulfillment?limit=100', undefined, seller.token)).body.orders as Array<{
      id: string;
      email: string | null;
    }>;
    expect(incoming.find((o) => o.id === secret.id)?.email).toBeNull();
  });

  it('no seller-facing view or email carries the address of a buyer who did not share it; a shared one does', async () => {
    // A seller of its own, so every list, timeline and mail of theirs holds only these orders.
    const own = await account('private-seller');
    const ownService = await service(own);
    const ownProduct = await product(own, ownService);
    const buyer = await account('private-buyer');
    const placed = await order(own, ownService, ownProduct, buyer.token, { email: buyer.email, share: false, note: 'No contact please' });
    const sessionId = (await pay(placed.id, buyer.token)).body.sessionId as string;
    await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4242424242424242', ...CARD });
    await call('POST', `/v1/orders/${placed.id}/reply`, { note: 'Is it signed?' }, buyer.token);
    await mailTo(own.email, /Is it signed\?/);
    await mailTo(own.email, /You have a new paid order/);
    const views = {
      order: await call('GET', `/v1/orders/${placed.id}`, undefined, own.token),
      fulfilment: await call('GET', `/v1/fulfillment/${placed.id}/order`, undefined, own.token),
      list: await call('GET', '/v1/fulfillment?limit=100', undefined, own.token),
      receipts: await call('GET', '/v1/fulfillment?receipts=true', undefined, own.token),
      paidList: await call('GET', '/v1/fulfillment?state=paid', undefined, own.token),
      timeline: await call('GET', '/v1/timeline?limit=100', undefined, own.token),
    };
    for (const answer of Object.values(views)) expect(answer.status).toBe(200);
    expect(views.order.body.order).toMatchObject({ email: null, share: false, receipt: { email: null, amount: 1250 } });
    expect(views.fulfilment.body).toMatchObject({ buyer: null, order: { email: null, receipt: { email: null } } });
    expect((views.receipts.body.orders as unknown[]).length).toBe(1);
    const events = views.timeline.body.events as Array<{ id: string }>;
    expect(events.length).toBeGreaterThan(0);
    const eachEvent = await Promise.all(events.map((e) => call('GET', `/v1/timeline/${e.id}`, undefined, own.token)));
    const sellerMails = smtp.inbox.filter((m) => m.to.includes(own.email.toLowerCase()));
    expect(sellerMails.length).toBeGreaterThanOrEqual(2);
    for (const seen of [
      ...Object.values(views).map((v) => JSON.stringify(v.body)),
      ...eachEvent.map((e) => JSON.stringify(e.body)),
      ...sellerMails.map((m) => m.text),
    ]) {
      expect(seen.toLowerCase()).not.toContain(buyer.email.toLowerCase());
    }
    // The buyer sees their own address; with consent the seller does too.
    expect((await call('GET', `/v1/orders/${placed.id}`, undefined, buyer.token)).body.order).toMatchObject({
      email: buyer.email.toLowerCase(),
      receipt: { email: buyer.email.toLowerCase() },
    });
    const shared = await order(own, ownService, ownProduct, undefined, { email: 'shared@example.com', share: true });
    const sharedSession = (await pay(shared.id)).body.sessionId as string;
    await call('POST', `/v1/sandbox/sessions/${sharedSession}/pay`, { number: '4242424242424242', ...CARD });
    expect((await call('GET', `/v1/fulfillment/${shared.id}/order`, undefined, own.token)).body).toMatchObject({
      buyer: { email: 'shared@example.com' },
      order: { email: 'shared@example.com', receipt: { email: 'shared@example.com' } },
    });
  });

  it('messages are read by the seller and the buyer only; a visitor holding the link of a guest order sees none', async () => {
    const buyerEmail = uniqueEmail('guest-reader');
    const placed = await order(seller, serviceId, productId, undefined, { email: buyerEmail, share: false });
    const created = await call('POST', '/v1/users', { email: buyerEmail, password: 'guest reader password' });
    const buyerToken = created.body.token as string;
    const verify = await mailTo(buyerEmail, /\/v1\/account\/verify\?token=/);
    const link = /http:\/\/shop\.test(\/v1\/account\/verify\?token=[A-Za-z0-9_-]{43})/.exec(verify)?.[1];
    expect((await call('GET', link!)).location).toBe('/account?verified=1');
    // The answer to the guest order's verified buyer holds the messages, their own included.
    expect(await call('POST', `/v1/orders/${placed.id}/reply`, { note: 'Private question' }, buyerToken)).toMatchObject({
      status: 200,
      body: { order: { role: 'buyer', replies: [{ from: 'buyer', note: 'Private question' }] } },
    });
    await call('POST', `/v1/orders/${placed.id}/reply`, { note: 'Private answer' }, seller.token);
    const stranger = await account('link-holder');
    const anonymous = await call('GET', `/v1/orders/${placed.id}`);
    expect(anonymous).toMatchObject({ status: 200, body: { order: { role: 'visitor', replies: [] } } });
    expect(JSON.stringify(anonymous.body)).not.toContain('Private');
    expect(await call('GET', `/v1/orders/${placed.id}`, undefined, stranger.token)).toMatchObject({
      status: 200,
      body: { order: { role: 'visitor', replies: [] } },
    });
    for (const [token, role] of [
      [buyerToken, 'buyer'],
      [seller.token, 'seller'],
    ] as const) {
      expect(await call('GET', `/v1/orders/${placed.id}`, undefined, token)).toMatchObject({
        status: 200,
        body: {
          order: {
            role,
            replies: [
              { from: 'buyer', note: 'Private question' },
              { from: 'seller', note: 'Private answer' },
            ],
          },
        },
      });
    }
  });

  it('replies on both sides, fulfilment for the seller only, then a refund', async () => {
    const buyer = await account('replier');
    const placed = await order(seller, serviceId, productId, buyer.token, { email: buyer.email });
    const sessionId = (await pay(placed.id, buyer.token)).body.sessionId as string;
    await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4242424242424242', ...CARD });
    expect(await call('POST', `/v1/orders/${placed.id}/reply`, { note: 'When will it ship?' }, buyer.token)).toMatchObject({
      status: 200,
      body: { order: { replies: [{ from: 'buyer', note: 'When will it ship?' }] } },
    });
    await call('POST', `/v1/orders/${placed.id}/reply`, { note: 'Tomorrow.' }, seller.token);
    const stranger = await account('nosy');
    expect(await call('POST', `/v1/orders/${placed.id}/reply`, { note: 'hi' }, stranger.token)).toMatchObject({ status: 404 });
    expect(await call('POST', `/v1/orders/${placed.id}/reply`, { note: '' }, buyer.token)).toMatchObject({ status: 400 });
    expect(await call('POST', `/v1/orders/${placed.id}/reply`, { note: 'anon' })).toMatchObject({ status: 401 });
    const work = await call('GET', `/v1/fulfillment/${placed.id}/order`, undefined, seller.token);
    expect(work).toMatchObject({
      status: 200,
      body: {
        canFulfil: true,
        buyer: { email: buyer.email },
        order: { replies: [{ from: 'buyer' }, { from: 'seller', note: 'Tomorrow.' }] },
      },
    });
    expect(await call('GET', `/v1/fulfillment/${placed.id}/order`, undefined, buyer.token)).toMatchObject({ status: 404 });
    const incoming = await call('GET', '/v1/fulfillment?state=paid', undefined, seller.token);
    expect((incoming.body.orders as Array<{ id: string }>).map((o) => o.id)).toContain(placed.id);
    expect(await call('POST', `/v1/fulfillment/${placed.id}/fulfilled`, { note: 'Shipped' }, buyer.token)).toMatchObject({ status: 404 });
    expect(await call('POST', `/v1/fulfillment/${placed.id}/fulfilled`, { note: 'Shipped' }, seller.token)).toMatchObject({
      status: 200,
      body: { order: { state: 'fulfilled' } },
    });
    expect(await call('POST', `/v1/fulfillment/${placed.id}/fulfilled`, {}, seller.token)).toMatchObject({ status: 409 });
    expect(await call('POST', `/v1/orders/${placed.id}/refund`, undefined, buyer.token)).toMatchObject({ status: 404 });
    expect(await call('POST', `/v1/orders/${placed.id}/refund`, undefined, seller.token)).toMatchObject({
      status: 200,
      body: { order: { state: 'refunded' } },
    });
    expect(await call('POST', `/v1/orders/${placed.id}/refund`, undefined, seller.token)).toMatchObject({ status: 409 });
  });

  it('cancels an unpaid order (its open pay page closes); a cancelled order cannot be paid', async () => {
    const placed = await order(seller, serviceId, productId);
    const sessionId = (await pay(placed.id)).body.sessionId as string;
    expect(await call('POST', `/v1/orders/${placed.id}/cancel`)).toMatchObject({ status: 200, body: { order: { state: 'cancelled' } } });
    expect((await call('GET', `/v1/sandbox/sessions/${sessionId}`)).body.session).toMatchObject({ status: 'expired' });
    expect(await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, { number: '4242424242424242', ...CARD })).toMatchObject({
      status: 409,
    });
    expect(await pay(placed.id)).toMatchObject({ status: 409 });
    expect(await call('POST', `/v1/orders/${placed.id}/cancel`)).toMatchObject({ status: 409 });
  });

  it('refuses a webhook without Stripe set up, or with no signature', async () => {
    const res = await fetch(`${platform.url}/v1/webhooks/stripe`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, error: 'SIGNATURE_INVALID' });
  });
});
