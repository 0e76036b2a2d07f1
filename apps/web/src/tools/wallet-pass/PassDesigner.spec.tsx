/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * The wallet pass designer's draft as the page wires it (the designer over a draft kept in this
 * browser's database): a cleared required field is named at once, a new row takes the focus and asks
 * for its value, moving a row keeps the focus on its control, and the draft is kept a moment after
 * each change, so a reload shows it again; a damaged stored draft is ignored. The browser's database
 * (IndexedDB, which jsdom lacks) is in memory (shared/storage/db.fake.ts); everything above it is real.
 */
import { beforeAll, beforeEach, expect, jest, test } from '@jest/globals';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useMemo, useState, type ComponentType } from 'react';
import { fakeDb } from '../../shared/storage/db.fake';
import type { PassDraft } from './draft';

const storage = fakeDb();
const kept = () => (storage.settings.get('wallet-pass.draft')?.value as { draft: PassDraft } | undefined)?.draft;

let Designer: ComponentType;

beforeAll(async () => {
  jest.unstable_mockModule('../../shared/storage/db', () => storage.module);
  const { PassDesigner } = await import('./PassDesigner');
  const { draftErrors, newDraft } = await import('./draft');
  const { useStoredDraft } = await import('./draft-store');
  // The page's draft wiring (page.tsx), without its preview, barcode worker and account parts.
  Designer = function Designer() {
    const [draft, setDraft] = useState<PassDraft>(newDraft);
    const stored = useMemo(() => ({ draft, images: {}, saved: null }), [draft]);
    const { loaded } = useStoredDraft(stored, (restored) => setDraft(restored.draft));
    const errors = useMemo(() => draftErrors(draft), [draft]);
    return (
      <div aria-busy={!loaded}>
        <PassDesigner
          draft={draft}
          onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))}
          errors={errors}
          barcodes={[{ bcid: 'qrcode', label: 'QR Code' }]}
          images={{}}
          onImage={() => undefined}
        />
      </div>
    );
  };
});

beforeEach(() => storage.settings.clear());

const field = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;

test('edits are checked at once and kept, and a reload shows the kept draft', async () => {
  const first = render(<Designer />);
  await waitFor(() => expect(document.querySelector('[aria-busy="false"]')).not.toBeNull());
  expect(field('Card title').value).toBe('Tinkerdesk Café');

  await userEvent.clear(field('Card title'));
  expect(screen.getByText('Card title is required.')).toBeTruthy();
  expect(field('Card title').getAttribute('aria-invalid')).toBe('true');
  await userEvent.type(field('Card title'), 'Corner Bakery');
  expect(screen.queryByText('Card title is required.')).toBeNull();

  await userEvent.click(screen.getByRole('button', { name: 'Add row' }));
  expect(document.activeElement).toBe(field('Row 3 label'));
  await userEvent.keyboard('Visits');
  expect(screen.getByText('Row 3 needs a value (the label is optional).')).toBeTruthy();
  await userEvent.type(field('Row 3 value'), '7');
  expect(screen.queryByText('Row 3 needs a value (the label is optional).')).toBeNull();

  await waitFor(() => expect(kept()?.textRows.map((r) => r.header)).toEqual(['Points', 'Level', 'Visits']));
  expect(kept()).toMatchObject({ cardTitle: 'Corner Bakery', header: 'Loyalty card' });

  first.unmount();
  render(<Designer />);
  await waitFor(() => expect(field('Card title').value).toBe('Corner Bakery'));
  expect(field('Row 3 label').value).toBe('Visits');
  expect(field('Row 3 value').value).toBe('7');
});

test('moving a row keeps the focus on its controls', async () => {
  render(<Designer />);
  await waitFor(() => expect(document.querySelector('[aria-busy="false"]')).not.toBeNull());
  await userEvent.click(screen.getByRole('button', { name: 'Move row 1 down' }));
  expect(field('Row 1 label').value).toBe('Level');
  expect(field('Row 2 label').value).toBe('Points');
  // Row 2 is the last one: its "down" is off, so the focus goes to its "up".
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move row 2 up' }));
});

test('a damaged stored draft is ignored: the sample shows', async () => {
  storage.settings.set('wallet-pass.draft', {
    id: 'x',
    name: 'wallet-pass.draft',
    value: { draft: { cardTitle: 42 } },
    created: 0,
    modified: 0,
  });
  render(<Designer />);
  await waitFor(() => expect(document.querySelector('[aria-busy="false"]')).not.toBeNull());
  expect(field('Card title').value).toBe('Tinkerdesk Café');
});
