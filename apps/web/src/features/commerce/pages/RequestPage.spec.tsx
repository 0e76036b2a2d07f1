/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * A payment request (/requests/{id}?key=…) as its payer answers it from the emailed link, signed out:
 * accepting sends the email, note and consent with the link's key, then opens the order's payment page
 * (one idempotency key); declining asks first, then shows the request declined without the form; a
 * refused decline shows the server's error and leaves the form. Fetch is faked at the boundary;
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
let refuseDecline = false;

const request = (state: string) => ({
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
    if (refuseDecline) return json(409, { success: false, error: 'REQUEST_EXPIRED', detail: 'the request expired' });
    return json(200, { success: true, request: request('declined') });
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

test('the payer declines after a confirmation, and the request shows declined', async () => {
  const form = await openRequest();
  await userEvent.click(within(form).getByRole('button', { name: 'Decline…' }));
  await userEvent.click(within(screen.getByRole('group', { name: 'Decline this request?' })).getByRole('button', { name: 'Decline' }));

  expect(await screen.findByText('Declined')).toBeTruthy();
  expect(screen.queryByRole('form', { name: 'Answer the request' })).toBeNull();
  expect(posts()).toMatchObject([{ path: '/v1/requests/req-1/decline', key: 'link-key' }]);
  expect(window.location.hash).toBe('');
});

test('a refused decline shows the server’s error and keeps the form', async () => {
  refuseDecline = true;
  const form = await openRequest();
  await userEvent.click(within(form).getByRole('button', { name: 'Decline…' }));
  await userEvent.click(within(screen.getByRole('group', { name: 'Decline this request?' })).getByRole('button', { name: 'Decline' }));

  expect((await within(form).findByRole('alert')).textContent).toBe('REQUEST_EXPIRED - the request expired');
  expect(screen.getByText('Waiting for an answer')).toBeTruthy();
  expect(within(form).getByRole('button', { name: 'Accept and pay $12.50' })).toHaveProperty('disabled', false);
});
