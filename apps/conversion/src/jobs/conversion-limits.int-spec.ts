import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { ConversionLimits } from './conversion-limits.js';

// Real Redis, under a prefix of this run's own: a job's two counters, counted at once.
const prefix = `t${randomBytes(4).toString('hex')}`;
let redis: Redis;
let limits: ConversionLimits;

beforeAll(() => {
  redis = new Redis('redis://localhost:6379');
  limits = new ConversionLimits(redis, prefix, { jobsPerMinute: 2, bytesPerDay: 1000 });
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis?.disconnect();
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'counted';
  } catch (error) {
    const { code, detail } = error as { code?: string; detail?: string };
    return `${code}: ${detail}`;
  }
}

/** What a counter of `owner` holds now (its key as redisLimiter names it; 0 when it has none). */
async function counted(name: string, owner: string): Promise<number> {
  return Number((await redis.get(`${prefix}:rl:${name}:${owner}`)) ?? 0);
}

describe('ConversionLimits.count', () => {
  it('counts the job and its bytes, and refuses past either limit (the job’s refusal first)', async () => {
    const owner = randomUUID();
    expect(await refusal(limits.count(owner, 400))).toBe('counted');
    expect(await refusal(limits.count(owner, 400))).toBe('counted');
    expect(await refusal(limits.count(owner, 400))).toMatch(/^RATE_LIMITED: too many conversions/);
  });

  it('gives the job back when the bytes are refused, and the bytes back when the job is', async () => {
    const owner = randomUUID();
    expect(await refusal(limits.count(owner, 900))).toBe('counted');
    // 900 + 200 is past the day's 1000 bytes: refused, and the job it counted goes back.
    expect(await refusal(limits.count(owner, 200))).toMatch(/^RATE_LIMITED: this account has converted as much as it may today/);
    expect(await counted('conversion-jobs', owner)).toBe(1);
    const other = randomUUID();
    expect(await refusal(limits.count(other, 100))).toBe('counted');
    expect(await refusal(limits.count(other, 100))).toBe('counted');
    // The minute's two jobs are spent: the third is refused, and its 100 bytes go back.
    expect(await refusal(limits.count(other, 100))).toMatch(/^RATE_LIMITED: too many conversions/);
    expect(await counted('conversion-bytes', other)).toBe(200);
  });

  it('a job without bytes (a URL) counts the job alone', async () => {
    const owner = randomUUID();
    expect(await refusal(limits.count(owner, undefined))).toBe('counted');
    expect(await counted('conversion-jobs', owner)).toBe(1);
    expect(await counted('conversion-bytes', owner)).toBe(0);
  });
});
