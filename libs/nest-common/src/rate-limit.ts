import { AppError } from '@tinkerdesk/contracts';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** `points` tries per `durationSeconds`, counted per key. */
export interface LimitRule {
  points: number;
  durationSeconds: number;
}

/**
 * A fixed-window counter in Redis (one atomic INCR with expiry per try, rate-limiter-flexible's
 * RateLimiterRedis), shared by every replica. Keys are `<prefix>:rl:<name>:<key>`. While the
 * connection is being made, tries wait in ioredis's queue; when Redis does not answer (after one
 * retry, see createRedis), a try fails (see `consumeOrReject`) rather than going uncounted.
 */
export function redisLimiter(redis: Redis, prefix: string, name: string, rule: LimitRule): RateLimiterAbstract {
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${prefix}:rl:${name}`,
    points: rule.points,
    duration: rule.durationSeconds,
  });
}

/** "42 seconds", "15 minutes": how long to wait, for error details. */
export function waitText(seconds: number): string {
  if (seconds < 120) {
    const whole = Math.max(1, Math.ceil(seconds));
    return `${whole} second${whole === 1 ? '' : 's'}`;
  }
  return `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * Counts one try (or `points`: bytes, say) under `key`, atomically, before the work it guards. Over the limit: 429
 * RATE_LIMITED with the wait (Retry-After). Counter store unreachable: 503 UNAVAILABLE.
 */
export async function consumeOrReject(
  limiter: RateLimiterAbstract,
  key: string,
  detail: (wait: string) => string,
  points = 1,
): Promise<void> {
  try {
    await limiter.consume(key, points);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      const seconds = rejection.msBeforeNext / 1000;
      throw AppError.rateLimited(detail(waitText(seconds)), seconds);
    }
    throw new AppError('UNAVAILABLE', 'the limit counters are not reachable right now; try again shortly');
  }
}
