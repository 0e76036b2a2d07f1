/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * The saved cards section as a signed-in user sees it: the list from the server, "Make default" sends
 * the session's token (set once in the client's middleware) and the list reloads with the new default,
 * a failure shows the server's error. Delete and a plan's Cancel ask first in the row (InlineConfirm:
 * the focus on Keep, Escape answers Keep and gives the focus back to the opener; once the thing is gone
 * the focus goes to the next row or the list's heading). Fetch is faked at the boundary; everything above it is real.
 */
import { beforeAll, beforeEach, expect, jest, test } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router-dom';

interface Call {
  method: string;
  path: string;
  query: string;
  authorization: string | null;
}

const calls: Call[] = [];
let defaultCard = 'pm_1';
let failDefault = false;
let deleted: string[] = [];
let payingCard = '';
let planCancelled = false;

const card = (id: string, last4: string) => ({
  id,
  provider: 'sandbox',
  brand: 'visa',
  last4,
  expMonth: 4,
  expYear: 2031,
  plans: id === payingCard ? 1 : 0,
  default: id === defaultCard,
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function fakeGateway(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  calls.push({
    method: request.method,
    path: pathname,
    query: new URL(request.url).search,
    authorization: request.headers.get('authorization'),
  });
  if (pathname === '/v1/users/me')
    return json(200, { success: true, guid: 'u1', email: 'ada@example.com', name: 'Ada', tz: 'UTC', active: true, verified: true });
  if (pathname === '/v1/paymentinstruments') {
    const instruments = [card('pm_1', '4242'), card('pm_2', '1881'), card('pm_3', '0005')].filter((c) => !deleted.includes(c.id));
    return json(200, { success: true, instruments, providers: ['sandbox'] });
  }
  if (request.method === 'DELETE' && pathname.startsWith('/v1/paymentmethods/')) {
    deleted.push(pathname.split('/')[3]!);
    return json(200, { success: true });
  }
  if (pathname === '/v1/plans') return json(200, { success: true, plans: [plan()] });
  if (pathname === '/v1/plans/plan_1' && request.method === 'DELETE') {
    planCancelled = true;
    return json(200, { success: true });
  }
  if (pathname === '/v1/paymentmethods/pm_2/default') {
    if (failDefault) return json(409, { success: false, error: 'CARD_EXPIRED', detail: 'the card has expired' });
    defaultCard = 'pm_2';
    return json(200, { success: true });
  }
  return json(404, { success: false, error: 'NOT_FOUND' });
}

/** A plan the signed-in user pays, active until it is cancelled. */
const plan = () => ({
  id: 'plan_1',
  role: 'payer',
  state: planCancelled ? 'cancelled' : 'active',
  product: { id: 'prod_1', name: 'Poster', price: 1250 },
  seller: { guid: 's1', name: 'Print shop' },
  interval: 'month',
  start: '2026-01-01T10:00:00.000Z',
  nextCharge: planCancelled ? null : '2027-01-01T10:00:00.000Z',
  cancelled: planCancelled ? '2026-11-26T10:00:00.000Z' : null,
  paidPeriods: 2,
  charges: [],
  paymentMethod: null,
  lastError: null,
});

let PaymentMethodsSection: ComponentType;
let PlansSection: ComponentType;

beforeAll(async () => {
  // The typed client takes the global fetch when it is created: fake it before the app's modules load.
  globalThis.fetch = jest.fn((input: RequestInfo | URL, init?: RequestInit) => fakeGateway(new Request(input, init))) as typeof fetch;
  const { session } = await import('../../../shared/session/session');
  await session.adopt('session-token');
  ({ PaymentMethodsSection, PlansSection } = await import('./BillingParts'));
});

beforeEach(() => {
  calls.length = 0;
  defaultCard = 'pm_1';
  failDefault = false;
  deleted = [];
  payingCard = '';
  planCancelled = false;
});

function renderSection(Section: ComponentType = PaymentMethodsSection) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <Section />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

test('lists the saved cards and makes another one the default, with the session token on every call', async () => {
  renderSection();
  const list = await screen.findByRole('list', { name: 'Saved cards' });
  expect(within(list).getAllByRole('listitem')).toHaveLength(3);
  expect(within(list).getByText('Default')).toBeTruthy();

  await userEvent.click(screen.getByRole('button', { name: 'Make Visa •••• 1881 the default' }));

  // The list is loaded again and shows the new default.
  expect(await screen.findByRole('button', { name: 'Make Visa •••• 4242 the default' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Make Visa •••• 1881 the default' })).toBeNull();
  const made = calls.filter((c) => c.path !== '/v1/users/me');
  expect(made.map((c) => `${c.method} ${c.path}`)).toEqual([
    'GET /v1/paymentinstruments',
    'POST /v1/paymentmethods/pm_2/default',
    'GET /v1/paymentinstruments',
  ]);
  expect(new Set(made.map((c) => c.authorization))).toEqual(new Set(['Bearer session-token']));
});

test('a refused change shows the server error and leaves the list as it was', async () => {
  failDefault = true;
  renderSection();
  await userEvent.click(await screen.findByRole('button', { name: 'Make Visa •••• 1881 the default' }));
  expect(await screen.findByText('CARD_EXPIRED - the card has expired')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Make Visa •••• 1881 the default' })).toBeTruthy();
  expect(calls.filter((c) => c.path === '/v1/paymentinstruments')).toHaveLength(1);
});

test('Delete asks in the row: Keep has the focus, Escape keeps the card and gives the focus back to Delete', async () => {
  renderSection();
  const opener = await screen.findByRole('button', { name: 'Delete Visa •••• 1881' });
  await userEvent.click(opener);
  const confirm = screen.getByRole('group', { name: 'Delete Visa •••• 1881?' });
  expect(within(confirm).getByText('It is removed from your account and from the payment provider.')).toBeTruthy();
  expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Keep the card' }));
  await userEvent.keyboard('{Escape}');
  expect(screen.queryByRole('group', { name: 'Delete Visa •••• 1881?' })).toBeNull();
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete Visa •••• 1881' }));
  expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
});

test('a deleted card leaves the focus on the next card’s Delete, the last one on the heading', async () => {
  renderSection();
  await userEvent.click(await screen.findByRole('button', { name: 'Delete Visa •••• 1881' }));
  await userEvent.click(screen.getByRole('button', { name: 'Delete the card' }));
  await waitFor(() => expect(screen.queryByText('Visa •••• 1881')).toBeNull());
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete Visa •••• 0005' }));

  await userEvent.click(screen.getByRole('button', { name: 'Delete Visa •••• 0005' }));
  await userEvent.click(screen.getByRole('button', { name: 'Delete the card' }));
  await waitFor(() => expect(screen.queryByText('Visa •••• 0005')).toBeNull());
  // No next card: the one before.
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete Visa •••• 4242' }));

  await userEvent.click(screen.getByRole('button', { name: 'Delete Visa •••• 4242' }));
  await userEvent.click(screen.getByRole('button', { name: 'Delete the card' }));
  expect(await screen.findByText(/^No saved cards\./)).toBeTruthy();
  expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Payment methods' }));
  expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
    '/v1/paymentmethods/pm_2',
    '/v1/paymentmethods/pm_3',
    '/v1/paymentmethods/pm_1',
  ]);
});

test('a card that pays a plan asks which card takes it over, one button per other card', async () => {
  payingCard = 'pm_1';
  renderSection();
  await userEvent.click(await screen.findByRole('button', { name: 'Delete Visa •••• 4242' }));
  const confirm = screen.getByRole('group', { name: 'Delete Visa •••• 4242?' });
  expect(within(confirm).getByText('It pays for a plan. Choose the card that pays it from now on.')).toBeTruthy();
  expect(within(confirm).queryByRole('button', { name: 'Delete the card' })).toBeNull();
  await userEvent.click(within(confirm).getByRole('button', { name: 'Move to Visa •••• 0005 and delete' }));
  await waitFor(() => expect(screen.queryByText('Visa •••• 4242')).toBeNull());
  const deleting = calls.find((c) => c.method === 'DELETE');
  expect(deleting?.path).toBe('/v1/paymentmethods/pm_1');
  expect(deleting?.query).toBe('?replacement=pm_3');
});

test('Cancel of a plan asks in the row; Keep the plan changes nothing, Cancel the plan cancels it', async () => {
  renderSection(PlansSection);
  const opener = await screen.findByRole('button', { name: 'Cancel the plan for Poster' });
  await userEvent.click(opener);
  const confirm = screen.getByRole('group', { name: 'Cancel this plan?' });
  expect(within(confirm).getByText(/^Poster, \$12\.50 a month: nothing more will be charged to your card\./)).toBeTruthy();
  await userEvent.keyboard('{Enter}');
  expect(screen.queryByRole('group', { name: 'Cancel this plan?' })).toBeNull();
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel the plan for Poster' }));

  await userEvent.click(screen.getByRole('button', { name: 'Cancel the plan for Poster' }));
  await userEvent.click(screen.getByRole('button', { name: 'Cancel the plan' }));
  expect(await screen.findByText('cancelled', { exact: true })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Cancel the plan for Poster' })).toBeNull();
  // The button is gone: the focus is on the plan's link in its row.
  expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Poster: $12.50 a month' }));
  expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/v1/plans/plan_1']);
});
