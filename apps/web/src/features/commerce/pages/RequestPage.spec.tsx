/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * A payment request (/requests/{id}?key=…) as its payer answers it from the emailed link, signed out:
 * accepting sends the email, note and consent with the link's key, then opens the order's payment page
 * (one idempotency key); declining asks why (optional, sent as the reason), then shows the request
 * declined with the reason and without the form; a refused decline shows the server's error (a refusal
 * about the reason under the reason field) and leaves the form. Fetch is faked at the boundary;
 * everything above it is real.
 */
import { beforeAll, beforeEach, expect, test } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { json } from '../../../shared/gateway.fake';
import { preparePages, renderRoutes } from './render.fake';

interface Call {
  method: string;
  path: string;
  key: string | null;
  body: unknown;
  idempotencyKey: string | null;
}

const calls: Call[] = [];
let refuseDecline: 'expired' | 'reason' | false = false;

const request = (state: string, declineReason: string | null = null) => ({
  id: 'req-1',
  state,
  sellerId: 'seller-1',
  sellerName: 'Grace',
  serviceId: 's1',
  serviceName: 'Print shop',
  product: { id: 'p1', name: 'Poster', description: 'A2, matte', price: 1250, currency: 'usd' },
  email: 'payer@example.com',
  note: 'For the May order',
  orderId: state === 'accepted' ? 'order-9' : null,
  declineReason,
  role: 'payer',
  expires: '2026-12-20T10:00:00.000Z',
  created: '2026-11-20T10:00:00.000Z',
  modified: '2026-11-20T10:00:00.000Z',
});

async function fakeGateway(request_: Request): Promise<Response> {
  const url = new URL(request_.url);
  const body: unknown = request_.method === 'POST' && request_.headers.get('content-type') ? await request_.json() : undefined;
  calls.push({
    method: request_.method,
    path: url.pathname,
    key: url.searchParams.get('key'),
    body,
    idempotencyKey: request_.headers.get('idempotency-key'),
  });
  if (url.pathname === '/v1/requests/req-1') return json(200, { success: true, request: request('open') });
  if (url.pathname === '/v1/requests/req-1/accept')
    return json(200, { success: true, request: request('accepted'), order: { id: 'order-9' } });
  if (url.pathname === '/v1/requests/req-1/decline') {
    if (refuseDecline === 'expired') return json(409, { success: false, error: 'REQUEST_EXPIRED', detail: 'the request expired' });
    if (refuseDecline === 'reason') return json(400, { success: false, error: 'VALIDATION_FAILED', detail: 'reason must be plain text' });
    return json(200, { success: true, request: request('declined', (body as { reason?: string }).reason ?? null) });
  }
  if (url.pathname === '/v1/orders/order-9/pay') return json(200, { success: true, url: 'http://localhost/#paying-order-9' });
  return json(404, { success: false, error: 'NOT_FOUND' });
}

let RequestPage: ComponentType;

beforeAll(async () => {
  await preparePages(fakeGateway);
  ({ RequestPage } = await import('./RequestPage'));
});

beforeEach(() => {
  calls.length = 0;
  refuseDecline = false;
  window.location.hash = '';
});

async function openRequest() {
  renderRoutes('/requests/req-1?key=link-key', { '/requests/:requestId': <RequestPage /> });
  expect(await screen.findByRole('heading', { name: '$12.50 for Poster' })).toBeTruthy();
  return screen.getByRole('form', { name: 'Answer the request' });
}

const posts = () => calls.filter((c) => c.method === 'POST');

test('the payer accepts and goes on to the payment page', async () => {
  const form = await openRequest();
  expect(screen.getByText('Waiting for an answer')).toBeTruthy();
  // The seller's display name, never a stand-in ("A seller").
  expect(screen.getByText('Requested by Grace')).toBeTruthy();
  expect(screen.getByText('Grace · Print shop')).toBeTruthy();
  expect((within(form).getByLabelText('Email (for the receipt)') as HTMLInputElement).value).toBe('payer@example.com');
  await userEvent.type(within(form).getByLabelText('Note to the seller (optional)'), ' Thanks ');
  await userEvent.click(within(form).getByLabelText('Share my contact details with the seller'));
  await userEvent.click(within(form).getByRole('button', { name: 'Accept and pay $12.50' }));

  await waitFor(() => expect(window.location.hash).toBe('#paying-order-9'));
  expect(within(form).getByRole('button', { name: 'Opening the payment page…' })).toHaveProperty('disabled', true);
  const [accept, pay] = posts();
  expect(accept).toMatchObject({
    path: '/v1/requests/req-1/accept',
    key: 'link-key',
    body: { email: 'payer@example.com', note: 'Thanks', share: true },
  });
  expect(pay).toMatchObject({ path: '/v1/orders/order-9/pay' });
  expect(pay!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  expect(calls.find((c) => c.method === 'GET')!.key).toBe('link-key');
});

test('the payer declines without a reason: nothing is sent as the reason, and the request shows declined', async () => {
  const form = await openRequest();
  await userEvent.click(within(form).getByRole('button', { name: 'Decline…' }));
  const panel = screen.getByRole('group', { name: 'Decline this request' });
  await userEvent.click(within(panel).getByRole('button', { name: 'Decline the request' }));

  expect(await screen.findByText('Declined')).toBeTruthy();
  expect(screen.getByText('No reason given')).toBeTruthy();
  expect(screen.queryByRole('form', { name: 'Answer the request' })).toBeNull();
  expect(posts()).toMatchObject([{ path: '/v1/requests/req-1/decline', key: 'link-key', body: {} }]);
  expect(window.location.hash).toBe('');
});

test('the payer declines with a reason: it is sent, and shown with the declined request', async () => {
  const form = await openRequest();
  await userEvent.click(within(form).getByRole('button', { name: 'Decline…' }));
  const panel = screen.getByRole('group', { name: 'Decline this request' });
  await userEvent.type(within(panel).getByLabelText('Why are you declining? (optional, the seller sees it)'), '  Paid in cash  ');
  await userEvent.click(within(panel).getByRole('button', { name: 'Decline the request' }));

  expect(await screen.findByText('Declined')).toBeTruthy();
  expect(posts()).toMatchObject([{ path: '/v1/requests/req-1/decline', body: { reason: 'Paid in cash' } }]);
  expect(screen.getByText('Your reason')).toBeTruthy();
  expect(screen.getByText('Paid in cash')).toBeTruthy();
});

test('a reason too long is said on the field, and nothing is sent', async () => {
  const form = await openRequest();
  await userEvent.click(within(form).getByRole('button', { name: 'Decline…' }));
  const panel = screen.getByRole('group', { name: 'Decline this request' });
  const field = within(panel).getByLabelText('Why are you declining? (optional, the seller sees it)');
  await userEvent.click(field);
  await userEvent.paste('x'.repeat(501));

  expect(screen.getByText('Keep the reason to 500 characters (now 501).')).toBeTruthy();
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(within(panel).getByRole('button', { name: 'Decline the request' })).toHaveProperty('disabled', true);
  expect(posts()).toEqual([]);
});

test('a refused reason shows under the reason field; another refusal under the buttons, keeping the form', async () => {
  refuseDecline = 'reason';
  const form = await openRequest();
  await userEvent.click(within(form).getByRole('button', { name: 'Decline…' }));
  const panel = screen.getByRole('group', { name: 'Decline this request' });
  await userEvent.type(within(panel).getByLabelText('Why are you declining? (optional, the seller sees it)'), 'odd');
  await userEvent.click(within(panel).getByRole('button', { name: 'Decline the request' }));
  expect(await within(panel).findByText('The reason must be plain text.')).toBeTruthy();

  refuseDecline = 'expired';
  await userEvent.click(within(panel).getByRole('button', { name: 'Decline the request' }));
  expect((await within(panel).findByRole('alert')).textContent).toBe('REQUEST_EXPIRED - the request expired');
  expect(screen.getByText('Waiting for an answer')).toBeTruthy();
  expect(within(form).getByRole('button', { name: 'Accept and pay $12.50' })).toHaveProperty('disabled', false);
});
