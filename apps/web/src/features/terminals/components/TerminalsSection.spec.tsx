/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * Registering this browser as a terminal, as a signed-in user does it on /account#terminals: the form
 * sends what the user chose (with the session's token), the browser keeps the terminal token, and the
 * section turns into this terminal's controls; a refused registration shows the server's detail, or
 * the fixed text when there is none, a refusal of the name under its field. Removing a terminal (another, or this
 * browser) asks first in its place: the focus on "Keep it", Escape keeps it and gives the focus back to Remove;
 * once it is gone the focus goes to the next terminal's Remove or a heading. Fetch is faked at the boundary, and the browser's database
 * (IndexedDB, which jsdom lacks) is in memory (shared/storage/db.fake.ts); everything above them is real.
 */
import { beforeAll, beforeEach, expect, jest, test } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { fakeDb } from '../../../shared/storage/db.fake';
import { installGateway, json, profileAnswer, record, type RecordedCall } from '../../../shared/gateway.fake';

const calls: RecordedCall[] = [];
let registered: Record<string, unknown>[] = [];
let refusal: { status: number; body: unknown } | null = null;

/** What the server adds to a registered terminal. */
const SERVER_FIELDS = {
  destination: null,
  subscribed: false,
  inbox: 0,
  app: null,
  created: '2026-11-25T10:00:00.000Z',
  modified: '2026-11-25T10:00:00.000Z',
};

async function fakeGateway(request: Request): Promise<Response> {
  const { pathname, body } = await record(calls, request);
  if (pathname === '/v1/users/me') return profileAnswer();
  if (request.method === 'DELETE' && pathname.startsWith('/v1/terminals/')) {
    const id = pathname.split('/')[3];
    registered = registered.filter((t) => t.id !== id);
    return json(200, { success: true });
  }
  if (pathname === '/v1/terminals' && request.method === 'GET') return json(200, { success: true, terminals: registered });
  if (pathname === '/v1/terminals' && request.method === 'POST') {
    if (refusal) return json(refusal.status, refusal.body);
    const terminal = { ...(body as Record<string, unknown>), ...SERVER_FIELDS, id: '0b7a3c1e-5f2d-4c8e-9a61-3d2f4e5a6b7c' };
    registered = [terminal];
    return json(201, { success: true, terminal, terminalToken: 'terminal-token-1' });
  }
  return json(404, { success: false, error: 'NOT_FOUND' });
}

const storage = fakeDb();
const stored = storage.kv;
let TerminalsSection: ComponentType;

beforeAll(async () => {
  // The browser's database (jsdom has none), in memory.
  jest.unstable_mockModule('../../../shared/storage/db', () => storage.module);
  installGateway(fakeGateway);
  const { session } = await import('../../../shared/session/session');
  await session.adopt('session-token');
  ({ TerminalsSection } = await import('./TerminalsSection'));
});

beforeEach(() => {
  calls.length = 0;
  stored.delete('terminalId');
  stored.delete('terminalToken');
  registered = [];
  refusal = null;
});

function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/account']}>
        <TerminalsSection />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

test('registers this browser with the chosen name and roles, keeps its token and shows its controls', async () => {
  renderSection();
  const form = await screen.findByRole('form', { name: 'Register this browser' });
  expect(screen.getByText('No terminals yet: register this browser above, then your others.')).toBeTruthy();
  const label = within(form).getByLabelText('What to call this browser');
  await userEvent.clear(label);
  await userEvent.type(label, 'Work laptop');
  await userEvent.click(within(form).getByLabelText('Sends shares'));
  await userEvent.click(within(form).getByRole('button', { name: 'Register this browser' }));

  expect(await screen.findByRole('heading', { name: 'This browser: Work laptop' })).toBeTruthy();
  expect(screen.queryByRole('form', { name: 'Register this browser' })).toBeNull();
  expect(within(screen.getByRole('list', { name: 'Your terminals' })).getByText('Work laptop (this browser)')).toBeTruthy();
  expect(stored.get('terminalId')).toBe('0b7a3c1e-5f2d-4c8e-9a61-3d2f4e5a6b7c');
  expect(stored.get('terminalToken')).toBe('terminal-token-1');

  const made = calls.filter((c) => c.path !== '/v1/users/me');
  expect(made.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v1/terminals', 'POST /v1/terminals', 'GET /v1/terminals']);
  expect(made[1]!.body).toMatchObject({
    label: 'Work laptop',
    send: false,
    receive: true,
    active: true,
    platform: 'Browser (desktop)',
    remote: false,
    capabilities: expect.arrayContaining(['share-target']),
  });
  expect(new Set(made.map((c) => c.authorization))).toEqual(new Set(['Bearer session-token']));
});

test('an empty name cannot be registered', async () => {
  renderSection();
  const form = await screen.findByRole('form', { name: 'Register this browser' });
  await userEvent.clear(within(form).getByLabelText('What to call this browser'));
  expect((within(form).getByRole('button', { name: 'Register this browser' }) as HTMLButtonElement).disabled).toBe(true);
});

test("a refused registration shows the server's detail and keeps the form", async () => {
  refusal = { status: 409, body: { success: false, error: 'TERMINAL_LIMIT', detail: 'an account has at most 50 terminals' } };
  renderSection();
  const form = await screen.findByRole('form', { name: 'Register this browser' });
  await userEvent.click(within(form).getByRole('button', { name: 'Register this browser' }));
  expect(await within(form).findByText('TERMINAL_LIMIT - an account has at most 50 terminals')).toBeTruthy();
  expect(within(form).getByRole('button', { name: 'Register this browser' })).toBeTruthy();
  expect(stored.has('terminalToken')).toBe(false);
});

test('a refusal without a detail shows the fixed text', async () => {
  refusal = { status: 500, body: { success: false, error: 'INTERNAL' } };
  renderSection();
  const form = await screen.findByRole('form', { name: 'Register this browser' });
  await userEvent.click(within(form).getByRole('button', { name: 'Register this browser' }));
  expect(await within(form).findByText('error registering terminal')).toBeTruthy();
});

/** A terminal of the account as the server lists it. */
const listed = (id: string, label: string) => ({
  id,
  label,
  send: true,
  receive: true,
  active: true,
  platform: 'Browser (desktop)',
  capabilities: [],
  remote: false,
  details: {},
  ...SERVER_FIELDS,
});

test('a refused name shows under its field, named by it, and the field takes the focus', async () => {
  refusal = { status: 400, body: { success: false, error: 'VALIDATION', detail: 'label may have at most 80 characters' } };
  renderSection();
  const form = await screen.findByRole('form', { name: 'Register this browser' });
  await userEvent.click(within(form).getByRole('button', { name: 'Register this browser' }));
  const field = within(form).getByLabelText('What to call this browser');
  expect(await within(form).findByText('Name may have at most 80 characters.')).toBeTruthy();
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(field.getAttribute('aria-describedby')).toBe('terminal-label-error');
  expect(document.activeElement).toBe(field);
  expect(within(form).queryByRole('alert')).toBeNull();
});

test('Remove asks in the row; Escape keeps the terminal, a removal moves the focus to the next Remove, then the heading', async () => {
  registered = [listed('11111111-1111-4111-8111-111111111111', 'Laptop'), listed('22222222-2222-4222-8222-222222222222', 'Phone')];
  renderSection();
  await userEvent.click(await screen.findByRole('button', { name: 'Remove Laptop' }));
  const confirm = screen.getByRole('group', { name: 'Remove Laptop?' });
  expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Keep it' }));
  await userEvent.keyboard('{Escape}');
  expect(screen.queryByRole('group', { name: 'Remove Laptop?' })).toBeNull();
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove Laptop' }));
  expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

  await userEvent.click(screen.getByRole('button', { name: 'Remove Laptop' }));
  await userEvent.click(within(screen.getByRole('group', { name: 'Remove Laptop?' })).getByRole('button', { name: 'Remove' }));
  await waitFor(() => expect(screen.queryByText('Laptop')).toBeNull());
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove Phone' }));

  await userEvent.click(screen.getByRole('button', { name: 'Remove Phone' }));
  await userEvent.click(within(screen.getByRole('group', { name: 'Remove Phone?' })).getByRole('button', { name: 'Remove' }));
  expect(await screen.findByText('No terminals yet: register this browser above, then your others.')).toBeTruthy();
  expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Terminals' }));
  expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
    '/v1/terminals/11111111-1111-4111-8111-111111111111',
    '/v1/terminals/22222222-2222-4222-8222-222222222222',
  ]);
});

test('"Remove this browser" asks first; once removed, the registration form has the focus on its heading', async () => {
  const mine = '0b7a3c1e-5f2d-4c8e-9a61-3d2f4e5a6b7c';
  registered = [listed(mine, 'Work laptop')];
  stored.set('terminalId', mine);
  stored.set('terminalToken', 'terminal-token-1');
  renderSection();
  await userEvent.click(await screen.findByRole('button', { name: 'Remove this browser' }));
  const confirm = screen.getByRole('group', { name: 'Remove this browser?' });
  expect(within(confirm).getByText(/^Work laptop stops being a terminal/)).toBeTruthy();
  await userEvent.click(within(confirm).getByRole('button', { name: 'Keep it' }));
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove this browser' }));

  await userEvent.click(screen.getByRole('button', { name: 'Remove this browser' }));
  await userEvent.click(within(screen.getByRole('group', { name: 'Remove this browser?' })).getByRole('button', { name: 'Remove' }));
  const form = await screen.findByRole('form', { name: 'Register this browser' });
  expect(document.activeElement).toBe(within(form).getByRole('heading', { name: 'This browser' }));
  expect(stored.has('terminalToken')).toBe(false);
});
