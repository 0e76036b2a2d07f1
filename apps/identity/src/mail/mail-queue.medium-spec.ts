import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@tinkerdesk/nest-common';
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import type { MailKeysRepository } from './mail-keys.repository.js';
import { MAIL_CLEAN_EVERY_MS, MAIL_CLEAN_QUEUE_NAME, MAIL_QUEUE_NAME, MAIL_WORKER_OPTIONS, MailQueue, type MailJob } from './mail-queue.js';

// The mail queue's age-based clean against the real Redis, under a key prefix of its own.
const connection = { url: 'redis://localhost:6379' };
const prefix = `td-mail-clean-${randomBytes(4).toString('hex')}`;
let queue: Queue<MailJob>;
let cleanQueue: Queue<Record<string, never>>;
let events: QueueEvents;
let worker: Worker<MailJob>;
let mail: MailQueue;

/** Keyed mails are kept an hour after they were sent (MAIL_KEY_JOB_SECONDS); `fail` fails its only try. */
async function finished(id: string, fail = false): Promise<void> {
  const job = await queue.add(
    'message',
    { kind: 'message', message: { to: 'a@example.test', subject: fail ? 'fail' : 'ok', text: 'x' } },
    { jobId: id, attempts: 1, removeOnComplete: { age: 3600 }, removeOnFail: { age: 3600 } },
  );
  await job.waitUntilFinished(events).catch(() => undefined);
}

const exists = async (id: string) => (await queue.getJob(id)) !== undefined;

beforeAll(async () => {
  queue = new Queue<MailJob>(MAIL_QUEUE_NAME, { connection, prefix });
  cleanQueue = new Queue<Record<string, never>>(MAIL_CLEAN_QUEUE_NAME, { connection, prefix });
  events = new QueueEvents(MAIL_QUEUE_NAME, { connection, prefix });
  await events.waitUntilReady();
  worker = new Worker<MailJob>(
    MAIL_QUEUE_NAME,
    async (job: Job<MailJob>) => {
      if (job.data.kind === 'message' && job.data.message.subject === 'fail') throw new Error('451 try later');
      return 'sent';
    },
    { connection, prefix },
  );
  const keys = {} as MailKeysRepository; // clean never reads the keys
  mail = new MailQueue(queue, cleanQueue, { retryDelayMs: 10, keyRetentionDays: 7 }, keys, createLogger('mail-clean-test', 'silent'));
});

afterAll(async () => {
  await worker?.close();
  await events?.close();
  await queue?.obliterate({ force: true });
  await queue?.close();
  await cleanQueue?.obliterate({ force: true });
  await cleanQueue?.close();
});

describe('MailQueue.clean (finished jobs go by age, not only when a later job finishes)', () => {
  it('removes sent and failed jobs older than their age and keeps the newer ones', async () => {
    await finished('key_old_sent');
    await finished('key_old_failed', true);
    await new Promise((resolve) => setTimeout(resolve, 600));
    await finished('key_new_sent');
    await finished('key_new_failed', true);
    expect(await Promise.all(['key_old_sent', 'key_old_failed', 'key_new_sent', 'key_new_failed'].map(exists))).toEqual([
      true,
      true,
      true,
      true,
    ]);

    await expect(mail.clean(400, 400)).resolves.toBe(2);
    expect(await Promise.all(['key_old_sent', 'key_old_failed', 'key_new_sent', 'key_new_failed'].map(exists))).toEqual([
      false,
      false,
      true,
      true,
    ]);
    // With the documented ages (an hour, a week) nothing this young goes.
    await expect(mail.clean()).resolves.toBe(0);
    expect(await exists('key_new_sent')).toBe(true);
  });

  it('removes more than one batch of old jobs in one call', async () => {
    await queue.addBulk(
      Array.from({ length: 1200 }, (_, i) => ({
        name: 'message',
        data: { kind: 'message' as const, message: { to: 'a@example.test', subject: 'ok', text: String(i) } },
        opts: { jobId: `key_bulk_${i}`, removeOnComplete: { age: 3600 } },
      })),
    );
    const deadline = Date.now() + 30_000;
    while ((await queue.getCompletedCount()) < 1200 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const completed = await queue.getCompletedCount();
    expect(completed).toBeGreaterThanOrEqual(1200);
    const failed = await queue.getFailedCount();
    await expect(mail.clean(0, 0)).resolves.toBe(completed + failed);
    expect(await queue.getCompletedCount()).toBe(0);
  });

  it('schedules its clean once, however many replicas start, on a queue of its own (the mail queue holds mails only)', async () => {
    await mail.onApplicationBootstrap();
    await mail.onApplicationBootstrap();
    const schedulers = await cleanQueue.getJobSchedulers();
    expect(schedulers).toHaveLength(1);
    expect(schedulers[0]).toMatchObject({ key: 'mail-clean', every: MAIL_CLEAN_EVERY_MS });
    expect(await queue.getJobSchedulers()).toEqual([]);
    expect(await queue.getJobCounts('waiting', 'delayed', 'prioritized')).toEqual({ waiting: 0, delayed: 0, prioritized: 0 });
  });
});

describe('a mail left taken by a worker that no longer runs it', () => {
  // A replica that crashed mid-job, or a Redis that stopped after it ran a worker's take but before the
  // answer arrived (the client takes the next job when Redis is back): the job stays active, locked by
  // nobody. With BullMQ's defaults it waited 30 to 60 s; the mail worker's options send it within about
  // 15 s (the test waits up to 25).
  it('is sent by a running worker once its lock lapses', async () => {
    const ownPrefix = `td-mail-stall-${randomBytes(4).toString('hex')}`;
    const stallQueue = new Queue<MailJob>(MAIL_QUEUE_NAME, { connection, prefix: ownPrefix });
    const gone = new Worker<MailJob>(MAIL_QUEUE_NAME, null, { connection, prefix: ownPrefix, ...MAIL_WORKER_OPTIONS });
    let live: Worker<MailJob> | undefined;
    try {
      const added = await stallQueue.add('reset', { kind: 'reset', email: 'stalled@example.test' });
      const taken = await gone.getNextJob('a-replica-that-crashed');
      expect(taken?.id).toBe(added.id);
      await gone.close();
      expect(await stallQueue.getJobCounts('active', 'waiting')).toEqual({ active: 1, waiting: 0 });

      const sent: string[] = [];
      live = new Worker<MailJob>(
        MAIL_QUEUE_NAME,
        async (job: Job<MailJob>) => {
          sent.push(job.id ?? '');
          return 'sent';
        },
        { connection, prefix: ownPrefix, ...MAIL_WORKER_OPTIONS },
      );
      const deadline = Date.now() + 25_000;
      while (sent.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(sent).toEqual([added.id]);
    } finally {
      await live?.close();
      await gone.close();
      await stallQueue.obliterate({ force: true });
      await stallQueue.close();
    }
  }, 40_000);
});
