/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * The saved cards section as a signed-in user sees it: the list from the server, "Make default" sends
 * the session's token (set once in the client's middleware) and the list reloads with the new default,
 * a failure shows the server's error. Fetch is faked at the boundary; everything above it is real.
 */
import { beforeAll, beforeEach, expect, jest, test } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';

interface Call {
  method: string;
  path: string;
  authorization: string | null;
}

const calls: Call[] = [];
let defaultCard = 'pm_1';
let failDefault = false;

const card = (id: string, last4: string) => ({
  id,
  provider: 'sandbox',
  brand: 'visa',
  last4,
  expMonth: 4,
  expYear: 2031,
  plans: 0,
  default: id === defaultCard,
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function fakeGateway(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  calls.push({ method: request.method, path: pathname, authorization: request.headers.get('authorization') });
  if (pathname === '/v1/users/me')
    return json(200, { success: true, guid: 'u1', email: 'ada@example.com', name: 'Ada', tz: 'UTC', active: true, verified: true });
  if (pathname === '/v1/paymentinstruments')
    return json(200, { success: true, instruments: [card('pm_1', '4242'), card('pm_2', '1881')], providers: ['sandbox'] });
  if (pathname === '/v1/paymentmethods/pm_2/default') {
    if (failDefault) return json(409, { success: false, error: 'CARD_EXPIRED', detail: 'the card has expired' });
    defaultCard = 'pm_2';
    return json(200, { success: true });
  }
  return json(404, { success: false, error: 'NOT_FOUND' });
}

let PaymentMethodsSection: ComponentType;

beforeAll(async () => {
  // The typed client takes the global fetch when it is created: fake it before the app's modules load.
  globalThis.fetch = jest.fn((input: RequestInfo | URL, init?: RequestInit) => fakeGateway(new Request(input, init))) as typeof fetch;
  const { session } = await import('../../../shared/session/session');
  await session.adopt('session-token');
  ({ PaymentMethodsSection } = await import('./BillingParts'));
});

beforeEach(() => {
  calls.length = 0;
  defaultCard = 'pm_1';
  failDefault = false;
});

function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <PaymentMethodsSection />
    </QueryClientProvider>,
  );
}

test('lists the saved cards and makes another one the default, with the session token on every call', async () => {
  renderSection();
  const list = await screen.findByRole('list', { name: 'Saved cards' });
  expect(within(list).getAllByRole('listitem')).toHaveLength(2);
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
