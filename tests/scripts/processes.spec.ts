import { describe, expect, it } from '@jest/globals';
import { PROCESSES, restartDelayMs, SERVICES } from '../../scripts/processes.mjs';

describe('restartDelayMs', () => {
  it('starts at half a second and doubles while a process keeps dying, up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => restartDelayMs(n))).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});

/** The names of a tuple of processes, as a tuple. */
type Names<T> = { -readonly [I in keyof T]: T[I] extends { name: infer N } ? N : never };

describe('PROCESSES', () => {
  it('lists the processes its declaration (processes.d.mts) names, whose ProcessName libs/testing derives', () => {
    const declared: Names<typeof PROCESSES> = ['identity', 'commerce', 'terminals', 'conversion', 'conversion-worker', 'gateway'];
    expect(PROCESSES.map((p) => p.name)).toEqual(declared);
    expect(SERVICES.every((s) => PROCESSES.some((p) => p.name === s))).toBe(true);
    expect(PROCESSES.filter((p) => !/^apps\/[a-z]+\/dist\/[a-z]+\.js$/.test(p.entry))).toEqual([]);
  });
});
