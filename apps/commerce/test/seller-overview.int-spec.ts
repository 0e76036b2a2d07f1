import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newAccount, TestPlatform, type TestAccount as Account } from '@tinkerdesk/testing';

/**
 * The seller's overview through the real gateway, identity and commerce with the sandbox processor:
 * earnings (gross, refunds, net; this month in the profile's zone; all time), the orders to fulfil,
 * new orders since the seen marker, and the seller's order pages with their filters. Another
 * seller's orders never appear; another seller's service is answered like a missing one.
 */
let platform: TestPlatform;

const call = (method: string, path: string, body?: unknown, token?: string) => platform.call(method, path, body, token);

const SERVICE = { displayName: 'Overview Prints', provider: 'sandbox', vendor: 'digital', account: 'sandbox_overview' };
const CARD = { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' };

interface Shop {
  seller: Account;
  services: string[];
  products: string[];
}

async function shop(tag: string, names: string[]): Promise<Shop> {
  const seller = await newAccount(platform, tag);
  const services: string[] = [];
  const products: string[] = [];
  for (const name of names) {
    const service = await call('POST', `/v1/users/${seller.guid}/services`, { ...SERVICE, name }, seller.token);
    expect(service.status).toBe(201);
    const id = (service.body.service as { id: string }).id;
    const product = await call(
      'POST',
      `/v1/users/${seller.guid}/services/${id}/products`,
      { name: `${name} poster`, price: 1250 },
      seller.token,
    );
    expect(product.status).toBe(201);
    services.push(id);
    products.push((product.body.product as { id: string }).id);
  }
  return { seller, services, products };
}

/** An order of the shop's n-th service, placed signed out; `paid` pays it with 4242 on the sandbox page. */
async function order(s: Shop, n: number, options: { paid?: boolean; email?: string; share?: boolean } = {}): Promise<string> {
  const placed = await call('POST', `/v1/users/${s.seller.guid}/services/${s.services[n]}/order`, {
    product: s.products[n],
    email: options.email ?? 'buyer@example.com',
    share: options.share ?? true,
  });
  expect(placed.status).toBe(201);
  const id = (placed.body.order as { id: string }).id;
  if (options.paid) {
    const sessionId = (await call('POST', `/v1/orders/${id}/pay`)).body.sessionId as string;
    expect(await call('POST', `/v1/sandbox/sessions/${sessionId}/pay`, CARD)).toMatchObject({ status: 200 });
  }
  return id;
}

type Summary = { id: string; state: string; serviceName: string; receiptNumber: string | null; email: string | null };

const overview = async (s: Shop, query = '') => {
  const answer = await call('GET', `/v1/fulfillment/overview${query}`, undefined, s.seller.token);
  expect(answer.status).toBe(200);
  return answer.body.overview as {
    timeZone: string;
    profileTimeZone: boolean;
    monthStart: string;
    earnings: Array<{ currency: string; month: Record<string, number>; allTime: Record<string, number> }>;
    toFulfil: { total: number; orders: Summary[] };
    seenAt: string | null;
    newOrders: number;
  };
};

const orders = async (s: Shop, query = '') => {
  const answer = await call('GET', `/v1/fulfillment/orders${query}`, undefined, s.seller.token);
  expect(answer.status).toBe(200);
  return answer.body as unknown as { orders: Summary[]; total: number; offset: number; limit: number };
};

let mine: Shop;
let rival: Shop;
type Name = 'toFulfil' | 'fulfilled' | 'refunded' | 'pending' | 'cancelled' | 'rival';
const made = {} as Record<Name, string>;

beforeAll(async () => {
  platform = await TestPlatform.start(['identity', 'commerce', 'gateway'], { RATE_LIMIT_FACTOR: '1000', PUBLIC_URL: 'http://shop.test' });
  [mine, rival] = await Promise.all([shop('overview-seller', ['Posters', 'Zines']), shop('overview-rival', ['Rival prints'])]);
  expect(await call('POST', '/v1/users/me', { tz: 'Pacific/Auckland' }, mine.seller.token)).toMatchObject({ status: 200 });
  made.toFulfil = await order(mine, 0, { paid: true, email: 'ann@example.com' });
  made.fulfilled = await order(mine, 1, { paid: true, email: 'bob@example.com' });
  made.refunded = await order(mine, 0, { paid: true, email: 'cy@example.com', share: false });
  made.pending = await order(mine, 0, { email: 'dee@example.com' });
  made.cancelled = await order(mine, 1, { email: 'eve@example.com' });
  expect(await call('POST', `/v1/fulfillment/${made.fulfilled}/fulfilled`, { note: 'Sent' }, mine.seller.token)).toMatchObject({
    status: 200,
  });
  expect(await call('POST', `/v1/orders/${made.refunded}/refund`, undefined, mine.seller.token)).toMatchObject({ status: 200 });
  expect(await call('POST', `/v1/orders/${made.cancelled}/cancel`, undefined, mine.seller.token)).toMatchObject({ status: 200 });
  made.rival = await order(rival, 0, { paid: true, email: 'ann@example.com' });
}, 180_000);

afterAll(async () => {
  await platform?.close();
});

describe('the overview', () => {
  it("answers gross, refunds and net of paid orders only, this month in the profile's zone and of all time", async () => {
    const view = await overview(mine);
    expect(view).toMatchObject({ timeZone: 'Pacific/Auckland', profileTimeZone: true, seenAt: null, newOrders: 3 });
    const figures = { gross: 3750, refunds: 1250, net: 2500, orders: 3 };
    expect(view.earnings).toEqual([{ currency: 'USD', month: figures, allTime: figures }]);
    // The month starts at midnight on the 1st in Auckland.
    const start = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Pacific/Auckland',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    expect(start.format(new Date(view.monthStart))).toBe('1, 00:00');
    expect(view.toFulfil).toMatchObject({ total: 1, orders: [{ id: made.toFulfil, state: 'paid', serviceName: 'Posters' }] });
  });

  it("counts in the profile's zone as it is from sign-up (UTC unless the browser gave one)", async () => {
    const view = await overview(rival);
    expect(view).toMatchObject({
      timeZone: 'UTC',
      monthStart: expect.stringMatching(/-01T00:00:00\.000Z$/),
      toFulfil: { total: 1, orders: [{ id: made.rival }] },
    });
    expect(view.earnings).toEqual([
      {
        currency: 'USD',
        month: { gross: 1250, refunds: 0, net: 1250, orders: 1 },
        allTime: { gross: 1250, refunds: 0, net: 1250, orders: 1 },
      },
    ]);
  });

  it('marks new orders seen, then counts the orders paid after that (or after since)', async () => {
    const s = await shop('overview-new', ['Cards']);
    await order(s, 0, { paid: true });
    expect(await overview(s)).toMatchObject({ seenAt: null, newOrders: 1 });
    const seen = await call('POST', '/v1/fulfillment/seen', undefined, s.seller.token);
    expect(seen).toMatchObject({ status: 200, body: { success: true, seenAt: expect.any(String) } });
    expect(await overview(s)).toMatchObject({ seenAt: seen.body.seenAt, newOrders: 0 });
    await order(s, 0, { paid: true });
    await order(s, 0);
    expect(await overview(s)).toMatchObject({ newOrders: 1 });
    expect(await overview(s, `?since=${encodeURIComponent('2000-01-01T00:00:00Z')}`)).toMatchObject({ newOrders: 2 });
    expect(await call('GET', '/v1/fulfillment/overview?since=yesterday', undefined, s.seller.token)).toMatchObject({
      status: 400,
      body: { success: false, error: 'VALIDATION_FAILED', detail: expect.stringContaining('since must be a date') },
    });
    // The other seller's marker did not move.
    expect((await overview(mine)).seenAt).toBeNull();
  });

  it('is for the signed-in seller only', async () => {
    expect(await call('GET', '/v1/fulfillment/overview')).toMatchObject({ status: 401 });
    expect(await call('GET', '/v1/fulfillment/orders')).toMatchObject({ status: 401 });
    expect(await call('POST', '/v1/fulfillment/seen')).toMatchObject({ status: 401 });
  });
});

describe("the seller's orders", () => {
  const ids = (list: { orders: Summary[] }) => list.orders.map((o) => o.id);

  it("lists the seller's orders newest first, never another seller's", async () => {
    const all = await orders(mine);
    expect(all).toMatchObject({ total: 5, offset: 0, limit: 20 });
    expect(ids(all)).toEqual([made.cancelled, made.pending, made.refunded, made.fulfilled, made.toFulfil]);
    expect(ids(all)).not.toContain(made.rival);
    expect(ids(await orders(rival))).toEqual([made.rival]);
    // cy did not share her address: the seller sees no address, and cannot search by it.
    expect(all.orders.find((o) => o.id === made.refunded)).toMatchObject({
      email: null,
      receiptNumber: expect.stringMatching(/^R-\d{4}-\d{6}$/),
    });
    expect((await orders(mine, '?q=cy%40example')).total).toBe(0);
  });

  it.each<[string, Name[]]>([
    ['to_fulfil', ['toFulfil']],
    ['paid', ['refunded', 'fulfilled', 'toFulfil']],
    ['fulfilled', ['fulfilled']],
    ['refunded', ['refunded']],
    ['unpaid', ['pending']],
    ['cancelled', ['cancelled']],
  ])('filters %s', async (filter, expected) => {
    expect(ids(await orders(mine, `?filter=${filter}`))).toEqual(expected.map((name) => made[name]));
  });

  it("filters by service; another seller's service is a 404, a malformed id a 400", async () => {
    expect(ids(await orders(mine, `?serviceId=${mine.services[1]}`))).toEqual([made.cancelled, made.fulfilled]);
    expect(ids(await orders(mine, `?serviceId=${mine.services[0]}&filter=paid`))).toEqual([made.refunded, made.toFulfil]);
    expect(await call('GET', `/v1/fulfillment/orders?serviceId=${rival.services[0]}`, undefined, mine.seller.token)).toMatchObject({
      status: 404,
      body: { success: false, error: 'NOT_FOUND' },
    });
    expect(await call('GET', '/v1/fulfillment/orders?serviceId=nope', undefined, mine.seller.token)).toMatchObject({
      status: 400,
      body: { error: 'VALIDATION_FAILED' },
    });
    expect(await call('GET', '/v1/fulfillment/orders?filter=everything', undefined, mine.seller.token)).toMatchObject({
      status: 400,
      body: { detail: expect.stringContaining('filter must be one of') },
    });
  });

  it("searches a receipt number or a shared buyer address; another seller's receipt finds nothing", async () => {
    const all = await orders(mine);
    const receipt = all.orders.find((o) => o.id === made.fulfilled)?.receiptNumber ?? '';
    expect(ids(await orders(mine, `?q=${receipt}`))).toEqual([made.fulfilled]);
    expect(ids(await orders(mine, '?q=ANN%40'))).toEqual([made.toFulfil]);
    const theirs = (await orders(rival)).orders[0]?.receiptNumber ?? '';
    expect((await orders(mine, `?q=${theirs}`)).total).toBe(0);
  });

  it('pages with the total', async () => {
    const second = await orders(mine, '?offset=2&limit=2');
    expect(second).toMatchObject({ total: 5, offset: 2, limit: 2 });
    expect(ids(second)).toEqual([made.refunded, made.fulfilled]);
    expect(await orders(mine, '?offset=10&limit=2')).toMatchObject({ total: 5, orders: [] });
    expect(await call('GET', '/v1/fulfillment/orders?limit=101', undefined, mine.seller.token)).toMatchObject({ status: 400 });
  });
});
