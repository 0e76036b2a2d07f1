import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { centsToDollars, dollarsToCents } from './money';

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
