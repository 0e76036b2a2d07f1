import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { centsToDollars, dollarsToCents, formatMoney } from './money';

describe('dollarsToCents', () => {
  it.each([
    ['12.50', 1250],
    ['12.5', 1250],
    ['12', 1200],
    ['$1,234.56', 123456],
    [' 0.50 ', 50],
    ['999999.99', 99999999],
  ])('%s is %d cents', (input, cents) => {
    expect(dollarsToCents(input)).toEqual({ cents });
  });

  it.each(['', 'abc', '12.505', '-5', '1e3', '12,5', '0.49', '1000000.00', '$', '1.2.3'])('refuses %j', (input) => {
    expect(dollarsToCents(input)).toHaveProperty('error');
  });

  it('reads back what centsToDollars writes, for every price in range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 50, max: 99_999_999 }), (cents) => {
        expect(dollarsToCents(centsToDollars(cents))).toEqual({ cents });
      }),
    );
  });
});

describe('formatMoney', () => {
  it('writes US dollars as Intl does, other currencies by Intl, a negative amount with a minus sign', () => {
    expect(formatMoney(123450, 'USD')).toBe('$1,234.50');
    expect(formatMoney(123450, 'usd')).toBe('$1,234.50');
    expect(formatMoney(-500, 'USD')).toBe('\u2212$5.00');
    expect(formatMoney(1200, 'EUR')).toBe('€12.00');
    for (const cents of [0, 1, 99, 100, 99_999_999]) {
      expect(formatMoney(cents, 'USD')).toBe(new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100));
    }
  });
});
