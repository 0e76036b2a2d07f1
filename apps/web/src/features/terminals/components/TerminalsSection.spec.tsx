/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * Registering this browser as a terminal, as a signed-in user does it on /account#terminals: the form
 * sends what the user chose (with the session's token), the browser keeps the terminal token, and the
 * section turns into this terminal's controls; a refused registration shows the server's detail, or
 * the fixed text when there is none. Fetch is faked at the boundary, and the browser's database
 * (IndexedDB, which jsdom lacks) is in memory (shared/storage/db.fake.ts); everything above them is real.
 */
import { beforeAll, beforeEach, expect, jest, test } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { fakeDb } from '../../../shared/storage/db.fake';
import { installGateway, json, profileAnswer, record, type RecordedCall } from '../../../shared/gateway.fake';

const calls: RecordedCall[] = [];
let registered: Record<string, unknown>[] = [];
let refusal: { status: number; body: unknown } | null = null;

async function fakeGateway(request: Request): Promise<Response> {
  const { pathname, body } = await record(calls, request);
  if (pathname === '/v1/users/me') return profileAnswer();
  if (pathname === '/v1/terminals' && request.method === 'GET') return json(200, { success: true, terminals: registered });
  if (pathname === '/v1/terminals' && request.method === 'POST') {
    if (refusal) return json(refusal.status, refusal.body);
    const terminal = {
      ...(body as Record<string, unknown>),
      id: '0b7a3c1e-5f2d-4c8e-9a61-3d2f4e5a6b7c',
      destination: null,
      subscribed: false,
      inbox: 0,
      app: null,
      created: '2026-11-25T10:00:00.000Z',
      modified: '2026-11-25T10:00:00.000Z',
    };
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
