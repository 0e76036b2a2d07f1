import { Redis } from 'ioredis';

export interface RedisOptions {
  /**
   * BullMQ queues and workers need `maxRetriesPerRequest: null` (a blocking worker command must
   * wait out a reconnect). Everything else (rate limit counters) fails after one retry, so a
   * Redis outage answers 503 at once instead of holding requests.
   */
  forBullmq?: boolean;
}

/** A Redis connection named after its user (visible in CLIENT LIST). */
export function createRedis(url: string, name: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    connectionName: name,
    lazyConnect: false,
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
