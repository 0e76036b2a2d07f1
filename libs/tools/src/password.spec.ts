import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  alphabets,
  CHARACTER_SETS,
  entropyBits,
  generatePassword,
  LOOK_ALIKES,
  MAX_COUNT,
  MAX_LENGTH,
  MIN_LENGTH,
  PasswordError,
  randomBelow,
  wholeNumberProblem,
  type CharacterSet,
} from './password.js';

const setsArb = fc.subarray(['lower', 'upper', 'digits', 'symbols'] as CharacterSet[], { minLength: 1 });

describe('wholeNumberProblem', () => {
  it('names the limit that is passed instead of clamping', () => {
    expect(wholeNumberProblem('1000', 1, MAX_COUNT, 'number of passwords')).toBe('The number of passwords can be at most 500');
    expect(wholeNumberProblem('0', 1, MAX_COUNT, 'number of passwords')).toBe('The number of passwords must be at least 1');
    expect(wholeNumberProblem('2', MIN_LENGTH, MAX_LENGTH, 'length')).toBe('The length must be at least 4');
    for (const text of ['', ' ', '2.5', 'ten', '1e3', '0x10']) {
      expect(wholeNumberProblem(text, MIN_LENGTH, MAX_LENGTH, 'length')).toBe('The length must be a whole number from 4 to 1024');
    }
    expect(wholeNumberProblem(' 12 ', MIN_LENGTH, MAX_LENGTH, 'length')).toBeUndefined();
  });

  it('accepts exactly the whole numbers from min to max (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2000, max: 2000 }), (n) => {
        const ok = wholeNumberProblem(String(n), 1, MAX_COUNT, 'count') === undefined;
        expect(ok).toBe(n >= 1 && n <= MAX_COUNT);
      }),
    );
  });
});

describe('generatePassword', () => {
  it('has the length, only chosen characters, one of each set, and no look-alikes when asked', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 64 }), setsArb, fc.boolean(), (length, sets, excludeLookAlikes) => {
        const password = generatePassword({ length, sets, excludeLookAlikes });
        expect(password).toHaveLength(length);
        const allowed = alphabets({ sets, excludeLookAlikes });
        for (const c of password) expect(allowed.join('')).toContain(c);
        for (const set of allowed) expect([...set].some((c) => password.includes(c))).toBe(true);
        if (excludeLookAlikes) for (const c of LOOK_ALIKES) expect(password).not.toContain(c);
      }),
    );
  });

  it('is uniform: every character about equally often over many draws', () => {
    const counts = new Map<string, number>();
    const n = 2000;
    for (let i = 0; i < n; i++) for (const c of generatePassword({ length: 20, sets: ['digits'] })) counts.set(c, (counts.get(c) ?? 0) + 1);
    // 40,000 digits: each expected 4,000; a chi-square with 9 degrees of freedom stays far below 40 (p < 0.00001).
    const chi = [...CHARACTER_SETS.digits].reduce((sum, d) => sum + ((counts.get(d) ?? 0) - 4000) ** 2 / 4000, 0);
    expect(chi).toBeLessThan(40);
  });

  it('refuses impossible options with a reason', () => {
    expect(() => generatePassword({ length: 3, sets: ['lower'] })).toThrow(PasswordError);
    expect(() => generatePassword({ length: 2000, sets: ['lower'] })).toThrow('from 4 to 1024');
    expect(() => generatePassword({ length: 8, sets: [] })).toThrow('Choose at least one character set');
    expect(() => generatePassword({ length: 4.5, sets: ['lower'] })).toThrow(PasswordError);
  });
});

describe('randomBelow', () => {
  it('rejects draws above the last whole multiple (no modulo bias)', () => {
    // n = 3: 2^32 % 3 = 1, so the draw 2^32 - 1 is rejected and the next one used.
    const draws = [2 ** 32 - 1, 7];
    const fake = (b: Uint32Array<ArrayBuffer>) => {
      b[0] = draws.shift()!;
      return b;
    };
    expect(randomBelow(3, fake)).toBe(7 % 3);
    expect(draws).toHaveLength(0);
  });

  it('stays in range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 32 }), (n) => {
        const r = randomBelow(n);
        expect(r >= 0 && r < n).toBe(true);
      }),
    );
  });
});

describe('entropyBits', () => {
  it('is length × log2(alphabet) for one set', () => {
    expect(entropyBits({ length: 10, sets: ['digits'] })).toBeCloseTo(10 * Math.log2(10), 10);
    expect(entropyBits({ length: 16, sets: ['lower', 'upper', 'digits'], eachSet: false })).toBeCloseTo(16 * Math.log2(62), 10);
  });

  it('counts only the passwords with one of each set', () => {
    // length 2 over {a..z} and {0..9} with each set: 2 × 26 × 10 = 520 passwords.
    expect(entropyBits({ length: 2, sets: ['lower', 'digits'] })).toBeCloseTo(Math.log2(520), 10);
    // Long passwords: almost all contain every set.
    expect(entropyBits({ length: 64, sets: ['lower', 'upper', 'digits', 'symbols'] })).toBeCloseTo(64 * Math.log2(26 + 26 + 10 + 28), 2);
  });
});
