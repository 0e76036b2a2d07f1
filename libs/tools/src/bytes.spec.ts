import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { allUnits, BytesError, divide, formatBytes, parseBytes } from './bytes.js';

describe('formatBytes', () => {
  it('uses decimal and binary units, labelled apart', () => {
    expect(formatBytes(0n, 'decimal')).toBe('0 bytes');
    expect(formatBytes(1n, 'decimal')).toBe('1 byte');
    expect(formatBytes(999n, 'decimal')).toBe('999 bytes');
    expect(formatBytes(1000n, 'decimal')).toBe('1 kB');
    expect(formatBytes(1000n, 'binary')).toBe('1000 bytes');
    expect(formatBytes(1024n, 'binary')).toBe('1 KiB');
    expect(formatBytes(1_500_000_000n, 'decimal')).toBe('1.5 GB');
    expect(formatBytes(1_500_000_000n, 'binary')).toBe('1.4 GiB');
    expect(formatBytes(1_610_612_736n, 'binary')).toBe('1.5 GiB');
  });

  it('goes up to exabytes and stays exact for integers beyond 2^53', () => {
    expect(formatBytes(2n ** 64n - 1n, 'binary', 6)).toBe('16 EiB');
    expect(formatBytes(2n ** 64n - 1n, 'decimal', 6)).toBe('18.446744 EB');
    expect(formatBytes(10n ** 21n, 'decimal')).toBe('1000 EB');
    expect(divide(9_007_199_254_740_993n, 1n, 0)).toBe('9007199254740993');
  });

  it('moves to the next unit when rounding reaches it', () => {
    expect(formatBytes(999_999n, 'decimal')).toBe('1 MB');
    expect(formatBytes(999_499n, 'decimal')).toBe('999.5 kB');
  });

  it('handles negative sizes', () => {
    expect(formatBytes(-1536n, 'binary')).toBe('-1.5 KiB');
  });
});

describe('parseBytes', () => {
  it('reads numbers with decimal and binary units, names and separators', () => {
    expect(parseBytes('1.5 GB').bytes).toBe(1_500_000_000n);
    expect(parseBytes('2 MiB').bytes).toBe(2_097_152n);
    expect(parseBytes('1,024 kB').bytes).toBe(1_024_000n);
    expect(parseBytes('512').bytes).toBe(512n);
    expect(parseBytes('3e6 B').bytes).toBe(3_000_000n);
    expect(parseBytes('1.5 gigabytes').bytes).toBe(1_500_000_000n);
    expect(parseBytes('4 gibibyte').bytes).toBe(4n * 1024n ** 3n);
    expect(parseBytes('16 EiB').bytes).toBe(2n ** 64n);
    expect(parseBytes('1KB').bytes).toBe(1000n);
    expect(parseBytes('.5 KiB').bytes).toBe(512n);
  });

  it('rounds fractions of a byte and says so', () => {
    expect(parseBytes('1.5 B')).toMatchObject({ bytes: 2n, rounded: true });
    expect(parseBytes('1.5 kB')).toMatchObject({ bytes: 1500n, rounded: false });
  });

  it('explains bad input', () => {
    expect(() => parseBytes('')).toThrow('Enter a size');
    expect(() => parseBytes('abc')).toThrow('"abc" is not a size');
    expect(() => parseBytes('12 parsecs')).toThrow('Unknown unit "parsecs"');
    expect(() => parseBytes('1.2.3 MB')).toThrow(BytesError);
    expect(() => parseBytes('1e999 B')).toThrow('The exponent is too large');
  });

  it('reads back what formatBytes writes, within its rounding', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 70n }), fc.constantFrom('decimal' as const, 'binary' as const), (bytes, system) => {
        const text = formatBytes(bytes, system, 6);
        const back = parseBytes(text).bytes;
        const unit = parseBytes(`1 ${text.split(' ')[1]}`).bytes;
        // 6 decimals: the error is at most half a millionth of the unit.
        const diff = back > bytes ? back - bytes : bytes - back;
        expect(diff * 2_000_000n <= unit + 2_000_000n).toBe(true);
      }),
    );
  });

  it('is exact through every unit for any integer', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 80n }), (bytes) => {
        for (const { unit, value } of allUnits(bytes, 30)) {
          expect(parseBytes(`${value} ${unit.symbol}`).bytes).toBe(bytes);
        }
      }),
      { numRuns: 200 },
    );
  });
});
