import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { AUTHENTICATION_FAILED, cardOutcome, DECLINED, EXPIRED_CARD, INVALID_NUMBER, luhn, NOT_A_TEST_CARD } from './sandbox.service.js';

const NOW = new Date('2026-11-24T12:00:00Z');
const card = (number: string, expiry = '12/34') => cardOutcome({ number, expiry, cvc: '123' }, NOW);

/** Luhn by the table of doubled digits: a second way to the same answer. */
function luhnByTable(digits: string): boolean {
  const doubled = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9];
  const sum = [...digits].reverse().reduce((total, d, i) => total + (i % 2 === 1 ? (doubled[Number(d)] ?? 0) : Number(d)), 0);
  return digits.length >= 12 && sum % 10 === 0;
}

describe('cardOutcome (Stripe’s test cards)', () => {
  it.each([
    ['4242 4242 4242 4242', { outcome: 'pay' }],
    ['4242424242424242', { outcome: 'pay' }],
    ['4000 0025 0000 3155', { outcome: 'authenticate' }],
    ['4000 0000 0000 0002', { outcome: 'decline', reason: DECLINED }],
    ['4242 4242 4242 4241', { outcome: 'decline', reason: INVALID_NUMBER }],
    ['5555 5555 5555 4444', { outcome: 'decline', reason: NOT_A_TEST_CARD }],
  ])('%s → %j', (number, outcome) => {
    expect(card(number)).toEqual(outcome);
  });

  it('refuses a card that expired last month, and takes one that expires this month', () => {
    expect(card('4242424242424242', '10/26')).toEqual({ outcome: 'decline', reason: EXPIRED_CARD });
    expect(card('4242424242424242', '11/26')).toEqual({ outcome: 'pay' });
  });

  it('names the failed confirmation as Stripe does', () => {
    expect(AUTHENTICATION_FAILED).toMatch(/^We are unable to authenticate your payment method/);
  });
});

describe('luhn', () => {
  it('agrees with the table of doubled digits on any digit string', () => {
    fc.assert(fc.property(fc.stringMatching(/^\d{0,19}$/), (digits) => luhn(digits) === luhnByTable(digits)));
  });
});
