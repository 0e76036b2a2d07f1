import { describe, expect, it } from '@jest/globals';
import { REQUEST_STATES, type RequestState } from '@tinkerdesk/contracts';
import { assertMove, canMove } from './request-states.js';

const LEGAL = new Set(['open>accepted', 'open>declined', 'open>cancelled', 'open>expired', 'accepted>paid', 'accepted>cancelled']);

describe('payment request transitions', () => {
  const pairs = REQUEST_STATES.flatMap((from) => REQUEST_STATES.map((to) => [from, to] as [RequestState, RequestState]));

  it.each(pairs)('%s → %s', (from, to) => {
    expect(canMove(from, to)).toBe(LEGAL.has(`${from}>${to}`));
    if (LEGAL.has(`${from}>${to}`)) expect(() => assertMove(from, to, 'moved')).not.toThrow();
    else expect(() => assertMove(from, to, 'moved')).toThrow(/cannot be moved/);
  });

  it('accepting a declined or expired request is refused', () => {
    expect(() => assertMove('declined', 'accepted', 'accepted')).toThrow('this request cannot be accepted: it was declined');
    expect(() => assertMove('expired', 'accepted', 'accepted')).toThrow('this request cannot be accepted: it has expired');
  });
});
