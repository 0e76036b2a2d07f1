/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * Starting a plan (/billing/plans/new?seller&service&product) as a signed-in buyer: the form offers the
 * saved cards of the shop's provider, refuses a first charge too soon without sending anything, then
 * creates the plan with what the user chose (with the session's token) and opens the plan's page.
 * Without a usable card the plan cannot be started. Fetch is faked at the boundary; everything above
 * it is real.
 */
import { beforeAll, beforeEach, expect, test } from '@jest/globals';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { useParams } from 'react-router-dom';
import { json, profileAnswer, record, type RecordedCall } from '../../../shared/gateway.fake';
import { preparePages, productAnswer, renderRoutes } from './render.fake';

const calls: RecordedCall[] = [];
let cards: unknown[] = [];

const card = (id: string, provider: string, last4: string, isDefault: boolean) => ({
  id,
  provider,
  brand: 'visa',
  last4,
  expMonth: 4,
  expYear: 2031,
  plans: 0,
  default: isDefault,
});

async function fakeGateway(request: Request): Promise<Response> {
  const { pathname } = await record(calls, request);
  if (pathname === '/v1/users/me') return profileAnswer();
  if (pathname === '/v1/users/seller-1/services/s1')
    return json(200, {
      success: true,
      service: { id: 's1', userId: 'seller-1', name: 'Coffee club', vendor: 'digital', provider: 'sandbox', supportEmail: null },
      seller: { guid: 'seller-1', name: 'Grace' },
      products: [productAnswer({ id: 'p1', serviceId: 's1', userId: 'seller-1', name: 'Beans', price: 1500 })],
    });
  if (pathname === '/v1/plans/plan-9') return json(200, { success: true, plan: futurePlan });
  if (pathname === '/v1/paymentinstruments') return json(200, { success: true, instruments: cards, providers: ['sandbox', 'stripe'] });
  if (pathname === '/v1/plans' && request.method === 'POST')
    return json(201, { success: true, plan: { id: 'plan-7', product: { name: 'Beans' }, start: '2030-03-10T09:30:00.000Z' } });
  return json(404, { success: false, error: 'NOT_FOUND' });
}

/** A plan whose first charge is ahead (nothing charged yet). */
const futurePlan = {
  id: 'plan-9',
  state: 'active',
  role: 'payer',
  service: { id: 's1', name: 'Coffee club', provider: 'sandbox' },
  product: { id: 'p1', name: 'Beans', price: 1500, currency: 'USD' },
  seller: { guid: 'seller-1', name: 'Grace' },
  interval: 'month',
  reminderDay: 10,
  start: '2030-03-10T09:30:00.000Z',
  timeZone: 'UTC',
  paymentMethod: { id: 'pm_1', brand: 'visa', last4: '4242' },
  nextCharge: '2030-03-10T09:30:00.000Z',
  paidPeriods: 0,
  lastError: null,
  charges: [],
  created: '2026-11-01T10:00:00.000Z',
  cancelled: null,
};

let PlanNewPage: ComponentType;
let PlanPage: ComponentType;

function PlanShown() {
  const { planId } = useParams();
  return <h1>Plan {planId}</h1>;
}

beforeAll(async () => {
  await preparePages(fakeGateway, 'session-token');
  ({ PlanNewPage, PlanPage } = await import('./PlanPages'));
});

beforeEach(() => {
  calls.length = 0;
  cards = [card('pm_1', 'sandbox', '4242', true), card('pm_2', 'sandbox', '1881', false), card('pm_3', 'stripe', '5555', false)];
});

function renderForm() {
  return renderRoutes('/billing/plans/new?seller=seller-1&service=s1&product=p1', {
    '/billing/plans/new': <PlanNewPage />,
    '/billing/plans/:planId': <PlanShown />,
  });
}

/** The first charge: a datetime-local field takes a whole value at once, as the browser's picker sets it. */
const setFirstCharge = (value: string) => fireEvent.change(screen.getByLabelText('First charge'), { target: { value } });

test('starts a plan with the chosen interval, time and card, then opens the plan', async () => {
  renderForm();
  await screen.findByRole('form', { name: 'Start a plan' });
  // Only the cards of the shop's provider (sandbox), the default one chosen.
  const radios = screen.getAllByRole('radio') as HTMLInputElement[];
  expect(radios.map((r) => r.value)).toEqual(['pm_1', 'pm_2']);
  expect(radios[0]!.checked).toBe(true);

  await userEvent.selectOptions(screen.getByLabelText('How often'), 'Every 3 months');
  setFirstCharge('2020-01-01T09:00');
  await userEvent.click(screen.getByRole('button', { name: 'Start the plan' }));
  expect(await screen.findByText('Choose a time at least 5 minutes from now.')).toBeTruthy();
  expect(calls.filter((c) => c.path === '/v1/plans')).toEqual([]);

  setFirstCharge('2030-03-10T09:30');
  await userEvent.click(radios[1]!);
  await userEvent.click(screen.getByRole('button', { name: 'Start the plan' }));

  expect(await screen.findByRole('heading', { name: 'Plan plan-7' })).toBeTruthy();
  const created = calls.filter((c) => c.path === '/v1/plans');
  expect(created).toHaveLength(1);
  expect(created[0]!.body).toEqual({
    service: 's1',
    product: 'p1',
    interval: 'quarter',
    reminderDay: 10,
    start: '2030-03-10T09:30:00.000Z',
    timeZone: 'UTC',
    paymentMethod: 'pm_2',
  });
  expect(created[0]!.authorization).toBe('Bearer session-token');
});

test('without a card of the shop’s provider the plan cannot be started', async () => {
  cards = [card('pm_3', 'stripe', '5555', true)];
  renderForm();
  await screen.findByRole('form', { name: 'Start a plan' });
  expect(screen.getByText(/No saved test card yet\./)).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Add a card' })).toBeTruthy();
  expect((screen.getByRole('button', { name: 'Start the plan' }) as HTMLButtonElement).disabled).toBe(true);
});

test('a disabled “Start the plan” says why next to it', async () => {
  cards = [card('pm_3', 'stripe', '5555', true)];
  renderForm();
  await screen.findByRole('form', { name: 'Start a plan' });
  const start = screen.getByRole('button', { name: 'Start the plan', description: 'Add a card first: the plan charges a saved card.' });
  expect((start as HTMLButtonElement).disabled).toBe(true);
});

test('back from saving a card, the form has that card chosen', async () => {
  cards = [card('pm_1', 'sandbox', '4242', true), card('pm_2', 'sandbox', '1881', false)];
  renderRoutes('/billing/plans/new?seller=seller-1&service=s1&product=p1&card=pm_2', { '/billing/plans/new': <PlanNewPage /> });
  await screen.findByRole('form', { name: 'Start a plan' });
  expect((screen.getByRole('radio', { name: /1881/ }) as HTMLInputElement).checked).toBe(true);
  expect((screen.getByRole('radio', { name: /4242/ }) as HTMLInputElement).checked).toBe(false);
});

test('a first charge ahead reads “Starts on …”', async () => {
  renderForm();
  await screen.findByRole('form', { name: 'Start a plan' });
  setFirstCharge('2030-03-10T09:30');
  expect(await screen.findByText(/^Starts on March 10, 2030 9:30 AM with a first charge of \$15\.00, then \$15\.00 a month/)).toBeTruthy();
});

test('a plan whose first charge is ahead says when it starts, in the viewer’s time zone', async () => {
  renderRoutes('/billing/plans/plan-9', { '/billing/plans/:planId': <PlanPage /> });
  const summary = await screen.findByRole('region', { name: 'Plan' });
  expect(summary.textContent).toMatch(/Starts onMarch 10, 2030 9:30 AM/);
  expect(summary.textContent).not.toMatch(/Started/);
});

test('a plan says its first charge is on the start date and the later ones on its reminder day', async () => {
  renderRoutes('/billing/plans/plan-9', { '/billing/plans/:planId': <PlanPage /> });
  const summary = await screen.findByRole('region', { name: 'Plan' });
  expect(summary.textContent).toMatch(/\$15\.00 a month: first on the start date, then on the 10th of the month/);
});

test('without its query (no product chosen) the page says plans start from a seller’s page, and links to the plans', async () => {
  renderRoutes('/billing/plans/new', { '/billing/plans/new': <PlanNewPage /> });
  expect(await screen.findByRole('heading', { level: 1, name: 'Start a plan' })).toBeTruthy();
  expect(screen.getByText(/Plans are started from a seller’s page/).textContent).toContain('“Pay regularly” next to the product');
  expect(screen.getByRole('link', { name: 'See your plans' }).getAttribute('href')).toBe('/billing/plans');
  expect(screen.queryByText(/not here/)).toBeNull();
  expect(calls.filter((c) => c.path !== '/v1/users/me')).toEqual([]);
});
