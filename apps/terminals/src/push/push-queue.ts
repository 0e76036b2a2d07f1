import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { PushMessage } from '@tinkerdesk/contracts';
import { createRedis, type Logger } from '@tinkerdesk/nest-common';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { TERMINALS_LOGGER } from '../logger.token.js';
import { TerminalsRepository } from '../terminals/terminals.repository.js';
import { PushSender } from './push-sender.js';

export const PUSH_QUEUE = 'terminals-push';
export const PUSH_QUEUE_SETTINGS = Symbol('PUSH_QUEUE_SETTINGS');

export interface PushQueueSettings {
  redisUrl: string;
  prefix: string;
  attempts: number;
  retryDelayMs: number;
  ttlSeconds: number;
}

interface PushJob {
  shareId: string;
  terminalId: string;
  message: PushMessage;
}

/**
 * Delivers the push of each share through a BullMQ queue: a push service that is down or busy
 * (network errors, 429, 5xx) is tried again with exponential backoff, up to PUSH_ATTEMPTS times and
 * never past the message's TTL; a subscription the push service says is gone (404, 410) is
 * forgotten at once, as ntfy does; the share stays in the inbox whatever happens, with its push state.
 */
@Injectable()
export class PushQueue implements OnApplicationBootstrap, OnModuleDestroy {
  private queue: Queue<PushJob> | undefined;
  private worker: Worker<PushJob> | undefined;
  private connections: Redis[] = [];

  constructor(
    @Inject(PushSender) private readonly sender: PushSender,
    @Inject(TerminalsRepository) private readonly terminals: TerminalsRepository,
    @Inject(PUSH_QUEUE_SETTINGS) private readonly settings: PushQueueSettings,
    @Inject(TERMINALS_LOGGER) private readonly logger: Logger,
  ) {}

  private redis(name: string): Redis {
    const redis = createRedis(this.settings.redisUrl, name, { forBullmq: true });
    redis.on('error', (err: Error) => this.logger.warn({ err: err.message }, 'redis connection error (push)'));
    this.connections.push(redis);
    return redis;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.queue = new Queue<PushJob>(PUSH_QUEUE, { connection: this.redis('terminals-push'), prefix: this.settings.prefix });
    this.queue.on('error', (err: Error) => this.logger.warn({ err: err.message }, 'push queue error'));
    this.worker = new Worker<PushJob>(PUSH_QUEUE, (job) => this.deliver(job), {
      connection: this.redis('terminals-push-worker'),
      prefix: this.settings.prefix,
      concurrency: 8,
    });
    this.worker.on('failed', (job, err) => {
      if (!job) return;
      const final = err instanceof UnrecoverableError || err.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
      this.logger.warn({ share: job.data.shareId, attempts: job.attemptsMade, final, err: err.message }, 'a push delivery failed');
      if (final) void this.terminals.setPush(job.data.shareId, 'failed', err.message).catch(() => undefined);
    });
    this.worker.on('error', (err) => this.logger.error({ err: err.message }, 'push worker error'));
    await this.worker.waitUntilReady();
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.close();
    await this.queue?.close();
    await Promise.all(this.connections.map((c) => c.quit().catch(() => undefined)));
  }

  /** Queues the push of a share (its id is the job's: a share is pushed once). */
  async enqueue(job: PushJob): Promise<void> {
    if (!this.queue) throw new Error('the push queue is not started');
    await this.queue.add('push', job, {
      jobId: job.shareId,
      attempts: this.settings.attempts,
      backoff: { type: 'exponential', delay: this.settings.retryDelayMs },
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 1000 },
    });
  }

  private async deliver(job: Job<PushJob>): Promise<string> {
    const { shareId, terminalId, message } = job.data;
    const share = await this.terminals.findShare(shareId);
    if (!share) return 'the share was deleted';
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
      await this.terminals.setPush(shareId, 'sent', null);
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
