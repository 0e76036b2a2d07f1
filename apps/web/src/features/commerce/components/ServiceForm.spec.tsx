/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * Selling setup asks for the name buyers see (a service's displayName): a new service starts from the
 * profile name, the field is required, and its error (empty here, or the server's refusal) is shown
 * on that field in words, with the keyboard taken there. Fetch is faked at the boundary.
 */
import { beforeAll, beforeEach, expect, test } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { json, record, type RecordedCall } from '../../../shared/gateway.fake';
import { preparePages, renderRoutes } from '../pages/render.fake';

const profile = (name: string) => ({ guid: 'u1', email: 'ada@example.com', name, tz: 'UTC', active: true, verified: true, context: {} });
let profileName = 'Ada Lovelace';
const calls: RecordedCall[] = [];

async function fakeGateway(request: Request): Promise<Response> {
  const { pathname, body } = await record(calls, request);
  if (pathname === '/v1/users/me') return json(200, { success: true, ...profile(profileName), services: [] });
  if (pathname === '/v1/paymentinstruments') return json(200, { success: true, instruments: [], providers: ['sandbox'] });
  if (pathname === '/v1/fulfillment' || pathname === '/v1/orders') return json(200, { success: true, orders: [], total: 0 });
  if (pathname === '/v1/users/u1/services' && request.method === 'POST') {
    const { displayName } = body as { displayName: string };
    if (displayName === 'Refuse me')
      return json(400, {
        success: false,
        error: 'VALIDATION_FAILED',
        detail: 'displayName is required: the name buyers see as the seller',
      });
    const now = '2026-11-01T10:00:00.000Z';
    return json(201, { success: true, service: { id: 's1', ...(body as object), slug: null, created: now, modified: now } });
  }
  return json(404, { success: false, error: 'NOT_FOUND' });
}

let SellingSection: ComponentType;
let login: (name: string) => Promise<void>;

beforeAll(async () => {
  await preparePages(fakeGateway);
  const { session } = await import('../../../shared/session/session');
  login = (name) => session.login({ token: 'signed-in', profile: profile(name), verified: true }, { broadcast: false });
  ({ SellingSection } = await import('./SellingSection'));
});

beforeEach(() => {
  calls.length = 0;
});

const serviceSaves = () => calls.filter((c) => c.method === 'POST' && c.path === '/v1/users/u1/services');

async function openNewService(name: string) {
  profileName = name;
  await login(name);
  renderRoutes('/account', { '/account': <SellingSection /> });
  await userEvent.click(await screen.findByRole('button', { name: 'New service' }));
  await userEvent.type(screen.getByLabelText('Service name'), 'Prints');
  return screen.getByLabelText('Seller name buyers see') as HTMLInputElement;
}

test('a new service starts with the profile name as the name buyers see, and sends it trimmed', async () => {
  const field = await openNewService('Ada Lovelace');
  expect(field.value).toBe('Ada Lovelace');
  await userEvent.type(field, '  ');
  await userEvent.click(screen.getByRole('button', { name: 'Create service' }));
  await waitFor(() => expect(serviceSaves()).toHaveLength(1));
  expect(serviceSaves()[0]!.body).toMatchObject({ name: 'Prints', displayName: 'Ada Lovelace' });
});

test('without a profile name the field starts empty and is required: the error is on the field, nothing is sent', async () => {
  const field = await openNewService('');
  expect(field.value).toBe('');
  await userEvent.type(field, '   ');
  await userEvent.click(screen.getByRole('button', { name: 'Create service' }));
  const error = 'Enter the name buyers see: your name or your shop’s.';
  expect(screen.getByRole('textbox', { name: 'Seller name buyers see', description: new RegExp(error) })).toBe(field);
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(document.activeElement).toBe(field);
  expect(serviceSaves()).toEqual([]);

  await userEvent.type(field, 'Riso Corner');
  expect(screen.queryByText(error)).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: 'Create service' }));
  await waitFor(() => expect(serviceSaves()).toHaveLength(1));
  expect(serviceSaves()[0]!.body).toMatchObject({ displayName: 'Riso Corner' });
});

test('the server’s refusal of the name is shown on the field, not as a form error', async () => {
  const field = await openNewService('');
  await userEvent.type(field, 'Refuse me');
  await userEvent.click(screen.getByRole('button', { name: 'Create service' }));
  expect(await screen.findByText('The name buyers see is needed, at most 80 characters.')).toBeTruthy();
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(screen.queryByText(/VALIDATION_FAILED/)).toBeNull();
  await userEvent.type(field, '!');
  expect(screen.queryByText('The name buyers see is needed, at most 80 characters.')).toBeNull();
});
