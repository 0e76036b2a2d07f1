import { describe, expect, it } from '@jest/globals';
import { AppError, ORDER_STATES, type OrderState } from '@tinkerdesk/contracts';
import { assertTransition, canTransition, ORDER_TRANSITIONS, PAYABLE_STATES } from './order-states.js';

/** Every pair of states, exhaustively: exactly these transitions are legal. */
const LEGAL = new Set([
  'pending>paid',
  'pending>failed',
  'pending>cancelled',
  'failed>paid',
  'failed>cancelled',
  'paid>fulfilled',
  'paid>refunded',
  'fulfilled>refunded',
]);

describe('order transitions', () => {
  const pairs = ORDER_STATES.flatMap((from) => ORDER_STATES.map((to) => [from, to] as [OrderState, OrderState]));

  it('covers all 36 pairs of the six states', () => {
    expect(pairs).toHaveLength(36);
    expect(Object.keys(ORDER_TRANSITIONS).sort()).toEqual([...ORDER_STATES].sort());
  });

  it.each(pairs)('%s → %s is legal exactly when the table says so', (from, to) => {
    const legal = LEGAL.has(`${from}>${to}`);
    expect(canTransition(from, to)).toBe(legal);
    if (legal) expect(() => assertTransition(from, to, 'changed')).not.toThrow();
    else {
      let error: unknown;
      try {
        assertTransition(from, to, 'changed');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('CONFLICT');
      expect((error as AppError).detail).toMatch(/^this order cannot be changed: /);
    }
  });

  it('cancelled and refunded are final; nothing goes back to pending', () => {
    expect(ORDER_TRANSITIONS.cancelled).toEqual([]);
    expect(ORDER_TRANSITIONS.refunded).toEqual([]);
    for (const from of ORDER_STATES) expect(canTransition(from, 'pending')).toBe(false);
  });

  it('only pending and failed orders are payable, and both may become paid', () => {
    expect([...PAYABLE_STATES].sort()).toEqual(['failed', 'pending']);
    for (const state of PAYABLE_STATES) expect(canTransition(state, 'paid')).toBe(true);
  });
});
