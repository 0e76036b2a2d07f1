import { InjectQueue, OnWorkerEvent, Processor } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { PushMessage } from '@tinkerdesk/contracts';
import { DrainingWorkerHost, isDependencyUnavailable, QUICK_JOB_WORKER_OPTIONS, QueueProducer, type Logger } from '@tinkerdesk/nest-common';
import { DelayedError, UnrecoverableError, type Job, type Queue } from 'bullmq';
import { TERMINALS_LOGGER } from '../logger.token.js';
import { PushSender } from '../push/push-sender.js';
import { TerminalsRepository } from './terminals.repository.js';

/** The BullMQ queue of push deliveries (`BullModule.registerQueue({ name: PUSH_QUEUE })`). */
export const PUSH_QUEUE = 'terminals-push';
export const PUSH_QUEUE_SETTINGS = Symbol('PUSH_QUEUE_SETTINGS');

export interface PushQueueSettings {
  attempts: number;
  retryDelayMs: number;
  ttlSeconds: number;
}

export interface PushJob {
  shareId: string;
  terminalId: string;
  message: PushMessage;
  /**
   * The outcome decided by a try whose write of it met a database outage (kept in the job, in Redis): the
   * next try only writes it, so a push the service took is not sent twice and a final refusal is not lost.
   */
  outcome?: { push: 'sent' | 'failed'; error: string | null };
}

/**
 * Delivers the push of each share through a BullMQ queue: a push service that is down or busy
 * (network errors, 429, 5xx) is tried again with exponential backoff, up to PUSH_ATTEMPTS times and
 * never past the message's TTL; a subscription the push service says is gone (404, 410) is
 * forgotten at once, as ntfy does; the share stays in the inbox whatever happens, with its push state.
 * PushQueue queues (the push listener of the outbox calls it after the share's commit, terminals-outbox.ts);
 * PushProcessor (below) delivers. Part of the terminals feature: it reads and writes shares.
 */
@Injectable()
export class PushQueue {
  private readonly producer: QueueProducer<PushJob>;

  constructor(
    @InjectQueue(PUSH_QUEUE) queue: Queue<PushJob>,
    @Inject(PUSH_QUEUE_SETTINGS) settings: PushQueueSettings,
    @Inject(TERMINALS_LOGGER) logger: Logger,
  ) {
    this.producer = new QueueProducer(
      queue,
      {
        attempts: settings.attempts,
        retryDelayMs: settings.retryDelayMs,
        removeOnComplete: { count: 1000 },
        removeOnFail: { count: 1000 },
      },
      logger,
      'push',
    );
  }

  /** Queues the push of a share (its id is the job's: a share is pushed once). */
  async enqueue(job: PushJob): Promise<void> {
    await this.producer.add('push', job, { jobId: job.shareId });
  }
}

/** The longest wait between two tries of a push whose own database could not be reached. */
export const PUSH_OUTAGE_MAX_DELAY_MS = 60_000;

/**
 * Runs the push deliveries in every terminals replica; on shutdown it finishes the running ones first.
 * Only the push service's failures use up PUSH_ATTEMPTS: a try that could not reach the service's own
 * database (an outage) gives the job back to the queue, delayed, without counting an attempt, so a
 * push acknowledged before an outage is delivered after it however long it lasts (within its TTL).
 */
@Processor(PUSH_QUEUE, { concurrency: 8, ...QUICK_JOB_WORKER_OPTIONS })
export class PushProcessor extends DrainingWorkerHost {
  constructor(
    @Inject(PushSender) private readonly sender: PushSender,
    @Inject(TerminalsRepository) private readonly terminals: TerminalsRepository,
    @Inject(PUSH_QUEUE_SETTINGS) private readonly settings: PushQueueSettings,
    @Inject(TERMINALS_LOGGER) private readonly logger: Logger,
  ) {
    super();
  }

  @OnWorkerEvent('failed')
  failed(job: Job<PushJob> | undefined, err: Error): void {
    if (!job) return;
    const final = err instanceof UnrecoverableError || err.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
    this.logger.warn({ share: job.data.shareId, attempts: job.attemptsMade, final, err: err.message }, 'a push delivery failed');
    // `process` wrote the last try's outcome already; this covers what fails outside it (a job stalled too often).
    if (final) void this.terminals.setPush(job.data.shareId, 'failed', err.message).catch(() => undefined);
  }

  @OnWorkerEvent('error')
  error(err: Error): void {
    this.logger.error({ err: err.message }, 'push worker error');
  }

  async process(job: Job<PushJob>, token?: string): Promise<string> {
    try {
      const decided = job.data.outcome;
      if (decided) {
        await this.terminals.setPush(job.data.shareId, decided.push, decided.error);
        return `${decided.push} (written after a database outage)`;
      }
      return await this.deliver(job);
    } catch (error) {
      if (!token) throw error;
      if (isDependencyUnavailable(error)) return this.giveBack(job, token, error as Error);
      // The last try failed: its outcome is written here, before BullMQ marks the job failed, so that a
      // database outage at that moment waits like any other instead of leaving the share `pending`.
      const final = error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts?.attempts ?? 1);
      if (final) {
        const message = (error as Error).message;
        try {
          await this.terminals.setPush(job.data.shareId, 'failed', message);
        } catch (writeError) {
          if (!isDependencyUnavailable(writeError)) throw writeError;
          await job.updateData({ ...job.data, outcome: { push: 'failed', error: message } });
          return this.giveBack(job, token, writeError as Error);
        }
      }
      throw error;
    }
  }

  /** Gives the job back to the queue, delayed, without counting an attempt (the service's database is down). */
  private async giveBack(job: Job<PushJob>, token: string, error: Error): Promise<never> {
    // Tries given back so far (each start counts in attemptsStarted; only failures in attemptsMade).
    const waits = Math.max(0, job.attemptsStarted - job.attemptsMade - 1);
    const delay = Math.min(
      this.settings.retryDelayMs * 2 ** Math.min(waits, 10),
      Math.max(this.settings.retryDelayMs, PUSH_OUTAGE_MAX_DELAY_MS),
    );
    await job.moveToDelayed(Date.now() + delay, token);
    this.logger.warn(
      { share: job.data.shareId, waits: waits + 1, delayMs: delay, err: error.message },
      'a push delivery met a database outage: tried again later (no attempt used)',
    );
    throw new DelayedError();
  }

  private async deliver(job: Job<PushJob>): Promise<string> {
    const { shareId, terminalId, message } = job.data;
    const share = await this.terminals.findShare(shareId);
    if (!share) return 'the share was deleted';
    // Queued twice (an event handled again after a crash) and already delivered: once is enough.
    if (share.push !== 'pending') return `already ${share.push}`;
    if (Date.now() - share.created.getTime() > this.settings.ttlSeconds * 1000) {
      throw new UnrecoverableError('the message outlived its TTL before a push service took it');
    }
    const terminal = await this.terminals.find(terminalId, share.userId);
    if (!terminal?.subscription) {
      await this.terminals.setPush(shareId, 'none', null);
      return 'no subscription';
    }
    const result = await this.sender.send(terminal.subscription, message);
    if (result.ok) {
      try {
        await this.terminals.setPush(shareId, 'sent', null);
      } catch (error) {
        // The push service has it: the next try only writes `sent` (never a second notification).
        if (isDependencyUnavailable(error)) await job.updateData({ ...job.data, outcome: { push: 'sent', error: null } });
        throw error;
      }
      return 'sent';
    }
    if (result.gone) {
      // The browser unsubscribed, or the push service ended the subscription: forget it (the inbox keeps the share).
      await this.terminals.dropSubscription(terminalId, terminal.subscription.endpoint);
      this.logger.info({ terminal: terminalId, status: result.status }, 'push subscription gone: removed');
      throw new UnrecoverableError(`the subscription is gone (${result.reason})`);
    }
    if (result.retry) throw new Error(result.reason);
    throw new UnrecoverableError(result.reason);
  }
}
