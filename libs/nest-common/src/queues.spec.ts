import { describe, expect, it } from '@jest/globals';
import type { JobsOptions } from 'bullmq';
import { QueueProducer, type ProducerQueue } from './queues.js';

class FakeQueue implements ProducerQueue<{ id: string }> {
  added: Array<{ name: string; data: { id: string }; options: JobsOptions }> = [];
  onError: ((err: Error) => void) | undefined;
  add(name: string, data: { id: string }, options: JobsOptions) {
    this.added.push({ name, data, options });
    return Promise.resolve();
  }
  on(_event: 'error', listener: (err: Error) => void) {
    this.onError = listener;
    return this;
  }
}

describe('QueueProducer', () => {
  it('adds each job with its attempts and exponential backoff, and the queue settings of finished jobs', async () => {
    const queue = new FakeQueue();
    const producer = new QueueProducer(
      queue,
      { attempts: 5, retryDelayMs: 250, removeOnComplete: true },
      { warn: () => undefined },
      'test',
    );
    await producer.add('work', { id: 'a' });
    expect(queue.added).toEqual([
      { name: 'work', data: { id: 'a' }, options: { attempts: 5, backoff: { type: 'exponential', delay: 250 }, removeOnComplete: true } },
    ]);
  });

  it("a call's own options add to the queue's and win over them", async () => {
    const queue = new FakeQueue();
    const producer = new QueueProducer(
      queue,
      { attempts: 5, retryDelayMs: 250, removeOnComplete: true },
      { warn: () => undefined },
      'test',
    );
    await producer.add('work', { id: 'b' }, { jobId: 'b', removeOnComplete: { age: 60 } });
    expect(queue.added[0]?.options).toEqual({
      attempts: 5,
      backoff: { type: 'exponential', delay: 250 },
      removeOnComplete: { age: 60 },
      jobId: 'b',
    });
  });

  it('logs the queue connection errors with its label', () => {
    const queue = new FakeQueue();
    const lines: Array<[unknown, string]> = [];
    new QueueProducer(
      queue,
      { attempts: 1, retryDelayMs: 10 },
      { warn: (obj: object, msg: string) => void lines.push([obj, msg]) },
      'mail',
    );
    queue.onError?.(new Error('ECONNREFUSED'));
    expect(lines).toEqual([[{ err: 'ECONNREFUSED' }, 'mail queue error']]);
  });
});
