import { AppError } from '@tinkerdesk/contracts';
import { consumeOrReject, redisLimiter, waitText, type LimitRule } from '@tinkerdesk/nest-common';
import { createHash } from 'node:crypto';
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
/**
 * Tries from one known device (a browser holding a device cookie of the account, OWASP's "device
 * cookies"): a budget of its own, untouched by an attack on the account or from its address.
 */
export const SIGN_IN_PER_DEVICE: LimitRule = { points: 10, durationSeconds: 15 * 60 };
/**
 * Credential stuffing: failed sign-ins from one client address to this many distinct accounts within
 * the window close that address to browsers without a device cookie until the oldest failure ages out
 * (the number: SIGN_IN_ADDRESS_ACCOUNTS of identity's configuration).
 */
export const SIGN_IN_ADDRESS_ACCOUNTS: LimitRule = { points: 20, durationSeconds: 60 * 60 };

const DETAIL = (wait: string): string => `too many failed sign-ins; try again in ${wait}`;
const ADDRESS_DETAIL = (wait: string): string =>
  `too many failed sign-ins to different accounts from your network; sign in from a browser you have used with this account before, or try again in ${wait}`;

/** The distinct accounts a client address failed to sign in to, within a sliding window. */
export interface DistinctFailures {
  /** Records a failure of `member` from `key`. */
  add(key: string, member: string, windowSeconds: number): Promise<void>;
  /** How many distinct members failed within the window, and when the oldest of them ages out (ms). */
  count(key: string, windowSeconds: number): Promise<{ count: number; oldestExpiresInMs: number }>;
}

/** In Redis: one sorted set per address (member: the account's hash; score: the time of its last failure). */
export function redisDistinctFailures(redis: Redis, prefix: string): DistinctFailures {
  const key = (address: string) => `${prefix}:signin:address-accounts:${address}`;
  return {
    async add(address, member, windowSeconds) {
      const now = Date.now();
      await redis
        .multi()
        .zadd(key(address), now, member)
        .zremrangebyscore(key(address), '-inf', now - windowSeconds * 1000)
        .expire(key(address), windowSeconds)
        .exec();
    },
    async count(address, windowSeconds) {
      const now = Date.now();
      const result = await redis
        .multi()
        .zremrangebyscore(key(address), '-inf', now - windowSeconds * 1000)
        .zcard(key(address))
        .zrange(key(address), 0, 0, 'WITHSCORES')
        .exec();
      if (!result || result.some(([error]) => error)) throw new Error('the sign-in counters did not answer');
      const count = Number(result[1]?.[1] ?? 0);
      const oldest = (result[2]?.[1] as string[] | undefined)?.[1];
      return { count, oldestExpiresInMs: oldest ? Number(oldest) + windowSeconds * 1000 - now : 0 };
    },
  };
}

/** In memory, for the rules' unit tests. */
export function memoryDistinctFailures(now: () => number = Date.now): DistinctFailures {
  const sets = new Map<string, Map<string, number>>();
  const live = (address: string, windowSeconds: number) => {
    const set = sets.get(address) ?? new Map<string, number>();
    for (const [member, at] of set) if (at <= now() - windowSeconds * 1000) set.delete(member);
    sets.set(address, set);
    return set;
  };
  return {
    async add(address, member, windowSeconds) {
      live(address, windowSeconds).set(member, now());
    },
    async count(address, windowSeconds) {
      const set = live(address, windowSeconds);
      const oldest = Math.min(...set.values());
      return { count: set.size, oldestExpiresInMs: set.size ? oldest + windowSeconds * 1000 - now() : 0 };
    },
  };
}

/**
 * Sign-in limits, counted in Redis (shared by every identity replica) against the account itself:
 * its guid and its email are one key. Every try is counted atomically before the password is
 * checked, so parallel tries cannot slip past the limit; a success gives the try back.
 *
 * A browser that signed in to the account before (`device`: the id of its known-device row) is counted
 * only against its own budget; every other try is counted per account and address, per account, and
 * refused while its address has failed on too many distinct accounts (credential stuffing).
 */
export class SignInLimiter {
  constructor(
    private readonly perAccountAndAddress: RateLimiterAbstract,
    private readonly perAccount: RateLimiterAbstract,
    private readonly perDevice: RateLimiterAbstract,
    private readonly addressFailures: DistinctFailures,
    private readonly addressAccounts = SIGN_IN_ADDRESS_ACCOUNTS.points,
  ) {}

  static inRedis(redis: Redis, prefix: string, addressAccounts = SIGN_IN_ADDRESS_ACCOUNTS.points): SignInLimiter {
    return new SignInLimiter(
      redisLimiter(redis, prefix, 'signin:account-address', SIGN_IN_PER_ACCOUNT_AND_ADDRESS),
      redisLimiter(redis, prefix, 'signin:account', SIGN_IN_PER_ACCOUNT),
      redisLimiter(redis, prefix, 'signin:device', SIGN_IN_PER_DEVICE),
      redisDistinctFailures(redis, prefix),
      addressAccounts,
    );
  }

  /**
   * Counts a try of `account` from `address` (from the known device `device`, if any); throws 429
   * RATE_LIMITED (with the wait) past a limit. The pair is counted first: tries refused there do
   * not count against the account, so a stranger adds at most 10 to the owner's account-wide count.
   */
  async attempt(account: string, address: string, device?: string): Promise<void> {
    if (device) {
      await consumeOrReject(this.perDevice, device, DETAIL);
      return;
    }
    let seen: { count: number; oldestExpiresInMs: number };
    try {
      seen = await this.addressFailures.count(address, SIGN_IN_ADDRESS_ACCOUNTS.durationSeconds);
    } catch {
      throw new AppError('UNAVAILABLE', 'the limit counters are not reachable right now; try again shortly');
    }
    if (seen.count >= this.addressAccounts) {
      const seconds = Math.max(1, seen.oldestExpiresInMs / 1000);
      throw AppError.rateLimited(ADDRESS_DETAIL(waitText(seconds)), seconds);
    }
    await consumeOrReject(this.perAccountAndAddress, `${account}|${address}`, DETAIL);
    await consumeOrReject(this.perAccount, account, DETAIL);
  }

  /** A wrong password (or no such account) from a browser without a device cookie: the address saw one more account fail. */
  async failed(account: string, address: string, device?: string): Promise<void> {
    if (device) return;
    const member = createHash('sha256').update(account).digest('base64url').slice(0, 22);
    await this.addressFailures.add(address, member, SIGN_IN_ADDRESS_ACCOUNTS.durationSeconds).catch(() => undefined);
  }

  /** The right password: this address (or device) starts afresh for this account, and the try is given back. */
  async succeeded(account: string, address: string, device?: string): Promise<void> {
    const done = device
      ? [this.perDevice.delete(device)]
      : [this.perAccountAndAddress.delete(`${account}|${address}`), this.perAccount.reward(account, 1)];
    await Promise.all(done).catch(() => undefined);
  }
}
