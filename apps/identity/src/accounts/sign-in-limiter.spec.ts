import { describe, expect, it } from '@jest/globals';
import { AppError } from '@tinkerdesk/contracts';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { SIGN_IN_PER_ACCOUNT, SIGN_IN_PER_ACCOUNT_AND_ADDRESS, SignInLimiter } from './sign-in-limiter.js';

function limiter(): SignInLimiter {
  const memory = (rule: { points: number; durationSeconds: number }) =>
    new RateLimiterMemory({ points: rule.points, duration: rule.durationSeconds });
  return new SignInLimiter(memory(SIGN_IN_PER_ACCOUNT_AND_ADDRESS), memory(SIGN_IN_PER_ACCOUNT));
}

async function outcome(attempt: Promise<void>): Promise<'checked' | number> {
  try {
    await attempt;
    return 'checked';
  } catch (error) {
    if (error instanceof AppError && error.code === 'RATE_LIMITED') return error.retryAfterSeconds ?? -1;
    throw error;
  }
}

describe('SignInLimiter', () => {
  it('lets exactly 10 of 40 simultaneous tries of one account from one address through', async () => {
    const rules = limiter();
    const results = await Promise.all(Array.from({ length: 40 }, () => outcome(rules.attempt('user:a', '203.0.113.1'))));
    expect(results.filter((r) => r === 'checked')).toHaveLength(10);
    for (const wait of results.filter((r) => r !== 'checked')) {
      expect(wait).toBeGreaterThan(14 * 60);
      expect(wait).toBeLessThanOrEqual(15 * 60);
    }
  });

  it("does not let a stranger's tries from another address lock the owner out", async () => {
    const rules = limiter();
    for (let i = 0; i < 50; i++) await outcome(rules.attempt('user:a', 'stranger'));
    expect(await outcome(rules.attempt('user:a', 'owner'))).toBe('checked');
  });

  it('stops a campaign spread over many addresses at the account-wide ceiling', async () => {
    const rules = limiter();
    for (let i = 0; i < SIGN_IN_PER_ACCOUNT.points; i++) expect(await outcome(rules.attempt('user:a', `10.0.0.${i}`))).toBe('checked');
    expect(await outcome(rules.attempt('user:a', 'owner'))).toEqual(expect.any(Number));
    expect(await outcome(rules.attempt('user:b', 'owner'))).toBe('checked');
  });

  it('starts an address afresh after a success, and gives the try back to the account', async () => {
    const rules = limiter();
    for (let i = 0; i < 9; i++) await rules.attempt('user:a', 'owner');
    await rules.succeeded('user:a', 'owner');
    for (let i = 0; i < 10; i++) expect(await outcome(rules.attempt('user:a', 'owner'))).toBe('checked');
    expect(await outcome(rules.attempt('user:a', 'owner'))).toEqual(expect.any(Number));
  });
});
