/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * An order's page (/orders/{id}) as its signed-in buyer sees it: "Loading…" until the order arrives,
 * the 404 page for an order that is not there, a paid order with its receipt and no pay button, and
 * the messages form: an empty message is refused before anything is sent, the server's refusal shows
 * in the form with the text kept, and a sent message joins the thread. Fetch is faked at the
 * boundary; everything above it is real.
 */
import { beforeAll, beforeEach, expect, test } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { json, profileAnswer, record, type RecordedCall } from '../../../shared/gateway.fake';
import { orderAnswer, preparePages, renderRoutes } from './render.fake';

const calls: RecordedCall[] = [];
let refuseReply = false;
let replies: { id: string; from: 'buyer' | 'seller'; note: string; created: string }[] = [];
/** A load held until the test lets it go (the loading state). */
let held: Promise<void> = Promise.resolve();

const paidOrder = () =>
  orderAnswer({
    sellerName: 'Grace Prints',
    receipt: {
      number: 'R-2026-000042',
      items: [],
      amount: 1250,
      currency: 'usd',
      paidAt: '2026-11-20T10:05:00.000Z',
      date: 'November 20, 2026 10:05 AM',
      timeZone: 'UTC',
      seller: { name: 'Grace Prints', service: 'Print shop', supportEmail: null },
      email: 'ada@example.com',
    },
    replies,
  });

async function fakeGateway(request: Request): Promise<Response> {
  const { pathname, body } = await record(calls, request);
  if (pathname === '/v1/users/me') return profileAnswer();
  if (pathname === '/v1/orders/order-1' && request.method === 'GET') {
    await held;
    return json(200, { success: true, order: paidOrder() });
  }
  if (pathname === '/v1/orders/order-1/reply') {
    if (refuseReply) return json(429, { success: false, error: 'TOO_MANY_REQUESTS', detail: 'wait a minute' });
    const { note } = body as { note: string };
    replies = [...replies, { id: `r${replies.length + 1}`, from: 'buyer', note, created: '2026-11-21T09:00:00.000Z' }];
    return json(201, { success: true, order: paidOrder() });
  }
  return json(404, { success: false, error: 'NOT_FOUND', detail: 'no such order' });
}

let OrderPage: ComponentType;

beforeAll(async () => {
  await preparePages(fakeGateway, 'session-token');
  ({ OrderPage } = await import('./OrderPages'));
});

beforeEach(() => {
  calls.length = 0;
  refuseReply = false;
  replies = [];
  held = Promise.resolve();
});

const renderOrder = (orderId: string) => renderRoutes(`/orders/${orderId}`, { '/orders/:orderId': <OrderPage /> });

test('says it is loading until the order arrives, then shows it', async () => {
  let release!: () => void;
  held = new Promise<void>((resolve) => (release = resolve));
  renderOrder('order-1');
  expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Loading…');
  expect(screen.queryByRole('heading', { name: 'Poster' })).toBeNull();
  release();
  expect(await screen.findByRole('heading', { name: 'Poster' })).toBeTruthy();
  expect(screen.queryByText('Loading…')).toBeNull();
});

test('an order that is not there shows the 404 page', async () => {
  renderOrder('order-404');
  expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  expect(calls.filter((c) => c.path === '/v1/orders/order-404')).toHaveLength(1);
});

test('a paid order shows its state and receipt, and offers no payment', async () => {
  renderOrder('order-1');
  const summary = await screen.findByRole('region', { name: 'Order' });
  expect(within(summary).getByText('Paid')).toBeTruthy();
  expect(screen.getByText('From Grace Prints · Print shop')).toBeTruthy();
  const receipt = screen.getByRole('region', { name: 'Receipt' });
  expect(within(receipt).getByText('R-2026-000042')).toBeTruthy();
  expect(within(receipt).getByRole('link', { name: 'Printable receipt' }).getAttribute('href')).toBe('/orders/order-1/receipt');
  expect(screen.queryByRole('button', { name: /^Pay / })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
  // Loaded with the session's token, without a time zone (the profile's applies).
  const load = calls.find((c) => c.path === '/v1/orders/order-1');
  expect(load!.authorization).toBe('Bearer session-token');
});

test('the messages form refuses an empty message, shows the server’s refusal on the form, then sends', async () => {
  renderOrder('order-1');
  const messages = await screen.findByRole('region', { name: 'Messages' });
  expect(within(messages).getByText('No messages yet.')).toBeTruthy();
  const field = within(messages).getByLabelText('Message to the seller');

  await userEvent.click(within(messages).getByRole('button', { name: 'Send message' }));
  expect(within(messages).getByRole('alert').textContent).toBe('Write a message first.');
  expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

  refuseReply = true;
  await userEvent.type(field, '  Could you sign it? ');
  await userEvent.click(within(messages).getByRole('button', { name: 'Send message' }));
  expect((await within(messages).findByRole('alert')).textContent).toBe('TOO_MANY_REQUESTS - wait a minute');
  expect((field as HTMLTextAreaElement).value).toBe('  Could you sign it? ');
  expect((within(messages).getByRole('button', { name: 'Send message' }) as HTMLButtonElement).disabled).toBe(false);

  refuseReply = false;
  await userEvent.click(within(messages).getByRole('button', { name: 'Send message' }));
  expect(await within(messages).findByText('Could you sign it?')).toBeTruthy();
  expect(within(messages).queryByRole('alert')).toBeNull();
  expect((field as HTMLTextAreaElement).value).toBe('');
  const sent = calls.filter((c) => c.path === '/v1/orders/order-1/reply');
  expect(sent.map((c) => c.body)).toEqual([{ note: 'Could you sign it?' }, { note: 'Could you sign it?' }]);
});
