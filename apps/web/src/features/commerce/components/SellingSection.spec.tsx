/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * /account#selling for a returning seller: signed IN (the sign-in's profile carries no services), the
 * services and their products show at once, without a reload. The service form does not offer Stripe
 * where the site has no Stripe set up, and says why in words for people (never an operator setting).
 * Its inline forms open next to what opened them, take the focus and give it back (Escape, Cancel), and
 * say errors on their fields (docs/web-app.md#inline-forms).
 * Fetch is faked at the boundary; everything above it is real.
 */
import { beforeAll, beforeEach, expect, test } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { json } from '../../../shared/gateway.fake';
import { prepareSelling, productAnswer, renderRoutes } from '../pages/render.fake';

const profile = { guid: 'u1', email: 'ada@example.com', name: 'Ada', tz: 'UTC', active: true, verified: true, context: {} };
const service = {
  id: 's1',
  name: 'Ada Prints',
  displayName: 'Ada Lovelace',
  provider: 'sandbox',
  vendor: 'digital',
  account: 'sandbox_ada',
  created: '2026-11-01T10:00:00.000Z',
  modified: '2026-11-01T10:00:00.000Z',
};
const product = productAnswer({ id: 'p1', serviceId: 's1', userId: 'u1', name: 'Poster', price: 1250 });
let providers: string[] = [];
let products = [product];

async function fakeGateway(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === '/v1/users/me')
    return json(200, { success: true, ...profile, ...(url.searchParams.get('include') === 'services' ? { services: [service] } : {}) });
  if (url.pathname === '/v1/users/u1/services/s1/products' && request.method === 'POST')
    return json(400, { success: false, error: 'VALIDATION_FAILED', detail: 'price must not be greater than 99999999' });
  if (url.pathname === '/v1/users/u1/services/s1/products') return json(200, { success: true, products, servicetype: 'digital' });
  if (url.pathname.startsWith('/v1/users/u1/services/s1/products/') && request.method === 'DELETE') {
    products = products.filter((p) => p.id !== url.pathname.split('/').pop());
    return json(200, { success: true, deleted: true });
  }
  if (url.pathname === '/v1/fulfillment' || url.pathname === '/v1/orders') return json(200, { success: true, orders: [], total: 0 });
  if (url.pathname === '/v1/paymentinstruments') return json(200, { success: true, instruments: [], providers });
  return json(404, { success: false, error: 'NOT_FOUND' });
}

let SellingSection: ComponentType;

beforeAll(async () => {
  // Signing in answers the profile without the services (as POST /v1/users/{email}/signin does).
  SellingSection = await prepareSelling(fakeGateway, profile);
});

beforeEach(() => {
  providers = ['sandbox'];
  products = [product];
});

const renderSelling = () => renderRoutes('/account', { '/account': <SellingSection /> });

test('a seller who just signed in sees their services and products at once', async () => {
  renderSelling();
  const block = await screen.findByRole('article', { name: 'Ada Prints' });
  expect(await within(block).findByText('Poster')).toBeTruthy();
  expect(within(block).getByText('Buyers see you as Ada Lovelace.')).toBeTruthy();
  expect(screen.queryByText(/create a service/)).toBeNull();
});

test('without Stripe on the site the service form offers the sandbox only, and says why', async () => {
  renderSelling();
  await userEvent.click(await screen.findByRole('button', { name: 'New service' }));
  const select = screen.getByLabelText('Payment provider');
  const stripe = (await within(select).findByRole('option', { name: 'Stripe (not available on this site yet)' })) as HTMLOptionElement;
  expect(stripe.disabled).toBe(true);
  expect(select).toBe(
    screen.getByRole('combobox', {
      name: 'Payment provider',
      description:
        'Card payments through Stripe are not available on this site yet. The sandbox takes test payments with nothing to set up.',
    }),
  );
  expect(screen.queryByText(/STRIPE_SECRET_KEY/)).toBeNull();
});

test('with Stripe on the site the service form offers it', async () => {
  providers = ['stripe', 'sandbox'];
  renderSelling();
  await userEvent.click(await screen.findByRole('button', { name: 'New service' }));
  const select = screen.getByLabelText('Payment provider');
  const stripe = (await within(select).findByRole('option', { name: 'Stripe (your connected account)' })) as HTMLOptionElement;
  expect(stripe.disabled).toBe(false);
  expect(screen.queryByText(/not available on this site/)).toBeNull();
});

test('Request payment opens under its product with the focus in it; Escape closes it and the focus returns', async () => {
  const user = userEvent.setup();
  renderSelling();
  const block = await screen.findByRole('article', { name: 'Ada Prints' });
  const opener = await within(block).findByRole('button', { name: 'Request payment for Poster' });
  expect(opener.getAttribute('aria-expanded')).toBe('false');
  await user.click(opener);
  const form = screen.getByRole('form', { name: 'Request payment for Poster' });
  const row = within(block).getByText('Poster').closest('li')!;
  expect(row.contains(form)).toBe(true);
  expect(opener.getAttribute('aria-expanded')).toBe('true');
  expect(document.activeElement).toBe(within(form).getByLabelText('Their email'));
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('form', { name: 'Request payment for Poster' })).toBeNull();
  expect(document.activeElement).toBe(opener);
});

test('Add product says what is wrong on the field, named by it, before and after the server answers', async () => {
  const user = userEvent.setup();
  renderSelling();
  const block = await screen.findByRole('article', { name: 'Ada Prints' });
  await user.click(await within(block).findByRole('button', { name: 'Add product' }));
  const form = screen.getByRole('form', { name: 'New product' });
  const name = within(form).getByLabelText('Product name');
  expect(document.activeElement).toBe(name);
  await user.click(within(form).getByRole('button', { name: 'Add product' }));
  expect(name.getAttribute('aria-invalid')).toBe('true');
  expect(within(form).getByText('Product name: Give the product a name.')).toBeTruthy();
  expect(document.activeElement).toBe(name);

  await user.type(name, 'Mural');
  const price = within(form).getByLabelText('Price (US dollars)');
  await user.type(price, '12');
  await user.click(within(form).getByRole('button', { name: 'Add product' }));
  const error = await within(form).findByText('Price must not be greater than 99999999.');
  expect(price.getAttribute('aria-describedby')).toBe(error.id);
  expect(document.activeElement).toBe(price);
  expect(name.getAttribute('aria-invalid')).toBeNull();
  expect(within(form).queryByRole('alert')).toBeNull();

  await user.click(within(form).getByRole('button', { name: 'Cancel' }));
  expect(document.activeElement).toBe(within(block).getByRole('button', { name: 'Add product' }));
});

test('a deleted product leaves the focus on the next product’s Delete, the last one on the service’s heading', async () => {
  products = [product, productAnswer({ id: 'p2', serviceId: 's1', userId: 'u1', name: 'Mug', price: 900 })];
  const user = userEvent.setup();
  renderSelling();
  const block = await screen.findByRole('article', { name: 'Ada Prints' });
  await user.click(await within(block).findByRole('button', { name: 'Delete Poster' }));
  expect(document.activeElement).toBe(within(block).getByRole('button', { name: 'Keep' }));
  await user.click(within(block).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(within(block).queryByText('Poster')).toBeNull());
  expect(document.activeElement).toBe(within(block).getByRole('button', { name: 'Delete Mug' }));
  await user.click(within(block).getByRole('button', { name: 'Delete Mug' }));
  await user.click(within(block).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(within(block).queryByText('Mug')).toBeNull());
  expect(document.activeElement).toBe(within(block).getByRole('heading', { name: 'Ada Prints' }));
});
