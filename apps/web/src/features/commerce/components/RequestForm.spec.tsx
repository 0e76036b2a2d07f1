/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * /account#selling: a seller asks a custom amount with a description, no product needed. Mistakes are
 * said on the field they concern, in words (email, amount, description), before anything is sent; a
 * server refusal about a field shows on that field; what is sent is the amount in cents and the
 * description as typed (trimmed). Printed mail offers no custom amount. Fetch is faked at the boundary.
 */
import { beforeAll, beforeEach, expect, test } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { json, record, type RecordedCall } from '../../../shared/gateway.fake';
import { prepareSelling, productAnswer, renderRoutes } from '../pages/render.fake';

const profile = { guid: 'u1', email: 'ada@example.com', name: 'Ada', tz: 'UTC', active: true, verified: true, context: {} };
const service = (id: string, name: string, vendor: string) => ({
  id,
  name,
  provider: 'sandbox',
  vendor,
  account: `sandbox_${id}`,
  created: '2026-11-01T10:00:00.000Z',
  modified: '2026-11-01T10:00:00.000Z',
});
const calls: RecordedCall[] = [];
let refusal: { detail: string } | null = null;

async function fakeGateway(request: Request): Promise<Response> {
  const { pathname, body } = await record(calls, request);
  if (pathname === '/v1/users/me')
    return json(200, {
      success: true,
      ...profile,
      services: [service('s1', 'Ada Consulting', 'service'), service('s2', 'Ada Mail', 'mail')],
    });
  if (pathname.endsWith('/products'))
    return json(200, {
      success: true,
      products: [productAnswer({ id: 'p1', serviceId: 's1', userId: 'u1', name: 'Poster', price: 1250 })],
    });
  if (pathname === '/v1/fulfillment' || pathname === '/v1/orders') return json(200, { success: true, orders: [], total: 0 });
  if (pathname === '/v1/paymentinstruments') return json(200, { success: true, instruments: [], providers: ['sandbox'] });
  if (pathname === '/v1/requests') {
    if (refusal) return json(400, { success: false, error: 'VALIDATION_FAILED', ...refusal });
    const { amount, description } = body as { amount: number; description: string };
    return json(201, { success: true, request: { id: 'r1', product: { id: null, name: description, description: '', price: amount } } });
  }
  return json(404, { success: false, error: 'NOT_FOUND' });
}

let SellingSection: ComponentType;

beforeAll(async () => {
  SellingSection = await prepareSelling(fakeGateway, profile);
});

beforeEach(() => {
  calls.length = 0;
  refusal = null;
});

async function openForm() {
  renderRoutes('/account', { '/account': <SellingSection /> });
  await userEvent.click(await screen.findByRole('button', { name: 'Request a custom amount for Ada Consulting' }));
  return screen.getByRole('form', { name: 'Request a custom amount for Ada Consulting' });
}

const sent = () => calls.filter((c) => c.method === 'POST' && c.path === '/v1/requests');
const errorOf = (field: HTMLElement) => document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;

test('says what is missing on each field, focuses the first, and sends nothing', async () => {
  const form = await openForm();
  await userEvent.click(within(form).getByRole('button', { name: 'Send request' }));

  const email = within(form).getByLabelText('Their email');
  expect(errorOf(email)).toBe('Email: Please enter a valid email address.');
  expect(document.activeElement).toBe(email);
  expect(errorOf(within(form).getByLabelText('Amount (US dollars)'))).toBe('Amount: Enter an amount in dollars, like 12.50.');
  expect(errorOf(within(form).getByLabelText('What it is for'))).toBe('Description: Say what the payment is for.');
  expect(sent()).toEqual([]);
});

test.each([
  ['0.10', 'The amount must be at least $0.50.'],
  ['12.345', 'Enter an amount in dollars, like 12.50.'],
  ['-5', 'Enter an amount in dollars, like 12.50.'],
  ['1000000', 'The amount may be at most $999,999.99.'],
])('an amount of %s is refused on the field: %s', async (amount, text) => {
  const form = await openForm();
  await userEvent.type(within(form).getByLabelText('Their email'), 'payer@example.com');
  await userEvent.type(within(form).getByLabelText('Amount (US dollars)'), amount);
  await userEvent.type(within(form).getByLabelText('What it is for'), 'Consulting');
  await userEvent.click(within(form).getByRole('button', { name: 'Send request' }));

  const field = within(form).getByLabelText('Amount (US dollars)');
  expect(errorOf(field)).toBe(`Amount: ${text}`);
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(sent()).toEqual([]);
});

test('sends the amount in cents and the description, without a product', async () => {
  const form = await openForm();
  await userEvent.type(within(form).getByLabelText('Their email'), ' payer@example.com ');
  await userEvent.type(within(form).getByLabelText('Amount (US dollars)'), '$1,125.50');
  await userEvent.type(within(form).getByLabelText('What it is for'), '  Consulting hour, 3 March ');
  await userEvent.type(within(form).getByLabelText('Note (optional)'), 'As agreed');
  await userEvent.click(within(form).getByRole('button', { name: 'Send request' }));

  await waitFor(() => expect(screen.queryByRole('form', { name: 'Request a custom amount for Ada Consulting' })).toBeNull());
  expect(sent().map((c) => c.body)).toEqual([
    { email: 'payer@example.com', service: 's1', amount: 112_550, description: 'Consulting hour, 3 March', note: 'As agreed' },
  ]);
});

test('a server refusal about the description shows on the description field, which takes the focus', async () => {
  refusal = { detail: 'description must be one line of plain text' };
  const form = await openForm();
  await userEvent.type(within(form).getByLabelText('Their email'), 'payer@example.com');
  await userEvent.type(within(form).getByLabelText('Amount (US dollars)'), '40');
  await userEvent.type(within(form).getByLabelText('What it is for'), 'Logo');
  await userEvent.click(within(form).getByRole('button', { name: 'Send request' }));

  const field = within(form).getByLabelText('What it is for');
  expect(await within(form).findByText('Description must be one line of plain text.')).toBeTruthy();
  expect(errorOf(field)).toBe('Description must be one line of plain text.');
  expect(document.activeElement).toBe(field);
  expect(within(form).queryByRole('alert')).toBeNull();
});

test('printed mail offers no custom amount (it ships a product)', async () => {
  renderRoutes('/account', { '/account': <SellingSection /> });
  const mail = await screen.findByRole('article', { name: 'Ada Mail' });
  expect(within(mail).queryByRole('button', { name: /custom amount/ })).toBeNull();
});
