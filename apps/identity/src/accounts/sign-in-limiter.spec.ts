import { describe, expect, it } from '@jest/globals';
import { AppError } from '@tinkerdesk/contracts';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import {
  memoryDistinctFailures,
  SIGN_IN_ADDRESS_ACCOUNTS,
  SIGN_IN_PER_ACCOUNT,
  SIGN_IN_PER_ACCOUNT_AND_ADDRESS,
  SIGN_IN_PER_DEVICE,
  SignInLimiter,
} from './sign-in-limiter.js';

let clock = 1_800_000_000_000;

function limiter(): SignInLimiter {
  const memory = (rule: { points: number; durationSeconds: number }) =>
    new RateLimiterMemory({ points: rule.points, duration: rule.durationSeconds });
  return new SignInLimiter(
    memory(SIGN_IN_PER_ACCOUNT_AND_ADDRESS),
    memory(SIGN_IN_PER_ACCOUNT),
    memory(SIGN_IN_PER_DEVICE),
    memoryDistinctFailures(() => clock),
  );
}

/** A try that fails, as the service reports it. */
async function failedTry(rules: SignInLimiter, account: string, address: string, device?: string): Promise<'checked' | number> {
  const result = await outcome(rules.attempt(account, address, device));
  if (result === 'checked') await rules.failed(account, address, device);
  return result;
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

  it('closes an address to unknown browsers after failures on 20 distinct accounts (credential stuffing), not on one account', async () => {
    const rules = limiter();
    for (let i = 0; i < 9; i++) expect(await failedTry(rules, 'user:owner', 'carrier')).toBe('checked');
    for (let i = 0; i < SIGN_IN_ADDRESS_ACCOUNTS.points - 1; i++) expect(await failedTry(rules, `user:${i}`, 'carrier')).toBe('checked');
    // 19 + the owner's typos: 20 distinct accounts; the next unknown browser from there is refused, for any account.
    const refused = await outcome(rules.attempt('user:someone-else', 'carrier'));
    expect(refused).toEqual(expect.any(Number));
    expect(refused as number).toBeGreaterThan(59 * 60);
    expect(await outcome(rules.attempt('user:someone-else', 'another-network'))).toBe('checked');
  });

  it('lets the owner in from a known device during an attack from their own address', async () => {
    const rules = limiter();
    for (let i = 0; i < 30; i++) await failedTry(rules, `user:${i}`, 'carrier');
    for (let i = 0; i < 200; i++) await failedTry(rules, 'user:owner', `botnet-${i}`);
    expect(await outcome(rules.attempt('user:owner', 'carrier'))).toEqual(expect.any(Number));
    expect(await outcome(rules.attempt('user:owner', 'carrier', 'device-1'))).toBe('checked');
  });

  it('gives a known device its own budget of 10 tries, and a success starts it afresh', async () => {
    const rules = limiter();
    const results = await Promise.all(Array.from({ length: 30 }, () => failedTry(rules, 'user:owner', 'home', 'device-1')));
    expect(results.filter((r) => r === 'checked')).toHaveLength(SIGN_IN_PER_DEVICE.points);
    expect(await outcome(rules.attempt('user:owner', 'home', 'device-2'))).toBe('checked');
    await rules.succeeded('user:owner', 'home', 'device-2');
    // Failures on a known device do not count towards the address-wide ceiling.
    expect(await outcome(rules.attempt('user:other', 'home'))).toBe('checked');
  });

  it('forgets failures once the window has passed', async () => {
    const rules = limiter();
    for (let i = 0; i < SIGN_IN_ADDRESS_ACCOUNTS.points; i++) await failedTry(rules, `user:${i}`, 'cafe');
    expect(await outcome(rules.attempt('user:x', 'cafe'))).toEqual(expect.any(Number));
    clock += SIGN_IN_ADDRESS_ACCOUNTS.durationSeconds * 1000 + 1;
    expect(await outcome(rules.attempt('user:x', 'cafe'))).toBe('checked');
  });
});
