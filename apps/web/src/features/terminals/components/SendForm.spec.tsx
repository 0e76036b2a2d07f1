/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * Which terminal "Send to a terminal" chooses at first: another device, never this browser itself
 * (listed last and named so), unless this browser is the only terminal that receives.
 */
import { beforeAll, expect, jest, test } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TerminalView } from '@tinkerdesk/contracts/web';
import type { ComponentType } from 'react';
import { fakeDb } from '../../../shared/storage/db.fake';
import { installGateway, json } from '../../../shared/gateway.fake';

let SendForm: ComponentType<{ terminals: TerminalView[]; mine?: string | null }>;

beforeAll(async () => {
  jest.unstable_mockModule('../../../shared/storage/db', () => fakeDb().module);
  installGateway(() => Promise.resolve(json(404, { success: false, error: 'NOT_FOUND' })));
  ({ SendForm } = await import('./SendForm'));
});

const terminal = (id: string, label: string, fields: Partial<TerminalView> = {}) =>
  ({ id, label, active: true, receive: true, send: true, destination: null, ...fields }) as TerminalView;

function renderForm(terminals: TerminalView[], mine: string | null) {
  const client = new QueryClient();
  render(
    <QueryClientProvider client={client}>
      <SendForm terminals={terminals} mine={mine} />
    </QueryClientProvider>,
  );
  const select = screen.getByLabelText('To') as HTMLSelectElement;
  return { chosen: select.value, options: [...select.options].map((o) => o.textContent) };
}

test('chooses another device first; this browser is listed last, named so', () => {
  const form = renderForm(
    [terminal('t-here', 'Laptop'), terminal('t-phone', 'Phone'), terminal('t-off', 'Old tablet', { receive: false })],
    't-here',
  );
  expect(form.chosen).toBe('t-phone');
  expect(form.options).toEqual(['Phone', 'Laptop (this browser)']);
});

test('this browser when it is the only terminal that receives', () => {
  expect(renderForm([terminal('t-here', 'Laptop'), terminal('t-phone', 'Phone', { active: false })], 't-here').chosen).toBe('t-here');
});

test('an empty note is refused on its field, named by it, and the field takes the focus', async () => {
  renderForm([terminal('t-phone', 'Phone')], null);
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
  const field = screen.getByLabelText('Link or note');
  expect(screen.getByText('Link or note: Write a link or a note to send.')).toBeTruthy();
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(field.getAttribute('aria-describedby')).toBe('share-content-error');
  expect(document.activeElement).toBe(field);
});
