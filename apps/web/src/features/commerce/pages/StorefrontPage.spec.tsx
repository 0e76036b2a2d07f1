/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * The public order form of a shop (/shop/{guid}/{serviceId}) as a guest uses it: the email is checked
 * before anything is sent, the order carries what the buyer entered (with the shipping address for
 * printed mail), then the payment is opened with an idempotency key and the browser goes to its page;
 * a refused order shows the server's error and the form can be sent again. Fetch is faked at the
 * boundary; everything above it is real.
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
  body: unknown;
  idempotencyKey: string | null;
}

const calls: Call[] = [];
let refuseOrder = false;

const product = (id: string, name: string, price: number, shipping: unknown) => ({
  id,
  serviceId: 's1',
  userId: 'seller-1',
  name,
  description: '',
  price,
  currency: 'usd',
  image: null,
  images: null,
  active: true,
  shipping,
  created: '2026-11-01T10:00:00.000Z',
  modified: '2026-11-01T10:00:00.000Z',
});

async function fakeGateway(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  const body: unknown = request.method === 'POST' && request.headers.get('content-type') ? await request.json() : undefined;
  calls.push({ method: request.method, path: pathname, body, idempotencyKey: request.headers.get('idempotency-key') });
  if (pathname === '/v1/users/seller-1/services/s1' || pathname === '/v1/shops/print-shop')
    return json(200, {
      success: true,
      service: { id: 's1', userId: 'seller-1', name: 'Print shop', vendor: 'mail', provider: 'sandbox', supportEmail: null },
      seller: { guid: 'seller-1', name: 'Grace' },
      products: [
        product('p1000000-digital', 'Poster file', 1250, null),
        product('p2000000-printed', 'Printed poster', 2000, { services: ['USPS_FIRST_CLASS'], options: [] }),
      ],
    });
  if (pathname === '/v1/users/seller-1/services/s1/order') {
    if (refuseOrder) return json(409, { success: false, error: 'PRODUCT_INACTIVE', detail: 'the product is not for sale' });
    return json(201, { success: true, order: { id: 'order-1' } });
  }
  if (pathname === '/v1/orders/order-1/pay') return json(200, { success: true, url: 'http://localhost/#paying-order-1' });
  if (pathname.startsWith('/v1/shops/')) return json(404, { success: false, error: 'NOT_FOUND', detail: 'no shop at this address' });
  return json(404, { success: false, error: 'NOT_FOUND' });
}

let StorefrontPage: ComponentType;
let ShopPage: ComponentType;

beforeAll(async () => {
  await preparePages(fakeGateway);
  ({ StorefrontPage, ShopPage } = await import('./StorefrontPage'));
});

beforeEach(() => {
  calls.length = 0;
  refuseOrder = false;
  window.location.hash = '';
});

function renderShop() {
  return renderRoutes('/shop/seller-1/s1', { '/shop/:guid/:serviceId': <StorefrontPage /> });
}

async function openOrderForm(name: string) {
  renderShop();
  await userEvent.click(await screen.findByRole('button', { name: `Order ${name}` }));
  return screen.getByRole('form', { name: `Order ${name}` });
}

const sent = () => calls.filter((c) => c.method === 'POST');

test('a guest orders with a checked email, a note and consent, and goes on to the payment page', async () => {
  const form = await openOrderForm('Poster file');
  expect(screen.getByText(/^Sold by Grace/)).toBeTruthy();
  await userEvent.type(within(form).getByLabelText('Email (for the receipt)'), 'not-an-email');
  await userEvent.click(within(form).getByRole('button', { name: 'Order and pay $12.50' }));
  expect(await within(form).findByText('Please enter a valid email address.')).toBeTruthy();
  expect(sent()).toEqual([]);

  const email = within(form).getByLabelText('Email (for the receipt)');
  await userEvent.clear(email);
  await userEvent.type(email, 'buyer@example.com');
  await userEvent.type(within(form).getByLabelText('Note to the seller (optional)'), '  Gift wrap, please ');
  await userEvent.click(within(form).getByLabelText('Share my contact details with the seller'));
  await userEvent.click(within(form).getByRole('button', { name: 'Order and pay $12.50' }));

  await screen.findByRole('button', { name: 'Opening the payment page…' });
  await waitFor(() => expect(window.location.hash).toBe('#paying-order-1'));
  const [order, pay] = sent();
  expect(order).toMatchObject({
    path: '/v1/users/seller-1/services/s1/order',
    body: { product: 'p1000000-digital', email: 'buyer@example.com', note: 'Gift wrap, please', share: true },
  });
  expect((order!.body as Record<string, unknown>).shipping).toBeUndefined();
  expect(pay).toMatchObject({ path: '/v1/orders/order-1/pay' });
  expect(pay!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
});

test('printed mail asks for the address and sends it with the shipping service', async () => {
  const form = await openOrderForm('Printed poster');
  await userEvent.type(within(form).getByLabelText('Email (for the receipt)'), 'buyer@example.com');
  await userEvent.click(within(form).getByRole('button', { name: 'Order and pay $20.00' }));
  expect(await within(form).findByText('Enter the street address.')).toBeTruthy();
  expect(within(form).getByText('Enter the city.')).toBeTruthy();
  expect(sent()).toEqual([]);

  await userEvent.type(within(form).getByLabelText('Recipient name'), 'Ada Lovelace');
  await userEvent.type(within(form).getByLabelText('Street address'), '1 Main St');
  await userEvent.type(within(form).getByLabelText('City'), 'Springfield');
  await userEvent.type(within(form).getByLabelText('Postal code'), '12345');
  await userEvent.click(within(form).getByRole('button', { name: 'Order and pay $20.00' }));

  await waitFor(() => expect(window.location.hash).toBe('#paying-order-1'));
  expect(sent()[0]!.body).toMatchObject({
    product: 'p2000000-printed',
    email: 'buyer@example.com',
    share: false,
    shipping: {
      service: 'USPS_FIRST_CLASS',
      options: [],
      address: { name: 'Ada Lovelace', line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' },
    },
  });
});

test("a refused order shows the server's error and the form can be sent again", async () => {
  refuseOrder = true;
  const form = await openOrderForm('Poster file');
  await userEvent.type(within(form).getByLabelText('Email (for the receipt)'), 'buyer@example.com');
  await userEvent.click(within(form).getByRole('button', { name: 'Order and pay $12.50' }));
  expect(await within(form).findByText('PRODUCT_INACTIVE - the product is not for sale')).toBeTruthy();
  const again = within(form).getByRole('button', { name: 'Order and pay $12.50' }) as HTMLButtonElement;
  expect(again.disabled).toBe(false);
  expect(sent().map((c) => c.path)).toEqual(['/v1/users/seller-1/services/s1/order']);
  expect(window.location.hash).toBe('');
});

test('the short link /s/{slug} shows the same shop, and orders go to its service', async () => {
  renderRoutes('/s/print-shop', { '/s/:slug': <ShopPage /> });
  expect(await screen.findByRole('heading', { name: 'Print shop', level: 1 })).toBeTruthy();
  const form = await (async () => {
    await userEvent.click(screen.getByRole('button', { name: 'Order Poster file' }));
    return screen.getByRole('form', { name: 'Order Poster file' });
  })();
  await userEvent.type(within(form).getByLabelText('Email (for the receipt)'), 'buyer@example.com');
  await userEvent.click(within(form).getByRole('button', { name: 'Order and pay $12.50' }));
  await waitFor(() => expect(sent().map((c) => c.path)).toEqual(['/v1/users/seller-1/services/s1/order', '/v1/orders/order-1/pay']));
});

test('an unknown short link says there is no shop at this address', async () => {
  renderRoutes('/s/nobody-here', { '/s/:slug': <ShopPage /> });
  expect(await screen.findByRole('heading', { name: 'No shop at this address', level: 1 })).toBeTruthy();
  expect(calls.map((c) => c.path)).toEqual(['/v1/shops/nobody-here']);
});
