import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { AppError } from '@tinkerdesk/contracts';
import { Redis } from 'ioredis';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';

export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_ADDRESS = 50;

/**
 * Repeated failed sign-ins are limited per account and per client address, with counters in Redis
 * so every gateway replica shares them. A success clears the account's counter.
 */
@Injectable()
export class SignInLimiter implements OnApplicationShutdown {
  private readonly redis: Redis;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {
    this.redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    this.redis.on('error', () => undefined);
  }

  private keys(identifier: string, address: string): [string, string] {
    const prefix = `${this.config.REDIS_PREFIX}:signin-failures`;
    return [`${prefix}:account:${identifier.trim().toLowerCase()}`, `${prefix}:address:${address}`];
  }

  /** Throws RATE_LIMITED (429) when either counter is at its limit. */
  async check(identifier: string, address: string): Promise<void> {
    const [account, client] = this.keys(identifier, address);
    let counts: Array<string | null>;
    try {
      counts = await this.redis.mget(account, client);
    } catch {
      throw new AppError('UNAVAILABLE', 'sign-in is unavailable right now; try again shortly');
    }
    if (Number(counts[0] ?? 0) >= MAX_FAILURES_PER_ACCOUNT || Number(counts[1] ?? 0) >= MAX_FAILURES_PER_ADDRESS) {
      throw new AppError('RATE_LIMITED', `too many failed sign-ins; try again in ${SIGN_IN_WINDOW_SECONDS / 60} minutes`);
    }
  }

  async failed(identifier: string, address: string): Promise<void> {
    const multi = this.redis.multi();
    for (const key of this.keys(identifier, address)) multi.incr(key).expire(key, SIGN_IN_WINDOW_SECONDS, 'NX');
    await multi.exec().catch(() => undefined);
  }

  async succeeded(identifier: string, address: string): Promise<void> {
    await this.redis.del(this.keys(identifier, address)[0]).catch(() => undefined);
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}
