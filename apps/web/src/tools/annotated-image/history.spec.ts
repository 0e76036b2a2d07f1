import { describe, expect, test } from '@jest/globals';
import { history, type History } from './history';
import type { Shape } from './shapes';

const arrow = (x: number): Shape => ({ kind: 'arrow', x1: x, y1: 0, x2: x + 10, y2: 10, color: '#e11d48', width: 4 });
const empty: History = { past: [], present: [], future: [] };

describe('the annotation history', () => {
  test('each change is a step that undo takes back and redo brings again', () => {
    const two = [arrow(1), arrow(2)].reduce((s, shape) => history(s, { type: 'add', shape }), empty);
    expect(two.present).toEqual([arrow(1), arrow(2)]);
    const undone = history(two, { type: 'undo' });
    expect(undone.present).toEqual([arrow(1)]);
    expect(history(undone, { type: 'redo' }).present).toEqual([arrow(1), arrow(2)]);
    // A new change after an undo drops what redo would have brought.
    expect(history(undone, { type: 'add', shape: arrow(3) }).future).toEqual([]);
  });

  test('an edited shape keeps its place, null removes it; clear and reset', () => {
    const two = history(history(empty, { type: 'add', shape: arrow(1) }), { type: 'add', shape: arrow(2) });
    expect(history(two, { type: 'replace', index: 0, shape: arrow(5) }).present).toEqual([arrow(5), arrow(2)]);
    expect(history(two, { type: 'replace', index: 0, shape: null }).present).toEqual([arrow(2)]);
    const cleared = history(two, { type: 'clear' });
    expect(cleared.present).toEqual([]);
    expect(history(cleared, { type: 'undo' }).present).toEqual([arrow(1), arrow(2)]);
    expect(history(empty, { type: 'clear' })).toBe(empty);
    expect(history(two, { type: 'reset' })).toEqual(empty);
  });

  test('undo and redo with nothing to walk leave the state as it is', () => {
    expect(history(empty, { type: 'undo' })).toBe(empty);
    expect(history(empty, { type: 'redo' })).toBe(empty);
  });
});
