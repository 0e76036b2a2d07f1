import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { ConversionJobView } from '@tinkerdesk/contracts';
import { JobWaiter } from './job-waiter.js';

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
};

describe('JobWaiter', () => {
  it('wakes whoever waits for a job when it is announced finished, and only them', async () => {
    const waiter = new JobWaiter();
    const a = waiter.begin('job-a', 30_000)!;
    const a2 = waiter.begin('job-a', 30_000)!;
    const b = waiter.begin('job-b', 30_000)!;
    waiter.wake('job-a');
    expect(await settled(a.done)).toBe(true);
    expect(await settled(a2.done)).toBe(true);
    expect(await settled(b.done)).toBe(false);
    expect(waiter.size).toBe(1);
    b.cancel();
    expect(waiter.size).toBe(0);
  });

  it('hands the job an announcement carries to whoever waits for it; a wait that ends otherwise has none', async () => {
    const waiter = new JobWaiter();
    const woken = waiter.begin('job-a', 30_000)!;
    const cancelled = waiter.begin('job-b', 30_000)!;
    const timedOut = waiter.begin('job-c', 1000)!;
    const job = { id: 'job-a', state: 'completed' } as ConversionJobView;
    waiter.wake('job-a', job);
    cancelled.cancel();
    jest.advanceTimersByTime(1000);
    await expect(woken.done).resolves.toBe(job);
    await expect(cancelled.done).resolves.toBeUndefined();
    await expect(timedOut.done).resolves.toBeUndefined();
    waiter.wake('job-c', job); // too late: it answered already
    await expect(timedOut.done).resolves.toBeUndefined();
  });

  it('gives up when the time is up', async () => {
    const waiter = new JobWaiter();
    const wait = waiter.begin('job', 1000)!;
    jest.advanceTimersByTime(999);
    expect(await settled(wait.done)).toBe(false);
    jest.advanceTimersByTime(1);
    expect(await settled(wait.done)).toBe(true);
    expect(waiter.size).toBe(0);
  });

  it('does not wait for 0 s, nor past its bound of waiting requests', () => {
    const waiter = new JobWaiter(2);
    expect(waiter.begin('job', 0)).toBeUndefined();
    waiter.begin('a', 1000);
    waiter.begin('b', 1000);
    expect(waiter.begin('c', 1000)).toBeUndefined();
  });
});
