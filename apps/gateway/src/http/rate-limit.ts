import { createHash } from 'node:crypto';
import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
  type OnApplicationShutdown,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import { consumeOrReject, createRedis, redisLimiter, type LimitRule } from '@tinkerdesk/nest-common';
import type { Request } from 'express';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Observable } from 'rxjs';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';
import { RATE_LIMITED_EXTENSION } from './api-docs.js';
import type { RouteLimit } from './rate-limits.js';

const RATE_LIMIT_KEY = 'tinkerdesk:rate-limit';

/**
 * The client's address: the TCP peer, or what a proxy named in TRUST_PROXY says in X-Forwarded-For
 * (Express's req.ip under the 'trust proxy' setting of start.ts).
 */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** Targets (emails) are hashed in the keys: fixed length, and no address book in Redis. */
function targetKey(target: string): string {
  return createHash('sha256').update(target).digest('base64url');
}

/** Limit counters in Redis, shared by every gateway replica; one counter per route and kind of key. */
@Injectable()
export class RateLimits implements OnApplicationShutdown {
  private readonly redis: Redis;
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {
    this.redis = createRedis(config.REDIS_URL, 'gateway-limits');
    this.redis.on('error', () => undefined); // an outage answers 503 (consumeOrReject); no log storm
  }

  private limiter(name: string, rule: LimitRule): RateLimiterAbstract {
    let limiter = this.limiters.get(name);
    if (!limiter) {
      const scaled = { points: rule.points * this.config.RATE_LIMIT_FACTOR, durationSeconds: rule.durationSeconds };
      limiter = redisLimiter(this.redis, this.config.REDIS_PREFIX, name, scaled);
      this.limiters.set(name, limiter);
    }
    return limiter;
  }

  /** Counts one call of `limit` from `address` for `target`; throws 429 RATE_LIMITED past either limit. */
  async consume(limit: RouteLimit, address: string, target: string | undefined): Promise<void> {
    const detail = (wait: string): string => `too many ${limit.what}; try again in ${wait}`;
    await consumeOrReject(this.limiter(`${limit.name}:address`, limit.perAddress), address, detail);
    if (target !== undefined) await consumeOrReject(this.limiter(`${limit.name}:target`, limit.perTarget), targetKey(target), detail);
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}

/**
 * Applies a route's limit before its handler. An interceptor rather than a guard: Nest runs every
 * guard first, so the limit always sees the session BearerGuard verified (a per-account target),
 * and calls without a valid token never use up an account's allowance.
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(RateLimits) private readonly limits: RateLimits,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const limit = this.reflector.get<RouteLimit | undefined>(RATE_LIMIT_KEY, context.getHandler());
    if (limit) {
      const req = context.switchToHttp().getRequest<Request & { session?: { userId: string } }>();
      await this.limits.consume(limit, clientAddress(req), limit.target(req));
    }
    return next.handle();
  }
}

/** Limits a route per client address and per target (see http/rate-limits.ts); 429 with Retry-After past either. */
export function RateLimit(limit: RouteLimit): MethodDecorator {
  return applyDecorators(
    SetMetadata(RATE_LIMIT_KEY, limit),
    UseInterceptors(RateLimitInterceptor),
    ApiExtension(RATE_LIMITED_EXTENSION, true),
  );
}
