import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { bump, checkStep, CounterError, countersCsv, createCounter, freeLabel, move, reset, sorted, type Counter } from './counters.js';

const counterArb = fc.record({
  id: fc.uuid(),
  label: fc.string({ minLength: 1, maxLength: 10 }),
  count: fc.integer({ min: -1e6, max: 1e6 }),
  step: fc.integer({ min: 1, max: 1000 }),
  order: fc.nat(100),
  created: fc.nat(),
  modified: fc.nat(),
});

describe('counters', () => {
  it('bumping up then down by the same number of steps gives the count back', () => {
    fc.assert(
      fc.property(counterArb, fc.integer({ min: -1000, max: 1000 }), (counter, times) => {
        expect(bump(bump(counter, times, 1), -times, 2).count).toBe(counter.count);
      }),
    );
  });

  it('counts by the step, resets to zero, and refuses counts beyond exact integers', () => {
    const c: Counter = { id: 'a', label: 'Laps', count: 3, step: 5, order: 0, created: 0, modified: 0 };
    expect(bump(c, 1, 9)).toMatchObject({ count: 8, modified: 9 });
    expect(bump(c, -2, 9).count).toBe(-7);
    expect(reset(c, 9).count).toBe(0);
    expect(() => bump({ ...c, count: Number.MAX_SAFE_INTEGER }, 1, 9)).toThrow(CounterError);
  });

  it('creates counters with unique names at the end of the list', () => {
    const a = createCounter('People', [], 'a', 1);
    const b = createCounter(' people ', [a], 'b', 2);
    expect([a.label, b.label, b.order]).toEqual(['People', 'people (2)', 1]);
    expect(freeLabel('X', [a, b, { ...a, id: 'c', label: 'X' }, { ...a, id: 'd', label: 'X (2)' }])).toBe('X (3)');
    expect(() => createCounter('   ', [], 'c', 3)).toThrow('Give the counter a name');
    expect(() => createCounter('x'.repeat(61), [], 'c', 3)).toThrow('at most 60');
  });

  it('checks steps', () => {
    expect(checkStep(10)).toBe(10);
    for (const bad of [0, -1, 1.5, 1_000_001, Number.NaN]) expect(() => checkStep(bad)).toThrow(CounterError);
  });

  it('moves a counter and keeps every other one, orders 0..n-1', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(counterArb, { selector: (c) => c.id, minLength: 1, maxLength: 8 }),
        fc.nat(),
        fc.integer({ min: -2, max: 10 }),
        (list, pick, to) => {
          const id = list[pick % list.length]!.id;
          const moved = move(list, id, to);
          expect(moved.map((c) => c.order)).toEqual(moved.map((_, i) => i));
          expect(new Set(moved.map((c) => c.id))).toEqual(new Set(list.map((c) => c.id)));
          expect(moved.findIndex((c) => c.id === id)).toBe(Math.max(0, Math.min(list.length - 1, to)));
        },
      ),
    );
  });

  it('exports CSV with quoting and no formula injection', () => {
    const list = sorted([
      { id: 'b', label: 'Say "hi", please', count: 2, step: 1, order: 1, created: 0, modified: 0 },
      { id: 'a', label: '=SUM(A1)', count: -1, step: 3, order: 0, created: 0, modified: 0 },
    ]);
    expect(countersCsv(list)).toBe('name,count,step\n"\'=SUM(A1)",-1,3\n"Say ""hi"", please",2,1');
  });
});
