import { createHash } from 'node:crypto';
import { BullModule, InjectQueue, OnWorkerEvent, Processor } from '@nestjs/bullmq';
import { Inject, Injectable, Module, type DynamicModule, type OnApplicationBootstrap } from '@nestjs/common';
import { DrainingWorkerHost, QUICK_JOB_WORKER_OPTIONS, QueueProducer, type Logger } from '@tinkerdesk/nest-common';
import type { Job, Queue } from 'bullmq';
import { IDENTITY_LOGGER } from '../logger.token.js';
import type { SendMailMessage } from '@tinkerdesk/contracts';
import { MailKeysRepository } from './mail-keys.repository.js';
import type { MailMessage } from './mailer.js';

/** The BullMQ queue of every mail identity sends; its Redis keys are `<REDIS_PREFIX>:identity-mail:*`. */
export const MAIL_QUEUE_NAME = 'identity-mail';
/**
 * The queue of the mail queue's periodic clean (MailQueue.clean): a queue of its own, so the mail
 * queue holds mails only (its counts say whether mail is waiting).
 */
export const MAIL_CLEAN_QUEUE_NAME = 'identity-mail-clean';
/** Tries of one mail: with exponential backoff from MAIL_RETRY_DELAY_MS (10 s: the last try about 21 minutes later). */
export const MAIL_ATTEMPTS = 8;
/**
 * How long the job of a keyed mail stays in Redis after it was sent: a request with the same key that
 * raced the first one past the mail_key table (mail-keys.repository.ts) adds the same job id, which
 * BullMQ takes once while the job exists. Later requests find the key marked queued in PostgreSQL.
 */
export const MAIL_KEY_JOB_SECONDS = 3600;
/** How long a mail that failed every try stays in Redis (to look at). */
export const MAIL_FAILED_SECONDS = 7 * 24 * 3600;
/**
 * How often finished mail jobs past their age are removed. BullMQ removes jobs by age (removeOnComplete
 * `{ age }`) only when a later job finishes, so without this the last ones would stay until the next
 * mail; a job scheduler (MAIL_CLEAN_QUEUE_NAME) runs it once per period whatever the number of replicas.
 */
export const MAIL_CLEAN_EVERY_MS = 10 * 60_000;
/** Jobs one call of Queue.clean removes at most (a bounded Redis script). */
const MAIL_CLEAN_BATCH = 1000;
/** Mails the worker of one identity replica sends at once. */
const MAIL_CONCURRENCY = 4;
/** The mail worker's options: a mail left taken by nobody (a crashed replica, a Redis restart) is sent within seconds. */
export const MAIL_WORKER_OPTIONS = { concurrency: MAIL_CONCURRENCY, ...QUICK_JOB_WORKER_OPTIONS };

/**
 * What to send, not the message: the worker composes it when it runs (a reset looks the account
 * up then, so the request handler answers alike for every email; a token is made per try).
 */
export type MailJob =
  | { kind: 'reset'; email: string }
  | { kind: 'verification'; userId: string; returnTo?: string }
  | { kind: 'contact'; contactId: string }
  | { kind: 'message'; message: SendMailMessage };

/** Builds the message of a job, or null when there is nothing to send (no such account, verified already). */
export type MailComposer = (job: MailJob) => Promise<MailMessage | null>;

export interface MailSender {
  send(message: MailMessage): Promise<void>;
}

export const MAIL_COMPOSER = Symbol('MAIL_COMPOSER');
export const MAIL_SENDER = Symbol('MAIL_SENDER');
export const MAIL_SETTINGS = Symbol('MAIL_SETTINGS');

export interface MailSettings {
  retryDelayMs: number;
  /** MAIL_KEY_RETENTION_DAYS: how long a mail's idempotency key keeps a second request from sending it again. */
  keyRetentionDays: number;
}

/** The BullMQ job id of a keyed mail (job ids may not contain ':'; a key may). */
export const mailJobId = (key: string) => `key_${createHash('sha256').update(key).digest('hex')}`;

/** Puts mail on the queue; the answer to the caller never waits for a mail server. */
@Injectable()
export class MailQueue implements OnApplicationBootstrap {
  private readonly producer: QueueProducer<MailJob>;

  constructor(
    @InjectQueue(MAIL_QUEUE_NAME) private readonly queue: Queue<MailJob>,
    @InjectQueue(MAIL_CLEAN_QUEUE_NAME) private readonly cleanQueue: Queue<Record<string, never>>,
    @Inject(MAIL_SETTINGS) private readonly settings: MailSettings,
    @Inject(MailKeysRepository) private readonly keys: MailKeysRepository,
    @Inject(IDENTITY_LOGGER) logger: Logger,
  ) {
    this.producer = new QueueProducer(
      queue,
      { attempts: MAIL_ATTEMPTS, retryDelayMs: settings.retryDelayMs, removeOnComplete: true, removeOnFail: { age: MAIL_FAILED_SECONDS } },
      logger,
      'mail',
    );
  }

  /** The periodic clean (`clean`): one job scheduler for every replica (upserting it again changes nothing). */
  async onApplicationBootstrap(): Promise<void> {
    await this.cleanQueue.upsertJobScheduler(
      'mail-clean',
      { every: MAIL_CLEAN_EVERY_MS },
      { name: 'clean', data: {}, opts: { removeOnComplete: true, removeOnFail: true } },
    );
  }

  /**
   * Removes finished mail jobs older than their age, in bounded batches: sent keyed mails after
   * MAIL_KEY_JOB_SECONDS, failed ones after MAIL_FAILED_SECONDS (sent mails without a key are removed
   * as they complete). Answers how many it removed.
   */
  async clean(completedMs = MAIL_KEY_JOB_SECONDS * 1000, failedMs = MAIL_FAILED_SECONDS * 1000): Promise<number> {
    let removed = 0;
    for (const [type, graceMs] of [
      ['completed', completedMs],
      ['failed', failedMs],
    ] as const) {
      for (;;) {
        const ids = await this.queue.clean(graceMs, MAIL_CLEAN_BATCH, type);
        removed += ids.length;
        if (ids.length < MAIL_CLEAN_BATCH) break;
      }
    }
    return removed;
  }

  async enqueue(job: MailJob): Promise<void> {
    await this.producer.add(job.kind, job);
  }

  /**
   * Queues the mail of an idempotency key once: the same key again within MAIL_KEY_RETENTION_DAYS,
   * also in parallel or after a crash half-way, queues nothing more ('duplicate'). The key is recorded
   * in PostgreSQL (mail_key) and is the job's id, so two requests that both find it not yet queued add
   * one job; it is marked queued once the job is on the queue. A failure throws: the caller tries
   * again with the same key.
   */
  async enqueueOnce(key: string, job: MailJob): Promise<'queued' | 'duplicate'> {
    if ((await this.keys.claim(key, this.settings.keyRetentionDays)).queued) return 'duplicate';
    await this.producer.add(job.kind, job, { jobId: mailJobId(key), removeOnComplete: { age: MAIL_KEY_JOB_SECONDS } });
    await this.keys.markQueued(key);
    return 'queued';
  }
}

/** The mail queue and its producer, for the modules that send mail (the processor lives with the composers). */
@Module({})
export class MailQueueModule {
  static register(settings: MailSettings, logger: Logger): DynamicModule {
    return {
      module: MailQueueModule,
      imports: [BullModule.registerQueue({ name: MAIL_QUEUE_NAME }, { name: MAIL_CLEAN_QUEUE_NAME })],
      providers: [
        MailQueue,
        MailKeysRepository,
        { provide: MAIL_SETTINGS, useValue: settings },
        { provide: IDENTITY_LOGGER, useValue: logger },
      ],
      exports: [MailQueue],
    };
  }
}

/** One job: compose, then send; a failed send throws so BullMQ tries again later. */
export async function processMailJob(job: MailJob, compose: MailComposer, sender: MailSender): Promise<'sent' | 'nothing to send'> {
  const message = await compose(job);
  if (!message) return 'nothing to send';
  await sender.send(message);
  return 'sent';
}

/** The worker in every identity process: sends what the queue holds, retrying with backoff; drains on shutdown. */
@Processor(MAIL_QUEUE_NAME, MAIL_WORKER_OPTIONS)
export class MailProcessor extends DrainingWorkerHost {
  constructor(
    @Inject(MAIL_COMPOSER) private readonly compose: MailComposer,
    @Inject(MAIL_SENDER) private readonly sender: MailSender,
    @Inject(IDENTITY_LOGGER) private readonly logger: Logger,
  ) {
    super();
  }

  process(job: Job<MailJob>): Promise<'sent' | 'nothing to send'> {
    return processMailJob(job.data, this.compose, this.sender);
  }

  @OnWorkerEvent('failed')
  failed(job: Job<MailJob> | undefined, err: Error): void {
    const attempts = job?.opts.attempts ?? 1;
    const attempt = job?.attemptsMade ?? attempts;
    const line = { jobId: job?.id, kind: job?.data.kind, attempt, attempts, err: err.message };
    if (attempt < attempts) this.logger.warn(line, 'mail attempt failed; it will be retried');
    else this.logger.error(line, 'mail attempt failed; giving up, the mail is not sent');
  }

  @OnWorkerEvent('error')
  error(err: Error): void {
    this.logger.warn({ err: err.message }, 'mail worker error');
  }
}

/** Runs the mail queue's periodic clean (a job of MAIL_CLEAN_QUEUE_NAME's scheduler) in whichever replica takes it. */
@Processor(MAIL_CLEAN_QUEUE_NAME)
export class MailCleanProcessor extends DrainingWorkerHost {
  constructor(
    @Inject(MailQueue) private readonly mail: MailQueue,
    @Inject(IDENTITY_LOGGER) private readonly logger: Logger,
  ) {
    super();
  }

  async process(): Promise<number> {
    const removed = await this.mail.clean();
    if (removed > 0) this.logger.info({ removed }, 'mail queue: finished jobs past their age removed');
    return removed;
  }

  @OnWorkerEvent('error')
  error(err: Error): void {
    this.logger.warn({ err: err.message }, 'mail clean worker error');
  }
}
