/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * The EPUB tool's draft (use-epub-draft.ts) as the page drives it: chapters added, changed, moved and
 * removed (never below one) give a book that the library reviews without a problem and builds, in
 * that order; the draft is kept and read back on a remount (a reload). The browser's database is in
 * memory (shared/storage/db.fake.ts); everything above it is real.
 */
import { beforeAll, beforeEach, expect, jest, test } from '@jest/globals';
import { buildEpub, reviewBook } from '@tinkerdesk/tools/epub';
import { act, renderHook, waitFor } from '@testing-library/react';
import { fakeDb } from '../../shared/storage/db.fake';
import type { useEpubDraft as UseEpubDraft } from './use-epub-draft';

const storage = fakeDb();
let useEpubDraft: typeof UseEpubDraft;
const notKept = jest.fn<(message: string) => void>();

beforeAll(async () => {
  jest.unstable_mockModule('../../shared/storage/db', () => storage.module);
  ({ useEpubDraft } = await import('./use-epub-draft'));
});

beforeEach(() => storage.settings.clear());

async function opened() {
  const hook = renderHook(() => useEpubDraft(notKept));
  await waitFor(() => expect(hook.result.current.draft.loaded).toBe(true));
  return hook;
}

const titles = (chapters: readonly { title: string }[]) => chapters.map((c) => c.title);

test('a new book has one empty chapter and needs a title before it can be made', async () => {
  const { result } = await opened();
  expect(titles(result.current.draft.chapters)).toEqual(['Chapter 1']);
  expect(reviewBook(result.current.book).error).toBe('Give the book a title.');
});

test('chapters added, moved and removed make a valid book in that order', async () => {
  const { result } = await opened();
  const { dispatch } = result.current;
  act(() => dispatch({ type: 'details', patch: { title: 'Field notes', author: 'A. Writer', language: 'en' } }));
  act(() => dispatch({ type: 'add-chapter' }));
  act(() => dispatch({ type: 'add-chapter' }));
  expect(titles(result.current.draft.chapters)).toEqual(['Chapter 1', 'Chapter 2', 'Chapter 3']);
  const [one, two, three] = result.current.draft.chapters.map((c) => c.key) as [number, number, number];
  act(() => dispatch({ type: 'change-chapter', key: one, patch: { title: 'Spring', content: '# Spring\n\nBuds.' } }));
  act(() => dispatch({ type: 'change-chapter', key: two, patch: { title: 'Summer', format: 'html', content: '<p>Heat.</p>' } }));
  act(() => dispatch({ type: 'change-chapter', key: three, patch: { title: 'Autumn', content: 'Leaves.' } }));

  act(() => dispatch({ type: 'move-chapter', from: 2, to: 0 }));
  expect(titles(result.current.draft.chapters)).toEqual(['Autumn', 'Spring', 'Summer']);
  // Out of the list: nothing moves.
  act(() => dispatch({ type: 'move-chapter', from: 0, to: -1 }));
  act(() => dispatch({ type: 'move-chapter', from: 2, to: 3 }));
  expect(titles(result.current.draft.chapters)).toEqual(['Autumn', 'Spring', 'Summer']);
  act(() => dispatch({ type: 'remove-chapter', key: one }));

  const { book } = result.current;
  expect(book.chapters).toEqual([
    { title: 'Autumn', format: 'markdown', content: 'Leaves.' },
    { title: 'Summer', format: 'html', content: '<p>Heat.</p>' },
  ]);
  expect(reviewBook(book)).toEqual({ notes: [] });
  const made = buildEpub(book);
  expect(made.bytes.byteLength).toBeGreaterThan(0);
});

test('the last chapter is never removed', async () => {
  const { result } = await opened();
  const only = result.current.draft.chapters[0]!.key;
  act(() => result.current.dispatch({ type: 'remove-chapter', key: only }));
  expect(titles(result.current.draft.chapters)).toEqual(['Chapter 1']);
});

test('images replace those of the same name, and the cover is set and removed', async () => {
  const { result } = await opened();
  const image = (name: string, byte: number) => ({ name, mediaType: 'image/png', bytes: Uint8Array.of(byte) });
  act(() => result.current.dispatch({ type: 'add-images', images: [image('a.png', 1), image('b.png', 2)] }));
  act(() => result.current.dispatch({ type: 'add-images', images: [image('a.png', 3)] }));
  expect(result.current.draft.images.map((i) => [i.name, i.bytes[0]])).toEqual([
    ['b.png', 2],
    ['a.png', 3],
  ]);
  act(() => result.current.dispatch({ type: 'remove-image', image: result.current.draft.images[0]! }));
  expect(result.current.draft.images.map((i) => i.name)).toEqual(['a.png']);
  act(() => result.current.dispatch({ type: 'cover', image: image('cover.png', 4) }));
  expect(result.current.book.cover?.name).toBe('cover.png');
  act(() => result.current.dispatch({ type: 'cover', image: null }));
  expect(result.current.book.cover).toBeUndefined();
});

test('the draft is kept and read back when the page opens again', async () => {
  const first = await opened();
  act(() => first.result.current.dispatch({ type: 'details', patch: { title: 'Kept' } }));
  act(() => first.result.current.dispatch({ type: 'add-chapter' }));
  act(() =>
    first.result.current.dispatch({ type: 'add-images', images: [{ name: 'x.png', mediaType: 'image/png', bytes: Uint8Array.of(9) }] }),
  );
  await waitFor(() => expect(storage.settings.get('epub:draft')?.value).toMatchObject({ title: 'Kept' }));
  first.unmount();

  const again = await opened();
  expect(again.result.current.draft.title).toBe('Kept');
  expect(titles(again.result.current.draft.chapters)).toEqual(['Chapter 1', 'Chapter 2']);
  expect(again.result.current.draft.images.map((i) => i.name)).toEqual(['x.png']);
  expect(notKept).not.toHaveBeenCalled();
});
