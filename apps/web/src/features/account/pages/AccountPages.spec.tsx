/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * The account's profile section as a keyboard user meets it: asking for a password link replaces the
 * button with its answer, and focus moves to that answer instead of falling to the page's body.
 * Fetch is faked at the boundary; everything above it is real.
 */
import { beforeAll, expect, test } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { json, profileAnswer, record, type RecordedCall } from '../../../shared/gateway.fake';
import { preparePages, renderRoutes } from '../../commerce/pages/render.fake';

const calls: RecordedCall[] = [];

async function fakeGateway(request: Request): Promise<Response> {
  const { pathname } = await record(calls, request);
  if (pathname === '/v1/users/me') return profileAnswer();
  if (pathname === '/v1/account/resetpassword/setup') return json(200, { success: true });
  return json(404, { success: false, error: 'NOT_FOUND' });
}

let AccountPage: ComponentType;

beforeAll(async () => {
  await preparePages(fakeGateway, 'session-token');
  ({ AccountPage } = await import('./AccountPages'));
});

test('sending a password link moves focus to its answer', async () => {
  renderRoutes('/account', { '/account/*': <AccountPage /> });
  const button = await screen.findByRole('button', { name: 'Email me a password link' });
  button.focus();
  await userEvent.keyboard('{Enter}');
  const answer = await screen.findByText(/We emailed you a link to choose a new password/);
  await waitFor(() => expect(document.activeElement).toBe(answer));
  expect(calls.filter((c) => c.path === '/v1/account/resetpassword/setup').map((c) => c.body)).toEqual([{ email: expect.any(String) }]);
});
