import type { Shape } from './shapes';

/** The shapes on the picture with what undo and redo bring back. */
export interface History {
  past: Shape[][];
  present: Shape[];
  future: Shape[][];
}
export type Action =
  | { type: 'add'; shape: Shape }
  | { type: 'replace'; index: number; shape: Shape | null }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'clear' }
  | { type: 'reset' };

/** Every change is a step: undo and redo walk the steps; reset forgets them (another picture). */
export function history(state: History, action: Action): History {
  switch (action.type) {
    case 'add':
      return { past: [...state.past, state.present], present: [...state.present, action.shape], future: [] };
    case 'replace': {
      // An edited shape keeps its place in the drawing order; null removes it.
      const present = state.present.flatMap((s, i) => (i !== action.index ? [s] : action.shape ? [action.shape] : []));
      return { past: [...state.past, state.present], present, future: [] };
    }
    case 'clear':
      return state.present.length ? { past: [...state.past, state.present], present: [], future: [] } : state;
    case 'undo':
      return state.past.length
        ? { past: state.past.slice(0, -1), present: state.past[state.past.length - 1]!, future: [state.present, ...state.future] }
        : state;
    case 'redo':
      return state.future.length
        ? { past: [...state.past, state.present], present: state.future[0]!, future: state.future.slice(1) }
        : state;
    case 'reset':
      return { past: [], present: [], future: [] };
  }
}
