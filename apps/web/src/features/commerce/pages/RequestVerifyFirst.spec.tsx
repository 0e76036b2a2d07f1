/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * A payment request (/requests/{id}) opened without the emailed link's key by a viewer signed in with an
 * address that is not verified yet: the gateway answers 404 (the payer must verify first), and the page
 * says what to do instead of "Page not found" — verify, or open the request's email — with the
 * verification link sent again on request (leading back here). It says the same whether the request
 * exists or not, and nothing of it. With a key, a 404 is still "Page not found". Fetch is faked at the
 * boundary; everything above it is real.
 */
import { beforeAll, beforeEach, expect, test } from '@jest/globals';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { json, record, type RecordedCall } from '../../../shared/gateway.fake';
import { preparePages, renderRoutes } from './render.fake';

const calls: RecordedCall[] = [];

async function fakeGateway(request: Request): Promise<Response> {
  const { pathname } = await record(calls, request);
  if (pathname === '/v1/users/me')
    return json(200, { success: true, guid: 'u1', email: 'payer@example.com', name: '', tz: 'UTC', active: true, verified: false });
  if (pathname === '/v1/users/u1/requestverification') return json(200, { success: true, sent: true });
  // Requests exist or not: the answer to this viewer is the same 404.
  return json(404, { success: false, error: 'NOT_FOUND', detail: 'no such request' });
}

let RequestPage: ComponentType;

beforeAll(async () => {
  await preparePages(fakeGateway, 'unverified-token');
  ({ RequestPage } = await import('./RequestPage'));
});

beforeEach(() => {
  calls.length = 0;
});

const open = (path: string) => renderRoutes(path, { '/requests/:requestId': <RequestPage /> });

test('without the key, an unverified viewer is told to verify their address, and can have the link sent again', async () => {
  open('/requests/req-1');
  expect(await screen.findByRole('heading', { level: 1, name: 'Verify your email address to see this request' })).toBeTruthy();
  expect(screen.queryByText('Page not found')).toBeNull();
  const main = screen.getByRole('region', { name: 'Your address is not verified yet' });
  expect(main.textContent).toContain('You are signed in as payer@example.com.');
  expect(main.textContent).toContain('The link in the request’s own email opens it too.');

  await userEvent.click(screen.getByRole('button', { name: 'Email me the link again' }));
  await screen.findByRole('button', { name: 'Email me the link again' });
  const sent = calls.filter((c) => c.path === '/v1/users/u1/requestverification');
  expect(sent).toHaveLength(1);
  expect(sent[0]!.body).toEqual({ returnTo: '/requests/req-1' });
  expect(sent[0]!.authorization).toBe('Bearer unverified-token');
});

test('the page is the same for a request that does not exist: nothing of a request is shown', async () => {
  const { container } = open('/requests/some-other-id');
  await screen.findByRole('heading', { level: 1, name: 'Verify your email address to see this request' });
  expect(container.textContent).not.toMatch(/some-other-id|\$|Requested by/);
});

test('with a key that does not open it, the page is still not found', async () => {
  open('/requests/req-1?key=wrong');
  expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: /link again/ })).toBeNull();
});
