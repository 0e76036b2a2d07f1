/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * The OAuth apps of /account as a developer uses them: registering an app sends what the form holds
 * (with the session's token), shows the client secret once (Done takes it away for good) and lists the
 * app; a registration the server refuses shows its error and detail in the form, which keeps what was
 * typed. Fetch is faked at the boundary; everything above it is real.
 */
import { beforeAll, beforeEach, expect, test } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { installGateway, json, profileAnswer, record, type RecordedCall } from '../../../shared/gateway.fake';

const calls: RecordedCall[] = [];
let apps: Record<string, unknown>[] = [];
let refusal: { error: string; detail: string } | null = null;

async function fakeGateway(request: Request): Promise<Response> {
  const { pathname, body } = await record(calls, request);
  if (pathname === '/v1/users/me') return profileAnswer();
  if (pathname === '/v1/oauth2/consents') return json(200, { success: true, consents: [] });
  if (pathname === '/v1/oauth2/apps' && request.method === 'GET') return json(200, { success: true, apps });
  if (pathname === '/v1/oauth2/apps' && request.method === 'POST') {
    if (refusal) return json(400, { success: false, ...refusal });
    const app = { ...(body as Record<string, unknown>), id: 'client-1', created: '2026-11-25T10:00:00.000Z' };
    apps = [app];
    return json(201, { success: true, app, clientSecret: 'tds_secret-1' });
  }
  if (pathname === '/v1/oauth2/apps/client-1' && request.method === 'PATCH') {
    if (refusal) return json(400, { success: false, ...refusal });
    const app = { ...apps[0], ...(body as Record<string, unknown>) };
    apps = [app];
    return json(200, { success: true, app });
  }
  return json(404, { success: false, error: 'NOT_FOUND' });
}

let AppsSection: ComponentType;

beforeAll(async () => {
  installGateway(fakeGateway);
  const { session } = await import('../../../shared/session/session');
  await session.adopt('session-token');
  ({ AppsSection } = await import('./AppsSection'));
});

beforeEach(() => {
  calls.length = 0;
  apps = [];
  refusal = null;
});

function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <AppsSection />
    </QueryClientProvider>,
  );
}

async function fillForm(user: ReturnType<typeof userEvent.setup>, uris: string) {
  await user.click(await screen.findByRole('button', { name: 'Register an app' }));
  await user.type(screen.getByLabelText('What to call the app'), 'Reports');
  await user.type(screen.getByLabelText('Redirect URIs (one per line)'), uris);
}

test('registering an app shows its secret once and lists the app', async () => {
  const user = userEvent.setup();
  renderSection();
  expect(await screen.findByText('No apps registered yet.')).toBeTruthy();
  await fillForm(user, 'https://reports.example.com/callback{enter}https://reports.example.com/other');
  await user.click(screen.getByRole('button', { name: 'Register app' }));

  const notice = await screen.findByText('Copy the secret now: it is shown only once.');
  const created = notice.closest('.app-created') as HTMLElement;
  expect(within(created).getByText('tds_secret-1')).toBeTruthy();
  expect(within(created).getByText(/is registered/)).toBeTruthy();
  const sent = calls.find((c) => c.method === 'POST');
  expect(sent).toEqual({
    method: 'POST',
    path: '/v1/oauth2/apps',
    authorization: 'Bearer session-token',
    body: {
      name: 'Reports',
      redirectUris: ['https://reports.example.com/callback', 'https://reports.example.com/other'],
      scopes: ['openid', 'profile'],
      tokenEndpointAuthMethod: 'client_secret_basic',
    },
  });
  // The form closed, and the list was loaded again with the new app.
  expect(screen.queryByRole('form', { name: 'Register an app' })).toBeNull();
  expect(await screen.findByText('https://reports.example.com/other')).toBeTruthy();
  expect(screen.queryByText('No apps registered yet.')).toBeNull();

  await user.click(within(created).getByRole('button', { name: 'Done' }));
  expect(screen.queryByText('tds_secret-1')).toBeNull();
  expect(screen.queryByText(/Copy the secret now/)).toBeNull();
});

test('a refused registration shows the error in the form and keeps what was typed', async () => {
  refusal = { error: 'VALIDATION_FAILED', detail: 'scopes may list at most 20' };
  const user = userEvent.setup();
  renderSection();
  await fillForm(user, 'http://reports.example.com/callback');
  await user.click(screen.getByRole('button', { name: 'Register app' }));

  const form = screen.getByRole('form', { name: 'Register an app' });
  expect((await within(form).findByRole('alert')).textContent).toBe(
    'Some of what was entered is not accepted; the details say which part.\nDetails: VALIDATION_FAILED - scopes may list at most 20',
  );
  expect((within(form).getByLabelText('What to call the app') as HTMLInputElement).value).toBe('Reports');
  expect(screen.queryByText(/Client secret/)).toBeNull();
  expect(within(form).getByRole('button', { name: 'Register app' }).hasAttribute('disabled')).toBe(false);

  // Sent again once fixed: the error goes, the secret shows.
  refusal = null;
  await user.click(within(form).getByRole('button', { name: 'Register app' }));
  expect(await screen.findByText('tds_secret-1')).toBeTruthy();
  expect(screen.queryByRole('alert')).toBeNull();
});

test('registration sends who makes the app and its links, trimmed, and leaves out the ones left empty', async () => {
  const user = userEvent.setup();
  renderSection();
  await fillForm(user, 'https://reports.example.com/callback');
  const form = screen.getByRole('form', { name: 'Register an app' });
  await user.type(within(form).getByLabelText('Made by (a person or a company)'), '  Reports Ltd ');
  await user.type(within(form).getByLabelText('Contact for users (an email address or a URL)'), 'help@reports.example.com');
  await user.type(within(form).getByLabelText('Privacy policy (http or https)'), 'https://reports.example.com/privacy');
  await user.click(within(form).getByRole('button', { name: 'Register app' }));

  expect(await screen.findByText('tds_secret-1')).toBeTruthy();
  expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
    name: 'Reports',
    redirectUris: ['https://reports.example.com/callback'],
    scopes: ['openid', 'profile'],
    tokenEndpointAuthMethod: 'client_secret_basic',
    developerName: 'Reports Ltd',
    developerContact: 'help@reports.example.com',
    privacyUrl: 'https://reports.example.com/privacy',
  });
});

test('a refusal that names a field shows on that field, not above the buttons', async () => {
  refusal = { error: 'VALIDATION_FAILED', detail: 'homepageUrl must be an http or https address' };
  const user = userEvent.setup();
  renderSection();
  await fillForm(user, 'https://reports.example.com/callback');
  const form = screen.getByRole('form', { name: 'Register an app' });
  await user.type(within(form).getByLabelText('Website (http or https)'), 'https://reports.example.com');
  await user.click(within(form).getByRole('button', { name: 'Register app' }));

  const website = within(form).getByLabelText('Website (http or https)');
  await screen.findByText(/homepageUrl must be an http or https address/);
  expect(website.getAttribute('aria-invalid')).toBe('true');
  const described = document.getElementById(website.getAttribute('aria-describedby')!);
  expect(described?.textContent).toContain('VALIDATION_FAILED - homepageUrl must be an http or https address');
  expect(within(form).getByLabelText('What to call the app').getAttribute('aria-invalid')).toBe('false');
  expect(within(form).queryByRole('alert')).toBeNull();
});

test("Edit changes an app's name, links and developer through PATCH, and shows a refused field on it", async () => {
  apps = [
    {
      id: 'client-1',
      name: 'Reports',
      redirectUris: ['https://reports.example.com/callback'],
      scopes: ['openid'],
      tokenEndpointAuthMethod: 'client_secret_basic',
      created: '2026-11-25T10:00:00.000Z',
      developerName: 'Reports Ltd',
    },
  ];
  const user = userEvent.setup();
  renderSection();
  await user.click(await screen.findByRole('button', { name: 'Edit' }));
  const form = screen.getByRole('form', { name: 'Edit Reports' });
  const uris = within(form).getByLabelText('Redirect URIs (one per line)');
  await user.clear(uris);
  await user.type(uris, 'http://reports.example.com/cb');
  refusal = { error: 'VALIDATION_FAILED', detail: 'redirectUris must use https (http only on localhost)' };
  await user.click(within(form).getByRole('button', { name: 'Save changes' }));
  await screen.findByText(/redirectUris must use https/);
  expect(uris.getAttribute('aria-invalid')).toBe('true');

  refusal = null;
  await user.clear(uris);
  await user.type(uris, 'https://reports.example.com/cb');
  await user.clear(within(form).getByLabelText('What to call the app'));
  await user.type(within(form).getByLabelText('What to call the app'), 'Reports 2');
  await user.type(within(form).getByLabelText('Terms (http or https)'), 'https://reports.example.com/terms');
  await user.click(within(form).getByRole('button', { name: 'Save changes' }));

  expect(await screen.findByText('Reports 2')).toBeTruthy();
  expect(screen.queryByRole('form', { name: /^Edit / })).toBeNull();
  const patches = calls.filter((c) => c.method === 'PATCH');
  expect(patches.at(-1)).toEqual({
    method: 'PATCH',
    path: '/v1/oauth2/apps/client-1',
    authorization: 'Bearer session-token',
    body: {
      name: 'Reports 2',
      redirectUris: ['https://reports.example.com/cb'],
      developerName: 'Reports Ltd',
      developerContact: '',
      homepageUrl: '',
      privacyUrl: '',
      termsUrl: 'https://reports.example.com/terms',
    },
  });
});
