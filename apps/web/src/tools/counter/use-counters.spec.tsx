/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * The counter tool's state machine (use-counters.ts) as the page drives it: a first "Counter 1" when
 * the browser keeps none, bumps by the step, names and steps checked, Reset and Delete only after their
 * confirmation, moves, and every change kept (a remount reads the same counters). The counters' store
 * (counter-store.ts, IndexedDB and a BroadcastChannel) is in memory here; everything above it is real.
 */
import { beforeAll, beforeEach, expect, jest, test } from '@jest/globals';
import type { Counter } from '@tinkerdesk/tools/counters';
import { act, renderHook, waitFor } from '@testing-library/react';
import { fakeDb } from '../../shared/storage/db.fake';
import type { useCounters as UseCounters } from './use-counters';

const stored = new Map<string, Counter>();
const refused = { load: false };
let otherTab: (() => void) | undefined;
let useCounters: typeof UseCounters;

beforeAll(async () => {
  jest.unstable_mockModule('../../shared/storage/db', () => fakeDb().module);
  jest.unstable_mockModule('./counter-store', () => ({
    loadCounters: () => (refused.load ? Promise.reject(new Error('refused')) : Promise.resolve([...stored.values()])),
    saveCounters: (counters: readonly Counter[]) => Promise.resolve(void counters.forEach((c) => stored.set(c.id, c))),
    deleteCounter: (id: string) => Promise.resolve(void stored.delete(id)),
    onOtherTabChange: (callback: () => void) => {
      otherTab = callback;
      return () => (otherTab = undefined);
    },
  }));
  ({ useCounters } = await import('./use-counters'));
});

beforeEach(() => {
  stored.clear();
  refused.load = false;
});

async function loaded() {
  const hook = renderHook(() => useCounters());
  await waitFor(() => expect(hook.result.current.counters).not.toBeNull());
  return hook;
}

const counts = (list: readonly Counter[]) => list.map((c) => [c.label, c.count]);

test('a browser without counters starts with Counter 1, kept at once', async () => {
  const { result } = await loaded();
  expect(counts(result.current.list)).toEqual([['Counter 1', 0]]);
  expect(result.current.current?.label).toBe('Counter 1');
  await waitFor(() => expect([...stored.values()].map((c) => c.label)).toEqual(['Counter 1']));
});

test('bumps count by the step, both ways, and every change is kept', async () => {
  const { result } = await loaded();
  const id = result.current.list[0]!.id;
  act(() => result.current.bump(id, 1));
  act(() => result.current.bump(id, 1));
  expect(result.current.list[0]!.count).toBe(2);
  let answer: string | undefined = 'not asked';
  act(() => void (answer = result.current.setStep(id, 5)));
  expect(answer).toBeUndefined();
  act(() => result.current.bump(id, -1));
  expect(result.current.list[0]).toMatchObject({ count: -3, step: 5 });
  expect(result.current.total).toBe(-3);
  expect(stored.get(id)).toMatchObject({ count: -3, step: 5 });
});

test('a name or step out of the rules is refused with its text and changes nothing', async () => {
  const { result } = await loaded();
  const id = result.current.list[0]!.id;
  let answer: string | undefined;
  act(() => void (answer = result.current.rename(id, '   ')));
  expect(answer).toBe('Give the counter a name');
  act(() => void (answer = result.current.setStep(id, 0)));
  expect(answer).toBe('The step is a whole number from 1 to 1,000,000');
  act(() => void (answer = result.current.rename(id, '  Door  ')));
  expect(answer).toBeUndefined();
  expect(result.current.list[0]).toMatchObject({ label: 'Door', step: 1 });
});

test('adding names the counter (or numbers it), selects it, and keeps names apart', async () => {
  const { result } = await loaded();
  act(() => void result.current.add(''));
  act(() => void result.current.add('Laps'));
  act(() => void result.current.add('laps'));
  expect(result.current.list.map((c) => c.label)).toEqual(['Counter 1', 'Counter 2', 'Laps', 'laps (2)']);
  expect(result.current.current?.label).toBe('laps (2)');
  act(() => void result.current.add(' '.repeat(3) + 'x'.repeat(61)));
  expect(result.current.problem).toBe('A name has at most 60 characters');
  expect(result.current.list).toHaveLength(4);
  expect(stored.size).toBe(4);
});

test('Reset and Delete wait for the confirmation; Cancel leaves the counter as it was', async () => {
  const { result } = await loaded();
  act(() => void result.current.add('Votes'));
  const [first, votes] = result.current.list.map((c) => c.id) as [string, string];
  act(() => result.current.bump(first, 1));
  act(() => result.current.ask('reset', first));
  expect(result.current.confirm).toEqual({ kind: 'reset', id: first });
  expect(result.current.list[0]!.count).toBe(1);
  act(() => result.current.cancel());
  expect(result.current.confirm).toBeNull();
  act(() => result.current.ask('reset', first));
  act(() => result.current.confirmed());
  expect(result.current.list[0]!.count).toBe(0);
  expect(stored.get(first)!.count).toBe(0);

  act(() => result.current.ask('delete', votes));
  expect(result.current.list).toHaveLength(2);
  act(() => result.current.confirmed());
  expect(result.current.list.map((c) => c.label)).toEqual(['Counter 1']);
  await waitFor(() => expect(stored.has(votes)).toBe(false));
});

test('moves keep their order, and a remount (a reload) reads the same counters', async () => {
  const first = await loaded();
  act(() => void first.result.current.add('B'));
  act(() => void first.result.current.add('C'));
  const c = first.result.current.list[2]!.id;
  act(() => first.result.current.bump(c, 1));
  act(() => first.result.current.moveTo(c, 0));
  expect(first.result.current.list.map((x) => x.label)).toEqual(['C', 'Counter 1', 'B']);
  first.unmount();

  const again = await loaded();
  expect(counts(again.result.current.list)).toEqual([
    ['C', 1],
    ['Counter 1', 0],
    ['B', 0],
  ]);
});

test('a change in another tab is read again', async () => {
  const { result } = await loaded();
  const made = { ...result.current.list[0]!, id: 'other', label: 'From the other tab', order: 1 };
  stored.set(made.id, made);
  act(() => otherTab?.());
  await waitFor(() => expect(result.current.list.map((c) => c.label)).toEqual(['Counter 1', 'From the other tab']));
});

test('a browser that keeps nothing still gets a counter, and is told', async () => {
  refused.load = true;
  const { result } = await loaded();
  expect(result.current.list.map((c) => c.label)).toEqual(['Counter 1']);
  expect(result.current.storageProblem).toMatch(/^This browser does not let the page keep data/);
});
