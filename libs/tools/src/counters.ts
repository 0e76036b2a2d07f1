import { csvCell } from './csv.js';

/**
 * Named tally counters: the rules (pure; the page keeps them in the local browser database).
 * Counts are whole numbers within JavaScript's safe integer range; steps are 1 to 1,000,000.
 */

export interface Counter {
  id: string;
  label: string;
  count: number;
  step: number;
  /** Position in the list (ascending). */
  order: number;
  created: number;
  modified: number;
}

export class CounterError extends Error {
  override name = 'CounterError';
}

export const MAX_LABEL = 60;
export const MAX_STEP = 1_000_000;
export const MAX_COUNTERS = 100;

export function checkLabel(label: string): string {
  const trimmed = label.trim();
  if (!trimmed) throw new CounterError('Give the counter a name');
  if ([...trimmed].length > MAX_LABEL) throw new CounterError(`A name has at most ${MAX_LABEL} characters`);
  return trimmed;
}

export function checkStep(step: number): number {
  if (!Number.isInteger(step) || step < 1 || step > MAX_STEP)
    throw new CounterError(`The step is a whole number from 1 to ${MAX_STEP.toLocaleString('en')}`);
  return step;
}

/** A label not yet used: "Counter 3", or the wanted label with " (2)" added. */
export function freeLabel(wanted: string, counters: readonly Counter[]): string {
  const taken = new Set(counters.map((c) => c.label.toLowerCase()));
  if (!taken.has(wanted.toLowerCase())) return wanted;
  for (let n = 2; ; n++) if (!taken.has(`${wanted} (${n})`.toLowerCase())) return `${wanted} (${n})`;
}

export function createCounter(label: string, counters: readonly Counter[], id: string, now: number): Counter {
  if (counters.length >= MAX_COUNTERS) throw new CounterError(`At most ${MAX_COUNTERS} counters`);
  const order = counters.reduce((max, c) => Math.max(max, c.order), -1) + 1;
  return { id, label: freeLabel(checkLabel(label), counters), count: 0, step: 1, order, created: now, modified: now };
}

/** Adds times × step (times may be negative); refuses to leave the safe integer range. */
export function bump(counter: Counter, times: number, now: number): Counter {
  const count = counter.count + times * counter.step;
  if (!Number.isSafeInteger(count)) throw new CounterError('The count would be too large to keep exactly');
  return { ...counter, count, modified: now };
}

export function reset(counter: Counter, now: number): Counter {
  return { ...counter, count: 0, modified: now };
}

/** Moves a counter to a new index in the list; returns the list with orders renumbered 0..n-1. */
export function move(counters: readonly Counter[], id: string, to: number): Counter[] {
  const list = sorted(counters);
  const from = list.findIndex((c) => c.id === id);
  if (from < 0) return list;
  const [item] = list.splice(from, 1);
  list.splice(Math.max(0, Math.min(list.length, to)), 0, item!);
  return list.map((c, order) => (c.order === order ? c : { ...c, order }));
}

export function sorted(counters: readonly Counter[]): Counter[] {
  return [...counters].sort((a, b) => a.order - b.order || a.created - b.created);
}

/** "name,count,step" lines, each name a formula-safe CSV cell. */
export function countersCsv(counters: readonly Counter[]): string {
  return ['name,count,step', ...sorted(counters).map((c) => `${csvCell(c.label)},${c.count},${c.step}`)].join('\n');
}
