import { describe, expect, it } from '@jest/globals';
import { epochMs, phaseClock } from './phase-clock.js';

describe('phaseClock', () => {
  it('starts at the epoch time of its creation, which lines up with the wall clock across processes', () => {
    const before = Date.now();
    const clock = phaseClock();
    const after = Date.now();
    expect(clock.at).toBeGreaterThanOrEqual(before - 1);
    expect(clock.at).toBeLessThanOrEqual(after + 1);
    expect(epochMs()).toBeGreaterThanOrEqual(clock.at);
  });

  it('marks each phase with the time since the one before, to 0.1 ms', () => {
    const clock = phaseClock();
    clock.mark('first');
    clock.mark('second');
    expect(Object.keys(clock.ms)).toEqual(['first', 'second']);
    for (const value of Object.values(clock.ms)) expect(Math.round(value * 10) / 10).toBe(value);
  });
});
