/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * The seller's overview: earnings per currency (never added across currencies) with the month and
 * its zone said, the orders to fulfil, new orders since the last visit (the marker kept for the visit
 * and moved once), and the order list's filters as requests. Fetch is faked at the boundary.
 */
import { beforeAll, beforeEach, expect, test } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SellerOrderSummary, SellerOverviewView } from '@tinkerdesk/contracts/web';
import type { ComponentType } from 'react';
import { json } from '../../../shared/gateway.fake';
import { preparePages, renderRoutes } from '../pages/render.fake';

const profile = { guid: 'u1', email: 'ada@example.com', name: 'Ada', tz: 'Europe/Paris', active: true, verified: true, context: {} };
const services = [
  { id: 's1', name: 'Ada Prints', provider: 'sandbox', vendor: 'digital', account: 'sandbox_ada' },
  { id: 's2', name: 'Ada Zines', provider: 'sandbox', vendor: 'digital', account: 'sandbox_zines' },
];

const summary = (fields: Partial<SellerOrderSummary> & Pick<SellerOrderSummary, 'id'>): SellerOrderSummary => ({
  state: 'paid',
  serviceId: 's1',
  serviceName: 'Ada Prints',
  title: 'Poster',
  itemCount: 1,
  amount: 1250,
  currency: 'USD',
  email: null,
  receiptNumber: 'R-2026-000001',
  created: '2026-11-20T09:00:00.000Z',
  paidAt: '2026-11-20T09:05:00.000Z',
  fulfilledAt: null,
  ...fields,
});

const SEEN = '2026-11-21T00:00:00.000Z';
const older = summary({ id: 'o1' });
const newer = summary({
  id: 'o2',
  title: 'Zine',
  email: 'a.very.long.buyer.address@example.com',
  paidAt: '2026-11-22T10:00:00.000Z',
  receiptNumber: 'R-2026-000002',
});

let overview: SellerOverviewView;
let orders: SellerOrderSummary[];
let urls: URL[];
let seenPosts: number;

async function fakeGateway(request: Request): Promise<Response> {
  const url = new URL(request.url);
  urls.push(url);
  if (url.pathname === '/v1/users/me') return json(200, { success: true, ...profile, services });
  if (url.pathname === '/v1/fulfillment/overview') return json(200, { success: true, overview });
  if (url.pathname === '/v1/fulfillment/orders') return json(200, { success: true, orders, total: orders.length, offset: 0, limit: 10 });
  if (url.pathname === '/v1/fulfillment/seen' && request.method === 'POST') {
    seenPosts += 1;
    return json(200, { success: true, seenAt: '2026-11-26T10:00:00.000Z' });
  }
  return json(404, { success: false, error: 'NOT_FOUND' });
}

let SellerOverview: ComponentType;

beforeAll(async () => {
  await preparePages(fakeGateway);
  const { session } = await import('../../../shared/session/session');
  await session.login({ token: 'signed-in', profile, verified: true }, { broadcast: false });
  ({ SellerOverview } = await import('./SellerOverview'));
});

beforeEach(() => {
  urls = [];
  seenPosts = 0;
  orders = [newer, older];
  overview = {
    timeZone: 'Europe/Paris',
    profileTimeZone: true,
    monthStart: '2026-10-31T23:00:00.000Z',
    earnings: [
      {
        currency: 'USD',
        month: { gross: 3750, refunds: 1250, net: 2500, orders: 3 },
        allTime: { gross: 10000, refunds: 1250, net: 8750, orders: 8 },
      },
      {
        currency: 'EUR' as 'USD',
        month: { gross: 4000, refunds: 0, net: 4000, orders: 1 },
        allTime: { gross: 4000, refunds: 0, net: 4000, orders: 1 },
      },
    ],
    toFulfil: { total: 2, orders: [older, newer] },
    seenAt: SEEN,
    newOrders: 1,
  };
});

const renderOverview = () => renderRoutes('/account', { '/account': <SellerOverview /> });
const asked = (pathname: string) => urls.filter((u) => u.pathname === pathname);

test('shows earnings per currency, this month and all time, and says which month and zone', async () => {
  renderOverview();
  const usd = await screen.findByRole('table', { name: 'Earnings in USD' });
  const net = within(usd).getByRole('row', { name: /Net/ });
  expect(net.textContent).toBe('Net$25.00$87.50');
  expect(within(usd).getByRole('row', { name: /Refunds/ }).textContent).toBe('Refunds\u2212$12.50\u2212$12.50');
  const eur = screen.getByRole('table', { name: 'Earnings in EUR' });
  expect(within(eur).getByRole('row', { name: /Gross/ }).textContent).toBe('Gross€40.00€40.00');
  expect(screen.getByText(/This month is November 2026, counted in Europe\/Paris time, your profile's time zone/)).toBeTruthy();
});

test('lists the orders to fulfil with links, marks what is new since the last visit, and moves the marker once', async () => {
  renderOverview();
  expect(await screen.findByRole('heading', { name: /Overview\s*1 new order/ })).toBeTruthy();
  const toFulfil = screen.getByRole('list', { name: 'Orders to fulfil' });
  const rows = within(toFulfil).getAllByRole('listitem');
  expect(
    within(rows[0] as HTMLElement)
      .getByRole('link', { name: 'Poster' })
      .getAttribute('href'),
  ).toBe('/account/orders/o1');
  expect(within(rows[0] as HTMLElement).queryByText('New')).toBeNull();
  expect(within(rows[1] as HTMLElement).getByText('New')).toBeTruthy();
  expect(rows[1]?.textContent).toContain('a.very.long.buyer.address@example.com · R-2026-000002 · paid');
  await waitFor(() => expect(seenPosts).toBe(1));
  // From then on the visit counts from the marker it began with.
  await waitFor(() => expect(asked('/v1/fulfillment/overview').some((u) => u.searchParams.get('since') === SEEN)).toBe(true));
  expect(seenPosts).toBe(1);
});

test('asks for the chosen filter, service and search, and says when nothing matches', async () => {
  renderOverview();
  await screen.findByRole('list', { name: 'Orders' });
  orders = [];
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'Refunded');
  await waitFor(() => expect(asked('/v1/fulfillment/orders').at(-1)?.searchParams.get('filter')).toBe('refunded'));
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Service' }), 'Ada Zines');
  await waitFor(() => expect(asked('/v1/fulfillment/orders').at(-1)?.searchParams.get('serviceId')).toBe('s2'));
  await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'R-2026-0009');
  await waitFor(() => expect(asked('/v1/fulfillment/orders').at(-1)?.searchParams.get('q')).toBe('R-2026-0009'));
  expect(await screen.findByText(/No orders match/)).toBeTruthy();
});

test('reads well for a seller with no sales yet', async () => {
  overview = { ...overview, earnings: [], toFulfil: { total: 0, orders: [] }, seenAt: null, newOrders: 0 };
  orders = [];
  renderOverview();
  expect(await screen.findByText(/No sales yet/)).toBeTruthy();
  expect(screen.getByText(/Nothing to fulfil/)).toBeTruthy();
  expect(await screen.findByText(/No orders yet/)).toBeTruthy();
  expect(screen.getByRole('heading', { name: 'Overview' })).toBeTruthy();
});
