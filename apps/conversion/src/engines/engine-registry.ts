import { engineStatus, isConversionEngine, type ConversionEngine, type EngineStatus } from '@tinkerdesk/contracts';
import type { Redis } from 'ioredis';

/** How long a worker's announcement lasts without renewal (ENGINE_ANNOUNCEMENT_TTL_MS): a worker killed outright (SIGKILL) drops out after this. */
export const ENGINE_ANNOUNCEMENT_TTL_MS = 15_000;

/** How often a live worker renews an announcement that lasts `ttlMs`: three times within it. */
export function heartbeatMs(ttlMs: number): number {
  return Math.max(250, Math.round(ttlMs / 3));
}

interface Announcement {
  worker: string;
  engines: ConversionEngine[];
}

/**
 * The engines of the live workers, in Redis: one sorted set whose members are the workers'
 * announcements (their id and engines), scored by the time each expires. A worker renews its own every
 * few seconds and takes it away when it stops; one that dies without a word drops out once its time is
 * up. The conversion service reads the live ones (GET /v1/convert/formats, /v1/health, job admission).
 */
export class EngineRegistry {
  private readonly key: string;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly ttlMs = ENGINE_ANNOUNCEMENT_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.key = `${prefix}:conversion:workers`;
  }

  private member(worker: string, engines: readonly ConversionEngine[]): string {
    return JSON.stringify({ worker, engines: [...engines] } satisfies Announcement);
  }

  /** Says (again) that `worker` is live with `engines`, until the TTL passes. */
  async announce(worker: string, engines: readonly ConversionEngine[]): Promise<void> {
    await this.redis
      .multi()
      .zadd(this.key, this.now() + this.ttlMs, this.member(worker, engines))
      .pexpire(this.key, this.ttlMs * 2) // the set itself goes once no worker renews it
      .exec();
  }

  /** `worker` stops: its engines are no longer offered. */
  async withdraw(worker: string, engines: readonly ConversionEngine[]): Promise<void> {
    await this.redis.zrem(this.key, this.member(worker, engines));
  }

  /** The engines of the workers live now (expired announcements are removed on the way). */
  async status(): Promise<EngineStatus> {
    const now = this.now();
    const [, live] = (await this.redis.multi().zremrangebyscore(this.key, '-inf', now).zrangebyscore(this.key, now, '+inf').exec()) ?? [];
    const members = Array.isArray(live?.[1]) ? (live[1] as string[]) : [];
    return engineStatus(
      members
        .map(parse)
        .filter((a): a is Announcement => a !== undefined)
        .map((a) => a.engines),
    );
  }
}

function parse(member: string): Announcement | undefined {
  try {
    const value = JSON.parse(member) as Partial<Announcement>;
    if (typeof value.worker !== 'string' || !Array.isArray(value.engines)) return undefined;
    return { worker: value.worker, engines: value.engines.filter(isConversionEngine) };
  } catch {
    return undefined;
  }
}
