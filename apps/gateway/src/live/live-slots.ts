import { randomUUID } from 'node:crypto';
import { AppError } from '@tinkerdesk/contracts';
import { createRedis } from '@tinkerdesk/nest-common';
import type { Redis } from 'ioredis';
import type { GatewayConfig } from '../config.js';

/**
 * Takes a slot when the account has fewer than `limit` live ones: expired members (leases not
 * renewed: their replica died) go first, then the count, then the new member, in one step.
 * KEYS[1] the account's set; ARGV: now (ms), lease (ms), limit, member. Answers 1 taken, 0 full.
 */
const TAKE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** Renews a slot's lease (only while it is still there) and the key's expiry with it. */
const RENEW = `
if redis.call('ZSCORE', KEYS[1], ARGV[3]) then
  redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1
`;

/** One stream's place in its account's count: renewed with each heartbeat, given back when the stream ends. */
export interface LiveSlot {
  renew(): void;
  /** Gives the slot back (once); resolves when Redis has heard it, or could not. */
  release(): Promise<void>;
}

/**
 * The live streams an account holds open, counted across every gateway replica
 * (docs/api.md "Live events"): a sorted set per account in Redis, `<REDIS_PREFIX>:live:streams:<userId>`, of stream ids
 * scored by when their lease runs out. A stream renews its lease with each heartbeat and removes itself
 * when it ends; a replica that dies without saying so leaves leases that run out within `leaseMs`,
 * and the key itself expires with its last lease.
 */
export class LiveSlots {
  constructor(
    private readonly redis: Pick<Redis, 'eval' | 'zrem' | 'quit'>,
    private readonly prefix: string,
    private readonly limit: number,
    private readonly leaseMs: number,
    private readonly retryAfterSeconds: number,
  ) {}

  private key(userId: string): string {
    return `${this.prefix}:live:streams:${userId}`;
  }

  /** Takes a slot for a new stream: 429 RATE_LIMITED past the limit, 503 UNAVAILABLE when Redis cannot count it. */
  async take(userId: string): Promise<LiveSlot> {
    const key = this.key(userId);
    const member = randomUUID();
    let taken: unknown;
    try {
      taken = await this.redis.eval(TAKE, 1, key, Date.now(), this.leaseMs, this.limit, member);
    } catch {
      // Never let a stream through uncounted.
      throw new AppError('UNAVAILABLE', 'live events are not available right now: try again in a moment');
    }
    if (taken !== 1)
      throw AppError.rateLimited(
        `at most ${this.limit} live streams may be open at once for an account: close one (another tab?) first`,
        this.retryAfterSeconds,
      );
    let released = false;
    return {
      renew: () => {
        if (!released) this.redis.eval(RENEW, 1, key, Date.now(), this.leaseMs, member).catch(() => undefined);
      },
      release: async () => {
        if (released) return;
        released = true;
        // Lost (Redis away): the lease runs out by itself.
        await this.redis.zrem(key, member).catch(() => undefined);
      },
    };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

/** The gateway's slots: LIVE_STREAMS_PER_USER per account, a lease of three heartbeats. */
export function liveSlots(config: GatewayConfig): LiveSlots {
  const redis = createRedis(config.REDIS_URL, 'gateway-live');
  redis.on('error', () => undefined); // an outage answers 503 (LiveSlots.take); no log storm
  return new LiveSlots(
    redis,
    config.REDIS_PREFIX,
    config.LIVE_STREAMS_PER_USER,
    3 * config.LIVE_HEARTBEAT_MS,
    Math.ceil(config.LIVE_HEARTBEAT_MS / 1000),
  );
}
