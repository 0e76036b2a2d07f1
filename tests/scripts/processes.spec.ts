import { describe, expect, it } from '@jest/globals';
import { restartDelayMs } from '../../scripts/processes.mjs';

describe('restartDelayMs', () => {
  it('starts at half a second and doubles while a process keeps dying, up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => restartDelayMs(n))).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});
