/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * A guest order seen by a signed-in account that is not its buyer yet: with the order's address not
 * confirmed, the page says so and sends the confirmation link again with the order as its return-to;
 * with another address, it says which address the order was placed with. Fetch is faked at the boundary.
 */
import { beforeAll, beforeEach, expect, test } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { json, record, type RecordedCall } from '../../../shared/gateway.fake';
import { orderAnswer, preparePages, renderRoutes } from '../pages/render.fake';

const calls: RecordedCall[] = [];

const guestOrder = (id: string, email: string) => orderAnswer({ id, email, share: true, role: 'visitor' });

async function fakeGateway(request: Request): Promise<Response> {
  const { pathname } = await record(calls, request);
  if (pathname === '/v1/users/me') {
    return json(200, { success: true, guid: 'u1', email: 'Ada@Example.com', name: '', tz: 'UTC', active: true, verified: false });
  }
  if (pathname === '/v1/orders/order-mine') return json(200, { success: true, order: guestOrder('order-mine', 'ada@example.com') });
  if (pathname === '/v1/orders/order-other') return json(200, { success: true, order: guestOrder('order-other', 'grace@example.com') });
  if (pathname === '/v1/users/u1/requestverification') return json(200, { success: true, sent: true });
  return json(404, { success: false, error: 'NOT_FOUND', detail: 'no such thing' });
}

let OrderPage: ComponentType;

beforeAll(async () => {
  await preparePages(fakeGateway, 'session-token');
  ({ OrderPage } = await import('../pages/OrderPages'));
});

beforeEach(() => {
  calls.length = 0;
});

const renderOrder = (orderId: string) => renderRoutes(`/orders/${orderId}`, { '/orders/:orderId': <OrderPage /> });

test('signed in with the order’s address, not confirmed: says so and emails the link again, leading back to the order', async () => {
  renderOrder('order-mine');
  const messages = await screen.findByRole('region', { name: 'Messages' });
  expect(messages.textContent).toContain('You are signed in with ada@example.com, but it is not confirmed yet.');
  expect(within(messages).queryByLabelText('Message to the seller')).toBeNull();
  await userEvent.click(within(messages).getByRole('button', { name: 'Email me the link again' }));
  await waitFor(() => expect(calls.filter((c) => c.path === '/v1/users/u1/requestverification')).toHaveLength(1));
  const sent = calls.filter((c) => c.path === '/v1/users/u1/requestverification');
  expect(sent.map((c) => c.body)).toEqual([{ returnTo: '/orders/order-mine' }]);
  await waitFor(() =>
    expect((within(messages).getByRole('button', { name: 'Email me the link again' }) as HTMLButtonElement).disabled).toBe(false),
  );
});

test('signed in with another address: names the order’s address and offers to sign in with it, coming back here', async () => {
  renderOrder('order-other');
  const messages = await screen.findByRole('region', { name: 'Messages' });
  expect(messages.textContent).toContain('You are signed in as Ada@Example.com, but this order was placed with grace@example.com.');
  expect(within(messages).getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login?next=%2Forders%2Forder-other#!/login');
  expect(within(messages).queryByRole('button', { name: 'Email me the link again' })).toBeNull();
});
