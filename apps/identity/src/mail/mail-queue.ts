import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from '@tinkerdesk/nest-common';
import { type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { IDENTITY_LOGGER } from '../logger.token.js';
import type { SendMailMessage } from '@tinkerdesk/contracts';
import type { MailMessage } from './mailer.js';

/** The BullMQ queue of every mail identity sends; its Redis keys are `<REDIS_PREFIX>:identity-mail:*`. */
export const MAIL_QUEUE_NAME = 'identity-mail';
/** Tries of one mail: with exponential backoff from MAIL_RETRY_DELAY_MS (10 s: the last try about 21 minutes later). */
export const MAIL_ATTEMPTS = 8;
/** Mails the worker of one identity replica sends at once. */
const MAIL_CONCURRENCY = 4;

/**
 * What to send, not the message: the worker composes it when it runs (a reset looks the account
 * up then, so the request handler answers alike for every email; a token is made per try).
 */
export type MailJob =
  | { kind: 'reset'; email: string }
  | { kind: 'verification'; userId: string }
  | { kind: 'contact'; contactId: string }
  | { kind: 'message'; message: SendMailMessage };

/** Builds the message of a job, or null when there is nothing to send (no such account, verified already). */
export type MailComposer = (job: MailJob) => Promise<MailMessage | null>;

export interface MailSender {
  send(message: MailMessage): Promise<void>;
}

export const MAIL_QUEUE = Symbol('MAIL_QUEUE');
export const MAIL_COMPOSER = Symbol('MAIL_COMPOSER');
export const MAIL_SENDER = Symbol('MAIL_SENDER');
export const MAIL_REDIS = Symbol('MAIL_REDIS');
export const MAIL_SETTINGS = Symbol('MAIL_SETTINGS');

export interface MailSettings {
  prefix: string;
  retryDelayMs: number;
}

/** Puts mail on the queue; the answer to the caller never waits for a mail server. */
@Injectable()
export class MailQueue {
  constructor(
    @Inject(MAIL_QUEUE) private readonly queue: Queue<MailJob>,
    @Inject(MAIL_SETTINGS) private readonly settings: MailSettings,
  ) {}

  async enqueue(job: MailJob): Promise<void> {
    await this.queue.add(job.kind, job, {
      attempts: MAIL_ATTEMPTS,
      backoff: { type: 'exponential', delay: this.settings.retryDelayMs },
      removeOnComplete: true,
      removeOnFail: { age: 7 * 24 * 3600 },
    });
  }
}

/** One job: compose, then send; a failed send throws so BullMQ tries again later. */
export async function processMailJob(job: MailJob, compose: MailComposer, sender: MailSender): Promise<'sent' | 'nothing to send'> {
  const message = await compose(job);
  if (!message) return 'nothing to send';
  await sender.send(message);
  return 'sent';
}

/** The worker in every identity process: sends what the queue holds, retrying with backoff. */
@Injectable()
export class MailWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private worker: Worker<MailJob> | undefined;

  constructor(
    @Inject(MAIL_REDIS) private readonly redis: Redis,
    @Inject(MAIL_SETTINGS) private readonly settings: MailSettings,
    @Inject(MAIL_COMPOSER) private readonly compose: MailComposer,
    @Inject(MAIL_SENDER) private readonly sender: MailSender,
    @Inject(IDENTITY_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const worker = new Worker<MailJob>(MAIL_QUEUE_NAME, (job) => processMailJob(job.data, this.compose, this.sender), {
      connection: this.redis,
      prefix: this.settings.prefix,
      concurrency: MAIL_CONCURRENCY,
    });
    worker.on('failed', (job: Job<MailJob> | undefined, err: Error) => this.failed(job, err));
    worker.on('error', (err: Error) => this.logger.warn({ err: err.message }, 'mail worker error'));
    this.worker = worker;
  }

  private failed(job: Job<MailJob> | undefined, err: Error): void {
    const attempts = job?.opts.attempts ?? 1;
    const attempt = job?.attemptsMade ?? attempts;
    const line = { jobId: job?.id, kind: job?.data.kind, attempt, attempts, err: err.message };
    if (attempt < attempts) this.logger.warn(line, 'mail attempt failed; it will be retried');
    else this.logger.error(line, 'mail attempt failed; giving up, the mail is not sent');
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.close();
  }
}
