import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { rot13 } from './rot13.js';

describe('rot13', () => {
  it('rotates letters by 13 and keeps their case', () => {
    expect(rot13('Hello, World!')).toBe('Uryyb, Jbeyq!');
    expect(rot13('abcdefghijklmnopqrstuvwxyz')).toBe('nopqrstuvwxyzabcdefghijklm');
    expect(rot13('ABCDEFGHIJKLMNOPQRSTUVWXYZ')).toBe('NOPQRSTUVWXYZABCDEFGHIJKLM');
  });

  it('leaves everything that is not an ASCII letter untouched', () => {
    const other = '0123456789 !?\n\tÄÖÜßéñ Ωμέγα Привет 漢字 👋🏽 \u0000';
    expect(rot13(other)).toBe(other);
  });

  it('is its own inverse for any string', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => rot13(rot13(s)) === s));
  });

  it('keeps the length and changes every ASCII letter', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const out = rot13(s);
        return out.length === s.length && [...s].every((c, i) => (/[A-Za-z]/.test(c) ? out[i] !== c : out[i] === c));
      }),
    );
  });
});
