import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { type Account, signInContext, signUp, watchErrors } from './helpers.js';

/**
 * The seller's overview in Chromium against the real platform: a seller with paid, fulfilled,
 * refunded and unpaid orders sees gross, refunds and net, the order to fulfil, and filters the list by
 * state, service and search; an order paid while the overview is open shows as new at the next
 * refresh (30 s, the page's clock moved on). At 1280 and 375 px, with screenshots.
 */
const SHOTS = 'test-results/e2e/seller-overview';
const LONG_EMAIL = 'a.very.long.buyer.address.for.printed.posters@example-print-collective.com';

async function signIn(page: Page, baseURL: string, account: Account): Promise<void> {
  await signInContext(page.context(), baseURL, account.token);
}

interface Catalogue {
  seller: Account;
  services: { posters: string; zines: string };
  products: { poster: string; zine: string };
}

/** A seller with two services (a $12.50 poster, an $8.00 zine), made through the API. */
async function catalogue(page: Page): Promise<Catalogue> {
  const seller = await signUp(page, 'overview-seller');
  const headers = { authorization: `Bearer ${seller.token}` };
  await page.request.post('/v1/users/me', { data: { name: 'Ada Prints', tz: 'Europe/Paris' }, headers });
  const make = async (name: string, product: string, price: number) => {
    const service = await page.request.post(`/v1/users/${seller.guid}/services`, {
      data: { name, displayName: 'Ada Prints', provider: 'sandbox', vendor: 'digital', account: 'sandbox_ada' },
      headers,
    });
    expect(service.status()).toBe(201);
    const serviceId = ((await service.json()) as { service: { id: string } }).service.id;
    const made = await page.request.post(`/v1/users/${seller.guid}/services/${serviceId}/products`, {
      data: { name: product, price },
      headers,
    });
    expect(made.status()).toBe(201);
    return { serviceId, productId: ((await made.json()) as { product: { id: string } }).product.id };
  };
  const posters = await make('Ada Posters', 'Poster', 1250);
  const zines = await make('Ada Zines', 'Zine', 800);
  return {
    seller,
    services: { posters: posters.serviceId, zines: zines.serviceId },
    products: { poster: posters.productId, zine: zines.productId },
  };
}

/** A visitor's order (signed out), paid with 4242 on the sandbox when `paid`; answers its id. */
async function order(api: APIRequestContext, c: Catalogue, which: 'poster' | 'zine', email: string, paid: boolean): Promise<string> {
  const serviceId = which === 'poster' ? c.services.posters : c.services.zines;
  const placed = await api.post(`/v1/users/${c.seller.guid}/services/${serviceId}/order`, {
    data: { product: c.products[which], email, share: true },
  });
  expect(placed.status()).toBe(201);
  const id = ((await placed.json()) as { order: { id: string } }).order.id;
  if (paid) {
    const started = (await (await api.post(`/v1/orders/${id}/pay`)).json()) as { sessionId: string };
    const card = { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' };
    expect((await api.post(`/v1/sandbox/sessions/${started.sessionId}/pay`, { data: card })).status()).toBe(200);
  }
  return id;
}

/** The whole page, and the overview alone (the part to look at). */
async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}-${name}.png`, fullPage: true });
  await page.getByRole('region', { name: /^Overview/ }).screenshot({ path: `${SHOTS}-${name}-overview.png` });
}

test('a seller sees earnings, the order to fulfil and filters their orders; a new order shows as new', async ({
  page,
  baseURL,
  playwright,
}) => {
  const errors = watchErrors(page);
  const c = await catalogue(page);
  const visitor = await playwright.request.newContext({ baseURL: baseURL! });
  const headers = { authorization: `Bearer ${c.seller.token}` };
  await order(visitor, c, 'poster', LONG_EMAIL, true);
  const fulfilled = await order(visitor, c, 'zine', 'zine.reader@example.com', true);
  const refunded = await order(visitor, c, 'poster', 'changed.mind@example.com', true);
  await order(visitor, c, 'poster', 'not.yet@example.com', false);
  expect((await page.request.post(`/v1/fulfillment/${fulfilled}/fulfilled`, { data: { note: 'Sent' }, headers })).status()).toBe(200);
  expect((await page.request.post(`/v1/orders/${refunded}/refund`, { headers })).status()).toBe(200);

  await page.clock.install();
  await signIn(page, baseURL!, c.seller);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/account#selling');
  const overview = page.getByRole('region', { name: /^Overview/ });
  // First visit: every paid order is new.
  await expect(overview.getByRole('heading', { name: 'Overview 3 new orders' })).toBeVisible();
  const usd = overview.getByRole('table', { name: 'Earnings in USD' });
  await expect(usd.getByRole('row', { name: /^Gross/ })).toHaveText('Gross$33.00$33.00');
  await expect(usd.getByRole('row', { name: /^Refunds/ })).toHaveText('Refunds\u2212$12.50\u2212$12.50');
  await expect(usd.getByRole('row', { name: /^Net/ })).toHaveText('Net$20.50$20.50');
  await expect(usd.getByRole('row', { name: /^Paid orders/ })).toHaveText('Paid orders33');
  await expect(overview.getByText(/counted in Europe\/Paris time, your profile's time zone/)).toBeVisible();
  await expect(overview.getByRole('heading', { name: 'To fulfil (1)' })).toBeVisible();
  const toFulfil = overview.getByRole('list', { name: 'Orders to fulfil' });
  await expect(toFulfil.getByRole('listitem')).toHaveCount(1);
  await expect(toFulfil.getByText(LONG_EMAIL, { exact: false })).toBeVisible();
  const list = overview.getByRole('list', { name: 'Orders', exact: true });
  await expect(list.getByRole('listitem')).toHaveCount(4);
  await expect(list.getByText('New', { exact: true })).toHaveCount(3);
  await shoot(page, '1280');

  await overview.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'Refunded' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem').first()).toContainText('changed.mind@example.com');
  await overview.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'All orders' });
  await overview.getByRole('combobox', { name: 'Service' }).selectOption({ label: 'Ada Zines' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem').first()).toContainText('Zine');
  await expect(list.getByRole('listitem').first()).toContainText('Fulfilled');
  await overview.getByRole('combobox', { name: 'Service' }).selectOption({ label: 'All services' });
  await overview.getByRole('searchbox', { name: 'Search' }).fill('nobody@example.com');
  await expect(overview.getByText(/No orders match/)).toBeVisible();
  await overview.getByRole('searchbox', { name: 'Search' }).fill('not.yet@');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem').first()).toContainText('Awaiting payment');
  await overview.getByRole('searchbox', { name: 'Search' }).fill('');
  await expect(list.getByRole('listitem')).toHaveCount(4);

  // An order paid while the page is open shows at the next refresh, as new; the earlier ones no longer are on the next visit.
  await order(visitor, c, 'zine', 'late.buyer@example.com', true);
  await page.clock.fastForward(31_000);
  await expect(overview.getByRole('heading', { name: 'Overview 4 new orders' })).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(5);
  await page.reload();
  await expect(overview.getByRole('heading', { name: 'Overview 1 new order' })).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(5);
  await expect(list.getByText('New', { exact: true })).toHaveCount(1);
  await expect(list.getByRole('listitem').first()).toContainText('late.buyer@example.com');
  await expect(list.getByRole('listitem').first().getByText('New', { exact: true })).toBeVisible();

  await page.setViewportSize({ width: 375, height: 800 });
  await expect(usd).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shoot(page, '375');
  await visitor.dispose();
  expect(errors).toEqual([]);
});

test('a seller with a service and no orders yet reads plain empty states, at 375 px too', async ({ page, baseURL }) => {
  const errors = watchErrors(page);
  const seller = await signUp(page, 'overview-empty');
  const headers = { authorization: `Bearer ${seller.token}` };
  const service = await page.request.post(`/v1/users/${seller.guid}/services`, {
    data: { name: 'Quiet shop', displayName: 'Quiet shop', provider: 'sandbox', vendor: 'digital', account: 'sandbox_quiet' },
    headers,
  });
  expect(service.status()).toBe(201);
  await signIn(page, baseURL!, seller);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/account#selling');
  const overview = page.getByRole('region', { name: 'Overview' });
  await expect(overview.getByText('No sales yet. Earnings appear here once a buyer pays an order.')).toBeVisible();
  await expect(overview.getByText(/Nothing to fulfil/)).toBeVisible();
  await expect(overview.getByText(/No orders yet/)).toBeVisible();
  await expect(overview.getByRole('combobox', { name: 'Service' })).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shoot(page, 'empty-375');
  expect(errors).toEqual([]);
});
