import { describe, expect, it } from '@jest/globals';
import { AppError } from '@tinkerdesk/contracts';
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { consumeOrReject, waitText } from './rate-limit.js';

describe('waitText', () => {
  it('speaks in seconds under two minutes, else in whole minutes rounded up', () => {
    expect(waitText(0.2)).toBe('1 second');
    expect(waitText(42)).toBe('42 seconds');
    expect(waitText(899.5)).toBe('15 minutes');
    expect(waitText(3600)).toBe('60 minutes');
  });
});

describe('consumeOrReject', () => {
  it('lets `points` tries through, then answers RATE_LIMITED with the wait', async () => {
    const limiter = new RateLimiterMemory({ points: 2, duration: 60 });
    const detail = (wait: string) => `slow down; try again in ${wait}`;
    await consumeOrReject(limiter, 'k', detail);
    await consumeOrReject(limiter, 'k', detail);
    const error = await consumeOrReject(limiter, 'k', detail).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 60, detail: 'slow down; try again in 60 seconds' });
    await consumeOrReject(limiter, 'other key', detail);
  });

  it('answers UNAVAILABLE when the counter store fails, never letting the try through uncounted', async () => {
    const broken = { consume: () => Promise.reject(new Error('Redis is not ready')) } as unknown as RateLimiterAbstract;
    await expect(consumeOrReject(broken, 'k', (w) => w)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});
