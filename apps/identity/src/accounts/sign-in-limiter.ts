import { consumeOrReject, redisLimiter, type LimitRule } from '@tinkerdesk/nest-common';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/** Tries of one account from one client address: an attacker's guesses, or the owner's typos. */
export const SIGN_IN_PER_ACCOUNT_AND_ADDRESS: LimitRule = { points: 10, durationSeconds: 15 * 60 };
/**
 * Tries of one account from everywhere together: far higher, so that one stranger (capped at 10 by
 * the rule above) or a whole office cannot lock the owner out; it stops a guessing campaign spread
 * over many addresses.
 */
export const SIGN_IN_PER_ACCOUNT: LimitRule = { points: 100, durationSeconds: 15 * 60 };

const DETAIL = (wait: string): string => `too many failed sign-ins; try again in ${wait}`;

/**
 * Sign-in limits, counted in Redis (shared by every identity replica) against the account itself:
 * its guid and its email are one key. Every try is counted atomically before the password is
 * checked, so parallel tries cannot slip past the limit; a success gives the try back.
 */
export class SignInLimiter {
  constructor(
    private readonly perAccountAndAddress: RateLimiterAbstract,
    private readonly perAccount: RateLimiterAbstract,
  ) {}

  static inRedis(redis: Redis, prefix: string): SignInLimiter {
    return new SignInLimiter(
      redisLimiter(redis, prefix, 'signin:account-address', SIGN_IN_PER_ACCOUNT_AND_ADDRESS),
      redisLimiter(redis, prefix, 'signin:account', SIGN_IN_PER_ACCOUNT),
    );
  }

  /**
   * Counts a try of `account` from `address`; throws 429 RATE_LIMITED (with the wait) past either
   * limit. The pair is counted first: tries refused there do not count against the account, so a
   * stranger adds at most 10 to the owner's account-wide count.
   */
  async attempt(account: string, address: string): Promise<void> {
    await consumeOrReject(this.perAccountAndAddress, `${account}|${address}`, DETAIL);
    await consumeOrReject(this.perAccount, account, DETAIL);
  }

  /** The right password: this address starts afresh for this account, and the try is given back. */
  async succeeded(account: string, address: string): Promise<void> {
    await Promise.all([this.perAccountAndAddress.delete(`${account}|${address}`), this.perAccount.reward(account, 1)]).catch(
      () => undefined,
    );
  }
}
