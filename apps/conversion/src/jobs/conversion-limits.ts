import { consumeOrReject, redisLimiter } from '@tinkerdesk/nest-common';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

export interface ConversionLimitSettings {
  jobsPerMinute: number;
  bytesPerDay: number;
}

/**
 * Per-account limits on conversion, in Redis so every listener and worker replica shares them: jobs
 * created per minute, and bytes converted per day (uploads when they are queued, URL content when a
 * worker has fetched it). Over a limit: 429 RATE_LIMITED with Retry-After.
 */
export class ConversionLimits {
  private readonly jobs: RateLimiterAbstract;
  private readonly bytes: RateLimiterAbstract;

  constructor(redis: Redis, prefix: string, settings: ConversionLimitSettings) {
    this.jobs = redisLimiter(redis, prefix, 'conversion-jobs', { points: settings.jobsPerMinute, durationSeconds: 60 });
    this.bytes = redisLimiter(redis, prefix, 'conversion-bytes', { points: settings.bytesPerDay, durationSeconds: 24 * 3600 });
  }

  /**
   * Counts a job and, for an upload, its `bytes`, both at once (one round trip instead of two). Refused
   * by either, the other's count is given back and the refusal answered (the job's first): a refused
   * create counts nothing but what the refusing counter itself took.
   */
  async count(ownerId: string, bytes: number | undefined): Promise<void> {
    const [job, size] = await Promise.allSettled([
      this.countJob(ownerId),
      bytes === undefined ? Promise.resolve() : this.countBytes(ownerId, bytes),
    ]);
    if (job.status === 'fulfilled' && size.status === 'fulfilled') return;
    await Promise.all([
      job.status === 'fulfilled' ? this.jobs.reward(ownerId, 1) : undefined,
      size.status === 'fulfilled' && bytes !== undefined ? this.bytes.reward(ownerId, Math.max(1, bytes)) : undefined,
    ]).catch(() => undefined);
    throw job.status === 'rejected' ? job.reason : (size as PromiseRejectedResult).reason;
  }

  countJob(ownerId: string): Promise<void> {
    return consumeOrReject(this.jobs, ownerId, (wait) => `too many conversions; try again in ${wait}`);
  }

  /**
   * Gives back what `countJob` and `countBytes` (an upload's `bytes`) counted for a request that made
   * nothing: a create under an Idempotency-Key answered with the job another request under the key made.
   * Best effort: counters out of reach keep the count (the limit errs on the strict side).
   */
  async uncount(ownerId: string, bytes: number | undefined): Promise<void> {
    await Promise.all([
      this.jobs.reward(ownerId, 1),
      ...(bytes === undefined ? [] : [this.bytes.reward(ownerId, Math.max(1, bytes))]),
    ]).catch(() => undefined);
  }

  countBytes(ownerId: string, bytes: number): Promise<void> {
    return consumeOrReject(
      this.bytes,
      ownerId,
      (wait) => `this account has converted as much as it may today; try again in ${wait}`,
      Math.max(1, bytes),
    );
  }
}

export const CONVERSION_LIMITS = Symbol('CONVERSION_LIMITS');
