import { BullModule, WorkerHost } from '@nestjs/bullmq';
import type { DynamicModule, OnModuleDestroy } from '@nestjs/common';
import type { JobsOptions } from 'bullmq';

export interface QueueRootSettings {
  /** REDIS_URL of the service. */
  redisUrl: string;
  /** REDIS_PREFIX of the service: its queues' keys are `<prefix>:<queue>:*`, so each test run has its own. */
  prefix: string;
  /** The Redis connection name (CLIENT LIST), e.g. `identity-queues`. */
  name: string;
}

/**
 * `BullModule.forRootAsync` of a service: every queue and worker of the service on its Redis, under its
 * key prefix. Each queue and worker opens its own connection from these options and closes it itself.
 */
export function queueRoot(settings: QueueRootSettings): DynamicModule {
  return BullModule.forRootAsync({
    useFactory: () => ({
      connection: { url: settings.redisUrl, connectionName: settings.name, maxRetriesPerRequest: null },
      prefix: settings.prefix,
    }),
  });
}

/**
 * A `WorkerHost` whose worker stops first on shutdown (SIGTERM): it takes no new job and waits for the
 * running ones to finish. @nestjs/bullmq closes its workers in `onApplicationShutdown`, the same hook in
 * which the database (TypeORM) and NATS connections close, in no fixed order, so a running job could
 * lose them half-way; `onModuleDestroy` runs before every `onApplicationShutdown`, so the jobs finish
 * while what they use is still open. (Closing twice is harmless: BullMQ returns the same closing.)
 */
export abstract class DrainingWorkerHost extends WorkerHost implements OnModuleDestroy {
  async onModuleDestroy(): Promise<void> {
    await this.worker.close();
  }
}

/**
 * Worker options of a queue of short jobs (a mail, a push): a job left in `active` by a worker that no
 * longer runs it is taken again within QUICK_JOB_LOCK_MS + QUICK_JOB_STALLED_CHECK_MS, not BullMQ's
 * default 30 + 30 s. Two ways it happens: a replica that crashed mid-job, and a Redis that went away
 * after it ran a worker's "take the next job" script but before the answer reached the worker (the
 * client sends the command again when Redis is back and takes the job after it; the first one stays
 * active, locked by nobody). The running worker renews its lock every QUICK_JOB_LOCK_MS / 2, so a long
 * job keeps it; only an event loop blocked for the whole lock loses it (the job is then run twice:
 * these jobs are at least once). A job stalled more than QUICK_JOB_MAX_STALLS times is failed.
 */
export const QUICK_JOB_LOCK_MS = 10_000;
export const QUICK_JOB_STALLED_CHECK_MS = 5_000;
export const QUICK_JOB_MAX_STALLS = 3;
export const QUICK_JOB_WORKER_OPTIONS = {
  lockDuration: QUICK_JOB_LOCK_MS,
  stalledInterval: QUICK_JOB_STALLED_CHECK_MS,
  maxStalledCount: QUICK_JOB_MAX_STALLS,
} as const;

/** What a producer uses of a BullMQ `Queue` (the one `@InjectQueue` gives; a fake in unit tests). */
export interface ProducerQueue<T> {
  add(name: string, data: T, options: JobsOptions): Promise<unknown>;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

export interface QueueProducerSettings {
  /** Tries of each job, the first one included. */
  attempts: number;
  /** The first wait before a failed job is tried again; each later wait doubles (exponential backoff). */
  retryDelayMs: number;
  /** How long finished jobs stay in Redis (BullMQ's default: for ever); a call's own options win. */
  removeOnComplete?: JobsOptions['removeOnComplete'];
  removeOnFail?: JobsOptions['removeOnFail'];
}

/**
 * The producer side of a service's queue, the same for every queue: each job is tried `attempts`
 * times with exponential backoff, and the queue's connection errors are logged as `<label> queue
 * error` (an `error` event nobody listens to would end the process). The worker side is a
 * DrainingWorkerHost.
 */
export class QueueProducer<T> {
  constructor(
    private readonly queue: ProducerQueue<T>,
    private readonly settings: QueueProducerSettings,
    logger: { warn(obj: object, msg: string): void },
    label: string,
  ) {
    queue.on('error', (err: Error) => logger.warn({ err: err.message }, `${label} queue error`));
  }

  /** Adds a job; `options` add to or override the queue's (e.g. a `jobId`: BullMQ takes a job id once while the job exists). */
  add(name: string, data: T, options: JobsOptions = {}): Promise<unknown> {
    const { attempts, retryDelayMs, removeOnComplete, removeOnFail } = this.settings;
    return this.queue.add(name, data, {
      attempts,
      backoff: { type: 'exponential', delay: retryDelayMs },
      ...(removeOnComplete === undefined ? {} : { removeOnComplete }),
      ...(removeOnFail === undefined ? {} : { removeOnFail }),
      ...options,
    });
  }
}
