/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * The seller's order page (/account/orders/{id}) refunding part of a paid order: the amount is
 * prefilled with what remains, a refusal of the server about the amount shows on the amount field in
 * plain words, nothing is sent before the confirmation, and what is sent is the amount confirmed (in
 * cents) with the reason, each refund that went through under a new Idempotency-Key. Fetch is faked at the boundary; everything above it is real.
 */
import { beforeAll, beforeEach, expect, test } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { json, profileAnswer, record, type RecordedCall } from '../../../shared/gateway.fake';
import { preparePages, renderRoutes } from './render.fake';

const calls: RecordedCall[] = [];
/** The Idempotency-Key of each refund request, in order. */
const keys: Array<string | null> = [];
let refunded = 500;
let refundRows: Array<{ id: string; amount: number; reason: string | null; refundedAt: string }> = [];

const order = () => ({
  id: 'order-1',
  state: refunded >= 1250 ? 'refunded' : 'paid',
  serviceId: 's1',
  serviceName: 'Print shop',
  sellerId: 'seller-1',
  provider: 'sandbox',
  vendor: 'digital',
  email: null,
  note: '',
  share: false,
  items: [{ productId: 'p1', name: 'Poster', description: '', quantity: 1, unitPrice: 1250, amount: 1250 }],
  amount: 1250,
  currency: 'USD',
  shipping: null,
  failure: null,
  receipt: null,
  replies: [],
  latePayments: [],
  role: 'seller',
  created: '2026-11-20T10:00:00.000Z',
  modified: '2026-11-20T10:05:00.000Z',
  paidAt: '2026-11-20T10:05:00.000Z',
  fulfilledAt: null,
  fulfilNote: null,
  refundedAmount: refunded,
  refunds: refundRows,
});

async function fakeGateway(request: Request): Promise<Response> {
  const { pathname, body } = await record(calls, request);
  if (pathname === '/v1/users/me') return profileAnswer();
  if (pathname === '/v1/fulfillment/order-1/order')
    return json(200, { success: true, order: order(), buyer: null, shipping: null, canFulfil: false });
  if (pathname === '/v1/orders/order-1/refund') {
    keys.push(request.headers.get('idempotency-key'));
    const { amount } = body as { amount: number };
    // The first try: another refund was made meanwhile, only $2.50 remains (the page learns it from the refusal).
    if (keys.length === 1 && amount > 250)
      return json(400, {
        success: false,
        error: 'VALIDATION_FAILED',
        detail: 'amount may be at most 250 cents ($2.50), what remains to refund',
      });
    refunded += amount;
    refundRows = [...refundRows, { id: `rf${refundRows.length + 1}`, amount, reason: null, refundedAt: '2026-11-21T09:00:00.000Z' }];
    return json(200, { success: true, order: order() });
  }
  return json(404, { success: false, error: 'NOT_FOUND', detail: 'no such order' });
}

let SellerOrderPage: ComponentType;

beforeAll(async () => {
  await preparePages(fakeGateway, 'session-token');
  ({ SellerOrderPage } = await import('./SellerOrderPage'));
});

beforeEach(() => {
  calls.length = 0;
  keys.length = 0;
  refunded = 500;
  refundRows = [{ id: 'rf0', amount: 500, reason: null, refundedAt: '2026-11-21T08:00:00.000Z' }];
});

test('refunds the amount confirmed; the server’s refusal of the amount shows on the field in plain words and takes the focus', async () => {
  const user = userEvent.setup();
  renderRoutes('/account/orders/order-1', { '/account/orders/:orderId': <SellerOrderPage /> });
  const amount = await screen.findByLabelText('Amount to refund (US dollars)');
  expect(amount).toHaveProperty('value', '7.50');
  expect(screen.getByText('Paid $12.50, refunded $5.00 so far: up to $7.50 can be refunded.')).toBeTruthy();
  await user.type(screen.getByLabelText('Reason for the buyer (optional)'), 'Bent corner');
  await user.click(screen.getByRole('button', { name: 'Refund…' }));
  expect(calls.filter((c) => c.path === '/v1/orders/order-1/refund')).toHaveLength(0);
  // The confirmation takes the focus on its way back; Escape answers it and the focus returns to "Refund…".
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Keep it' }));
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('group', { name: 'Confirm the refund' })).toBeNull();
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Refund…' }));
  await user.keyboard('{Enter}');
  const confirm = screen.getByRole('group', { name: 'Confirm the refund' });
  await user.click(within(confirm).getByRole('button', { name: 'Refund $7.50' }));
  expect(await screen.findByText('Amount: You can refund at most $2.50, what remains of this order.')).toBeTruthy();
  expect(amount.getAttribute('aria-invalid')).toBe('true');
  expect(document.activeElement).toBe(amount);
  expect(calls.find((c) => c.path === '/v1/orders/order-1/refund')?.body).toEqual({ amount: 750, reason: 'Bent corner' });
  await user.clear(amount);
  await user.type(amount, '2.5');
  await user.click(screen.getByRole('button', { name: 'Refund…' }));
  await user.click(screen.getByRole('button', { name: 'Refund $2.50' }));
  expect(await screen.findByText('Paid $12.50, refunded $7.50 so far: up to $5.00 can be refunded.')).toBeTruthy();
  const sent = calls.filter((c) => c.path === '/v1/orders/order-1/refund');
  expect(sent.map((c) => c.body)).toEqual([
    { amount: 750, reason: 'Bent corner' },
    { amount: 250, reason: 'Bent corner' },
  ]);
  // The refused request's key is kept for the next try (it refunded nothing); a refund that went through takes a new one.
  expect(keys[0]).toBeTruthy();
  expect(keys[1]).toBe(keys[0]);
  await user.click(screen.getByRole('button', { name: 'Refund…' }));
  await user.click(screen.getByRole('button', { name: 'Refund $5.00' }));
  expect(await screen.findByText('$12.50 of $12.50 (all of it)')).toBeTruthy();
  expect(screen.queryByLabelText('Amount to refund (US dollars)')).toBeNull();
  expect(keys).toHaveLength(3);
  expect(keys[2]).not.toBe(keys[1]);
});
