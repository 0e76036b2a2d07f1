import { Redis } from 'ioredis';

export interface RedisOptions {
  /**
   * BullMQ queues and workers need `maxRetriesPerRequest: null` (a blocking worker command must
   * wait out a reconnect). Everything else (rate limit counters) fails after one retry, so a
   * Redis outage answers 503 at once instead of holding requests.
   */
  forBullmq?: boolean;
}

/**
 * Waits between reconnection tries: 100 ms, 200 ms, then every 500 ms (ioredis's default grows to 2 s).
 * A command waiting while Redis is down fails after one failed try, so a Redis outage answers 503 in
 * about half a second rather than two; and every connection is back within half a second of Redis's return
 * (apps/gateway/test/outage-redis.int-spec.ts).
 */
export const redisRetryDelay = (times: number): number => Math.min(times * 100, 500);

/** A Redis connection named after its user (visible in CLIENT LIST). */
export function createRedis(url: string, name: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    connectionName: name,
    lazyConnect: false,
    retryStrategy: redisRetryDelay,
    maxRetriesPerRequest: options.forBullmq ? null : 1,
    ...(options.forBullmq ? {} : { connectTimeout: 2000 }),
  });
}

/** A health check: PING answered within `timeoutMs`. */
export async function pingRedis(redis: Redis, timeoutMs = 500): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const pong = await Promise.race([
      redis.ping(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`redis did not answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    if (pong !== 'PONG') throw new Error(`unexpected redis answer ${pong}`);
  } finally {
    clearTimeout(timer);
  }
}
