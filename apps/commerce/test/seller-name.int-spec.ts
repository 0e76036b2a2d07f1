import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newAccount, startLoopbackSmtp, TestPlatform, type LoopbackSmtp, type TestAccount } from '@tinkerdesk/testing';
import { eventually } from './eventually.js';

/**
 * The name buyers see (a service's displayName) through the real gateway, identity and commerce: a
 * seller who never gave a profile name sets up selling with a display name, and the storefront, the
 * payment request (mail, page, timeline), the sandbox pay page, the order, its receipt (mail and page)
 * and the buyer's timeline all carry it. It is required, trimmed and bounded; changing it leaves the
 * receipts already issued as they were.
 */
let platform: TestPlatform;
let smtp: LoopbackSmtp;

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);
const CARD = { number: '4242424242424242', expiry: '12 / 34', cvc: '123' };
const SERVICE = { name: 'Prints', provider: 'sandbox', vendor: 'digital', account: 'sandbox_prints' };

/** A new account; `verified`: its address verified through the emailed link. */
async function account(tag: string, verified = false): Promise<TestAccount> {
  const created = await newAccount(platform, tag);
  if (verified) {
    const mail = await smtp.mailTo(created.email, /\/v1\/account\/verify\?token=/);
    const link = /http:\/\/shop\.test(\/v1\/account\/verify\?token=[A-Za-z0-9_-]{43})/.exec(mail)?.[1];
    expect((await call('GET', link!)).status).toBeLessThan(400);
  }
  return created;
}

let seller: TestAccount;
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
  seller = await account('nameless-seller');
  const created = await call('POST', `/v1/users/${seller.guid}/services`, { ...SERVICE, displayName: '  Riso Corner  ' }, seller.token);
  expect(created).toMatchObject({ status: 201, body: { service: { name: 'Prints', displayName: 'Riso Corner' } } });
  serviceId = (created.body.service as { id: string }).id;
  const product = await call(
    'POST',
    `/v1/users/${seller.guid}/services/${serviceId}/products`,
    { name: 'Poster', price: 1250 },
    seller.token,
  );
  productId = (product.body.product as { id: string }).id;
}, 120_000);

afterAll(async () => {
  await platform?.close();
  await smtp?.close();
});

/** A signed-in buyer's order, paid with 4242 on the sandbox page. */
async function placeAndPay(buyer: TestAccount): Promise<{ orderId: string; sessionId: string }> {
  const body = { product: productId, email: buyer.email, share: true };
  const placed = await call('POST', `/v1/users/${seller.guid}/services/${serviceId}/order`, body, buyer.token);
  expect(placed.status).toBe(201);
  const orderId = (placed.body.order as { id: string }).id;
  const sessionId = (await call('POST', `/v1/orders/${orderId}/pay`, undefined, buyer.token)).body.sessionId as string;
  expect((await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, CARD)).body.session).toMatchObject({ status: 'complete' });
  return { orderId, sessionId };
}

describe('the seller without a profile name', () => {
  it('has no profile name: nothing may fall back to it', async () => {
    const me = await call('GET', '/v1/users/me', undefined, seller.token);
    expect(me.status).toBe(200);
    expect(String(me.body.name ?? '').trim()).toBe('');
  });

  it('is named by the display name on the storefront, the list of services and the sandbox pay page', async () => {
    const shop = await call('GET', `/v1/users/${seller.guid}/services/${serviceId}`);
    expect(shop).toMatchObject({ status: 200, body: { service: { name: 'Prints' }, seller: { guid: seller.guid, name: 'Riso Corner' } } });
    const me = await call('GET', '/v1/users/me?include=services', undefined, seller.token);
    expect(me.body.services).toEqual([expect.objectContaining({ id: serviceId, displayName: 'Riso Corner' })]);

    const placed = await call('POST', `/v1/users/${seller.guid}/services/${serviceId}/order`, {
      product: productId,
      email: 'b@example.com',
    });
    const orderId = (placed.body.order as { id: string }).id;
    expect(placed.body.order).toMatchObject({ sellerName: 'Riso Corner' });
    const sessionId = (await call('POST', `/v1/orders/${orderId}/pay`)).body.sessionId as string;
    expect((await call('GET', `/v1/sandbox/sessions/${sessionId}`)).body.session).toMatchObject({ sellerName: 'Riso Corner' });
  });

  it('is named in the receipt mail subject, the receipt, the order and the buyer’s timeline', async () => {
    const buyer = await account('name-buyer', true);
    const { orderId } = await placeAndPay(buyer);
    const order = (await call('GET', `/v1/orders/${orderId}`, undefined, buyer.token)).body.order as {
      sellerName: string;
      receipt: { number: string; seller: { name: string; service: string } };
    };
    expect(order).toMatchObject({ sellerName: 'Riso Corner', receipt: { seller: { name: 'Riso Corner', service: 'Prints' } } });
    const mail = await smtp.mailTo(buyer.email, new RegExp(`Subject: Your receipt ${order.receipt.number}`));
    expect(mail).toContain(`Subject: Your receipt ${order.receipt.number} from Riso Corner`);
    const seen = await call('GET', `/v1/fulfillment/${orderId}/order`, undefined, seller.token);
    expect(seen.body).toMatchObject({ order: { sellerName: 'Riso Corner', receipt: { seller: { name: 'Riso Corner' } } } });

    const timeline = await eventually(
      () => call('GET', '/v1/timeline?limit=100', undefined, buyer.token),
      (r) => (r.body.events as Array<{ kind: string }>).some((e) => e.kind === 'order.paid'),
    );
    const paid = (timeline.body.events as Array<{ kind: string; title: string }>).find((e) => e.kind === 'order.paid');
    expect(paid?.title).toBe(`You paid $12.50 to Riso Corner for Poster (receipt ${order.receipt.number})`);
  });

  it('is named in the payment request: its mail, its page and the payer’s timeline', async () => {
    const payer = await account('name-payer', true);
    const sent = await call('POST', '/v1/requests', { email: payer.email, note: '', service: serviceId, product: productId }, seller.token);
    expect(sent.status).toBe(201);
    const id = (sent.body.request as { id: string }).id;
    const mail = await smtp.mailTo(payer.email, new RegExp(`/requests/${id}\\?key=`));
    expect(mail).toContain('Subject: Riso Corner asks you to pay $12.50 for Poster');
    expect(mail).toContain('Riso Corner (Prints) asks you to pay $12.50 for Poster.');
    const key = new RegExp(`/requests/${id}\\?key=([A-Za-z0-9_-]{43})`).exec(mail)?.[1];
    expect(await call('GET', `/v1/requests/${id}?key=${key}`)).toMatchObject({
      status: 200,
      body: { request: { sellerName: 'Riso Corner', serviceName: 'Prints' } },
    });
    const timeline = await eventually(
      () => call('GET', '/v1/timeline?limit=100', undefined, payer.token),
      (r) => (r.body.events as Array<{ kind: string }>).some((e) => e.kind === 'request.received'),
    );
    expect(timeline.body.events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'request.received', title: 'Riso Corner asks you to pay $12.50 for Poster' }),
      ]),
    );
  });
});

describe('the display name as input', () => {
  it.each([
    ['missing', {}],
    ['empty', { displayName: '' }],
    ['only spaces', { displayName: '   \t ' }],
    ['too long', { displayName: 'R'.repeat(81) }],
    ['not text', { displayName: 42 }],
    ['null', { displayName: null }],
  ])('refuses a service whose display name is %s: 400 on the field, in the envelope', async (_what, fields) => {
    const answer = await call('POST', `/v1/users/${seller.guid}/services`, { ...SERVICE, ...fields }, seller.token);
    expect(answer).toMatchObject({ status: 400, body: { success: false, error: 'VALIDATION_FAILED' } });
    expect(String(answer.body.detail)).toMatch(/^displayName is required/);
  });

  it('refuses an edit that empties it, and keeps the name buyers see', async () => {
    const edit = await call('POST', `/v1/users/${seller.guid}/services/${serviceId}`, { ...SERVICE, displayName: ' ' }, seller.token);
    expect(edit).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED' } });
    expect((await call('GET', `/v1/users/${seller.guid}/services/${serviceId}`)).body.seller).toMatchObject({ name: 'Riso Corner' });
  });

  it('takes 80 characters', async () => {
    const other = await account('long-name');
    const name = 'R'.repeat(80);
    const created = await call('POST', `/v1/users/${other.guid}/services`, { ...SERVICE, displayName: name }, other.token);
    expect(created).toMatchObject({ status: 201, body: { service: { displayName: name } } });
  });
});

describe('changing the display name', () => {
  it('names the seller anew from then on; receipts already issued keep the name they were issued with', async () => {
    const s = await account('renaming');
    const created = await call('POST', `/v1/users/${s.guid}/services`, { ...SERVICE, displayName: 'Old Name' }, s.token);
    const sid = (created.body.service as { id: string }).id;
    const pid = (
      (await call('POST', `/v1/users/${s.guid}/services/${sid}/products`, { name: 'Zine', price: 800 }, s.token)).body.product as {
        id: string;
      }
    ).id;
    const placed = await call('POST', `/v1/users/${s.guid}/services/${sid}/order`, { product: pid, email: 'old@example.com' });
    const oldOrder = (placed.body.order as { id: string }).id;
    const sessionId = (await call('POST', `/v1/orders/${oldOrder}/pay`)).body.sessionId as string;
    await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, CARD);
    const pending = await call('POST', `/v1/users/${s.guid}/services/${sid}/order`, { product: pid, email: 'new@example.com' });
    const pendingOrder = (pending.body.order as { id: string }).id;

    const renamed = await call('POST', `/v1/users/${s.guid}/services/${sid}`, { ...SERVICE, displayName: 'New Name' }, s.token);
    expect(renamed).toMatchObject({ status: 200, body: { service: { id: sid, displayName: 'New Name' } } });

    expect((await call('GET', `/v1/users/${s.guid}/services/${sid}`)).body.seller).toMatchObject({ name: 'New Name' });
    expect((await call('GET', `/v1/orders/${oldOrder}`)).body.order).toMatchObject({
      sellerName: 'Old Name',
      receipt: { seller: { name: 'Old Name' } },
    });
    expect((await call('GET', `/v1/orders/${pendingOrder}`)).body.order).toMatchObject({ sellerName: 'New Name', receipt: null });
  });
});
