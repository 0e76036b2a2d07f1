import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { startLoopbackSmtp, TestPlatform, uniqueEmail, type LoopbackSmtp } from '@tinkerdesk/testing';
import { eventually } from './eventually.js';

/**
 * Guest buyers through the real gateway, identity and commerce: an order placed signed out belongs to
 * the account that verifies its address (identity.email.verified, from identity's outbox to commerce's
 * commerce-order-claims listener), at once when the address was verified already, never to an account
 * that has not verified it; the verification link brings the buyer back (same-site paths only).
 */
let platform: TestPlatform;
let smtp: LoopbackSmtp;

interface Account {
  token: string;
  guid: string;
  email: string;
}

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

async function signUp(email: string, returnTo?: string): Promise<Account> {
  const created = await call('POST', '/v1/users', { email, password: 'guest buyers password 1', ...(returnTo ? { returnTo } : {}) });
  expect(created.status).toBe(201);
  return { token: created.body.token as string, guid: (created.body.profile as { guid: string }).guid, email };
}

/** The verification link of the newest verification email to `email`, as a path. */
async function verificationLink(email: string): Promise<string> {
  const mail = await smtp.mailTo(email, /\/v1\/account\/verify\?token=/);
  const link = /http:\/\/shop\.test(\/v1\/account\/verify\?token=[A-Za-z0-9_-]{43}[^\s]*)/.exec(mail)?.[1];
  expect(link).toBeDefined();
  return link!;
}

let seller: Account;
let serviceId: string;
let productId: string;

async function guestOrder(email: string): Promise<string> {
  const placed = await call('POST', `/v1/users/${seller.guid}/services/${serviceId}/order`, {
    product: productId,
    email,
    note: '',
    share: true,
  });
  expect(placed.status).toBe(201);
  expect(placed.body.order).toMatchObject({ role: 'visitor' });
  return (placed.body.order as { id: string }).id;
}

const roleOf = async (orderId: string, token?: string) =>
  (await call('GET', `/v1/orders/${orderId}`, undefined, token)).body.order as { role: string; replies: unknown[] };
const myOrders = async (token: string) =>
  ((await call('GET', '/v1/orders', undefined, token)).body.orders as Array<{ id: string }>).map((o) => o.id);

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  platform = await TestPlatform.start(['identity', 'commerce', 'gateway'], {
    RATE_LIMIT_FACTOR: '1000',
    PUBLIC_URL: 'http://shop.test',
    SMTP_URL: smtp.url,
    MAIL_RETRY_DELAY_MS: '100',
    OUTBOX_POLL_MS: '200',
  });
  seller = await signUp(uniqueEmail('gb-seller'));
  const service = await call(
    'POST',
    `/v1/users/${seller.guid}/services`,
    {
      name: 'Print shop',
      displayName: 'Print shop',
      provider: 'sandbox',
      vendor: 'digital',
      account: 'sandbox_guests',
      supportEmail: 'help@print.example',
    },
    seller.token,
  );
  expect(service.status).toBe(201);
  serviceId = (service.body.service as { id: string }).id;
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

describe('an order placed signed out belongs to the account that verifies its address', () => {
  it('sign up with the address: a visitor until verified; then the buyer (role, messages, My orders), back on the order', async () => {
    const email = uniqueEmail('gb-later');
    const orderId = await guestOrder(email);
    const buyer = await signUp(email.toUpperCase(), `/orders/${orderId}`);
    expect(await roleOf(orderId, buyer.token)).toMatchObject({ role: 'visitor', replies: [] });
    expect(await myOrders(buyer.token)).not.toContain(orderId);
    expect((await call('POST', `/v1/orders/${orderId}/reply`, { note: 'Mine?' }, buyer.token)).status).toBe(404);

    const link = await verificationLink(email);
    expect(link).toContain(`&next=${encodeURIComponent(`/orders/${orderId}`)}`);
    expect((await call('GET', link)).location).toBe(`/orders/${orderId}`);

    expect(await roleOf(orderId, buyer.token)).toMatchObject({ role: 'buyer' });
    expect(
      await eventually(
        () => myOrders(buyer.token),
        (ids) => ids.includes(orderId),
      ),
    ).toContain(orderId);
    const replied = await call('POST', `/v1/orders/${orderId}/reply`, { note: 'Is it A2?' }, buyer.token);
    expect(replied.status).toBe(200);
    expect(replied.body.order).toMatchObject({ role: 'buyer', replies: [{ from: 'buyer', note: 'Is it A2?' }] });
    // The link still works for whoever holds it, without the messages.
    expect(await roleOf(orderId)).toMatchObject({ role: 'visitor', replies: [] });
  });

  it('an address verified already when the order is placed: the account is its buyer at once', async () => {
    const email = uniqueEmail('gb-before');
    const buyer = await signUp(email);
    await call('GET', await verificationLink(email));
    const orderId = await guestOrder(email);
    expect(await roleOf(orderId, buyer.token)).toMatchObject({ role: 'buyer' });
    expect(await myOrders(buyer.token)).toContain(orderId);
    // Its events are the buyer's too: the order and the seller's message on the buyer's timeline.
    expect((await call('POST', `/v1/orders/${orderId}/reply`, { note: 'Ships Monday.' }, seller.token)).status).toBe(200);
    const kinds = async () =>
      ((await call('GET', '/v1/timeline?limit=100', undefined, buyer.token)).body.events as Array<{ kind: string; orderId: string | null }>)
        .filter((e) => e.orderId === orderId)
        .map((e) => e.kind)
        .sort();
    expect(await eventually(kinds, (k) => k.length >= 2)).toEqual(['order.placed', 'order.reply']);
  });

  it('an impostor who signs up with the address but never verifies it stays a visitor, and gets none of its orders', async () => {
    const email = uniqueEmail('gb-victim');
    const orderId = await guestOrder(email);
    const impostor = await signUp(email);
    expect(await roleOf(orderId, impostor.token)).toMatchObject({ role: 'visitor', replies: [] });
    expect(await myOrders(impostor.token)).toEqual([]);
    expect((await call('POST', `/v1/orders/${orderId}/reply`, { note: 'Mine?' }, impostor.token)).status).toBe(404);
    const [row] = await platform.query<{ claimed_by: string | null }>(`SELECT "claimed_by" FROM "commerce"."order" WHERE "id" = $1`, [
      orderId,
    ]);
    expect(row?.claimed_by).toBeNull();
  });

  it('the verification event delivered twice claims once', async () => {
    const email = uniqueEmail('gb-twice');
    const orderId = await guestOrder(email);
    const buyer = await signUp(email);
    await call('GET', await verificationLink(email));
    await eventually(
      () => myOrders(buyer.token),
      (ids) => ids.includes(orderId),
    );
    const [event] = await platform.query<{
      id: string;
      name: string;
      aggregate_type: string;
      aggregate_id: string;
      payload: unknown;
      created_at: Date;
    }>(
      `SELECT "id", "name", "aggregate_type", "aggregate_id", "payload", "created_at" FROM "identity"."outbox_event" WHERE "aggregate_id" = $1`,
      [buyer.guid],
    );
    expect(event).toMatchObject({ name: 'identity.email.verified', payload: { userId: buyer.guid, email } });
    // The claim undone by hand: were the second delivery handled, it would claim the order again.
    await platform.query(`UPDATE "commerce"."order" SET "claimed_by" = NULL WHERE "id" = $1`, [orderId]);
    const nc = await connect({ servers: platform.env.NATS_URL ?? 'nats://localhost:4222' });
    try {
      const prefix = platform.env.NATS_PREFIX ?? '';
      const envelope = {
        id: event!.id,
        name: event!.name,
        aggregateType: event!.aggregate_type,
        aggregateId: event!.aggregate_id,
        payload: event!.payload,
        createdAt: event!.created_at.toISOString(),
      };
      // A second publish (another message id, so the stream keeps it): the listener sees the same event id again.
      const ack = await jetstream(nc).publish(`${prefix ? `${prefix}.` : ''}evt.identity.email.verified`, JSON.stringify(envelope), {
        msgID: `again-${event!.id}`,
      });
      // The listener has taken and acknowledged the second delivery...
      const jsm = await jetstreamManager(nc);
      const consumer = await eventually(
        () => jsm.consumers.info(ack.stream, 'commerce-order-claims'),
        (info) => info.ack_floor.stream_seq >= ack.seq,
      );
      expect(consumer.ack_floor.stream_seq).toBeGreaterThanOrEqual(ack.seq);
      // ...without claiming again: the order stays unclaimed, and the event is processed once.
      const [row] = await platform.query<{ claimed_by: string | null }>(`SELECT "claimed_by" FROM "commerce"."order" WHERE "id" = $1`, [
        orderId,
      ]);
      expect(row?.claimed_by).toBeNull();
      const [processed] = await platform.query<{ n: string }>(
        `SELECT count(*) AS "n" FROM "commerce"."processed_event" WHERE "listener" = 'commerce-order-claims' AND "event_id" = $1`,
        [event!.id],
      );
      expect(processed?.n).toBe('1');
    } finally {
      await nc.drain();
    }
  });
});

describe('return-to', () => {
  it('a return-to that is not a path on this site is refused at sign-up, and ignored on the verification link', async () => {
    for (const returnTo of ['//evil.com', 'https://evil.com', '/\\evil.com', '/\\/evil.com', 'javascript:alert(1)']) {
      const refused = await call('POST', '/v1/users', { email: uniqueEmail('gb-evil'), password: 'guest buyers password 1', returnTo });
      expect(refused).toMatchObject({ status: 400, body: { success: false, error: 'VALIDATION_FAILED' } });
    }
    const email = uniqueEmail('gb-link');
    const account = await signUp(email);
    for (const returnTo of ['//evil.com', 'https://evil.com', '/\\evil.com']) {
      const refused = await call('POST', `/v1/users/${account.guid}/requestverification`, { returnTo }, account.token);
      expect(refused).toMatchObject({ status: 400, body: { error: 'VALIDATION_FAILED' } });
    }
    const link = (await verificationLink(email)).replace(/&next=.*$/, '');
    const forged = `${link}&next=${encodeURIComponent('//evil.com')}`;
    expect((await call('GET', forged)).location).toBe('/account?verified=1');
    for (const next of ['https://evil.com', '/\\evil.com']) {
      // The link is used now: a used link goes to /account either way, never elsewhere.
      expect((await call('GET', `${link}&next=${encodeURIComponent(next)}`)).location).toBe('/account?verified=invalid');
    }
  });

  it('asking for the link again with a return-to: the new link leads there', async () => {
    const email = uniqueEmail('gb-again');
    const account = await signUp(email);
    await verificationLink(email);
    const sent = await call('POST', `/v1/users/${account.guid}/requestverification`, { returnTo: '/orders/abc?x=1' }, account.token);
    expect(sent).toMatchObject({ status: 200, body: { sent: true } });
    const mail = await smtp.mailTo(email, /next=/);
    const link = /http:\/\/shop\.test(\/v1\/account\/verify\?token=[A-Za-z0-9_-]{43}&next=[^\s]+)/.exec(mail)?.[1];
    expect((await call('GET', link!)).location).toBe('/orders/abc?x=1');
  });
});

describe('the emails of an order', () => {
  it('the seller’s message and the receipt say that replies do not reach the order’s messages, and reply to the support address', async () => {
    const email = uniqueEmail('gb-mail');
    const orderId = await guestOrder(email);
    expect((await call('POST', `/v1/orders/${orderId}/reply`, { note: 'Your poster ships Monday.' }, seller.token)).status).toBe(200);
    const mail = await smtp.mailTo(email, /Your poster ships Monday/);
    expect(mail).toContain(`Answer here: http://shop.test/orders/${orderId}`);
    expect(mail).toContain('A reply to this email goes to the seller by email (help@print.example); it does not appear in the order');
    const received = smtp.inbox.findLast((m) => m.to.includes(email.toLowerCase()) && /ships Monday/.test(m.text));
    expect(received?.text).toMatch(/^Reply-To: help@print\.example/m);
    // Long sentences arrive whole once quoted-printable soft breaks are undone: no hard break inside a word.
    expect(mail).toContain(
      `(Sign in, or create an account, with ${email}, the address of this order: you come back to the order afterwards.)`,
    );
  });
});
