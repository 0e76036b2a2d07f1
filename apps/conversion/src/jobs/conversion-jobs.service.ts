import { createUnderKey } from '@tinkerdesk/persistence';
import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  CONVERSION_QUEUE,
  conversionInputKey,
  conversionOutputKey,
  engineProblem,
  engineStatus,
  pairProblem,
  sourceFormat,
  type EngineStatus,
  type SourceFormat,
  type ConversionJobList,
  type ConversionJobView,
  type ConversionOptions,
  type CreateConversionJobMessage,
} from '@tinkerdesk/contracts';
import { currentReceivedAt, phaseClock, QueueProducer, type Logger, type ProducerQueue } from '@tinkerdesk/nest-common';
import { ConversionJobsRepository, toView } from './conversion-jobs.repository.js';
import { CONVERSION_LIMITS, type ConversionLimits } from './conversion-limits.js';

export const CONVERSION_FILES = Symbol('CONVERSION_FILES');
export const CONVERSION_SETTINGS = Symbol('CONVERSION_SETTINGS');
export const LOGGER = Symbol('LOGGER');
export const CLOCK = Symbol('CLOCK');
export const ENGINES = Symbol('ENGINES');

/** Where the engines of the live workers are known (the Redis registry; a fake in the unit tests). */
export interface EngineSource {
  status(): Promise<EngineStatus>;
}

/** Until told otherwise: no worker known, so nothing is known missing. */
const NO_WORKER_KNOWN: EngineSource = { status: () => Promise.resolve(engineStatus([])) };

/**
 * What a worker needs to convert an upload, as recorded at its create (a job's fields do not change
 * before it runs): with it the worker starts the engine once the input is read, its start's write
 * beside the engine instead of before it. Entries queued without it are read from the record first.
 */
export interface PlannedUpload {
  ownerId: string;
  sourceFormat: string;
  filename: string;
  target: string;
  options: ConversionOptions;
}

export interface ConversionJobData {
  id: string;
  /** An upload's job as recorded (see PlannedUpload). */
  upload?: PlannedUpload;
  /** A URL job's request headers: kept in the queue entry only (removed with it), never in the database. */
  headers?: Record<string, string>;
  /** Times a worker without the job's engine gave it back for another (those starts are no attempts). */
  handedOver?: number;
}

/** What the service needs of BullMQ's Queue (a fake in the unit tests). */
export interface JobQueue extends ProducerQueue<ConversionJobData> {
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
  remove(jobId: string): Promise<unknown>;
}

/** The first wait before a conversion that failed is tried again; each later wait doubles. */
const RETRY_DELAY_MS = 1000;

/** What the service needs of the object store. */
export interface FileRemover {
  delete(name: string): Promise<unknown>;
}

export interface ConversionSettings {
  queueLimit: number;
  attempts: number;
  resultTtlHours: number;
}

const DEFAULT_LIMIT = 20;

/** The rules of conversion jobs: who may create, see, cancel and delete which, and when results go. */
@Injectable()
export class ConversionJobsService {
  private readonly producer: QueueProducer<ConversionJobData>;

  constructor(
    @Inject(ConversionJobsRepository) private readonly jobs: ConversionJobsRepository,
    @InjectQueue(CONVERSION_QUEUE) private readonly queue: JobQueue,
    @Inject(CONVERSION_FILES) private readonly files: FileRemover,
    @Inject(CONVERSION_LIMITS) private readonly limits: ConversionLimits,
    @Inject(CONVERSION_SETTINGS) private readonly settings: ConversionSettings,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly now: () => Date = () => new Date(),
    @Inject(ENGINES) private readonly engines: EngineSource = NO_WORKER_KNOWN,
  ) {
    this.producer = new QueueProducer(queue, { attempts: settings.attempts, retryDelayMs: RETRY_DELAY_MS }, logger, 'conversion');
  }

  /**
   * Checks the pair, the queue's room and the owner's limits, records the job, then queues it; if
   * queueing fails the record goes too (nothing half-written).
   */
  async create(input: CreateConversionJobMessage): Promise<ConversionJobView> {
    const clock = phaseClock();
    let format: SourceFormat | undefined;
    if (input.from === 'auto') {
      if (input.source.kind !== 'url') throw new AppError('VALIDATION_FAILED', 'from is required for an upload whose format is not known');
    } else {
      format = sourceFormat(input.from === 'jpeg' ? 'jpg' : input.from);
      if (!format) throw new AppError('VALIDATION_FAILED', `from must be a known format (got ${input.from})`);
      if (format.kind === 'web' && input.source.kind !== 'url')
        throw new AppError('VALIDATION_FAILED', 'from url needs a URL (POST /v1/convert/fetch)');
      const problem = pairProblem(format, input.to);
      if (problem) throw new AppError('VALIDATION_FAILED', problem);
    }
    // Under an Idempotency-Key, the request is what the client sent: not the id the gateway gave the
    // attempt (a retry's upload is another stored copy of the same file).
    const idempotent = createUnderKey('job.create', input.ownerId, {
      from: input.from,
      to: input.to,
      source: input.source,
      options: input.options,
      ...(input.idempotencyKey === undefined ? {} : { idempotencyKey: input.idempotencyKey }),
    });
    // Everything that decides whether the job may be made runs at once, the owner's allowances among
    // it (a small job's time is mostly such round trips): a create refused by another check, or answered
    // by a retry's first job, gives back what it counted (and a retry of a create that succeeded
    // answers its job whatever the counters say). A job id taken already is refused by the INSERT.
    const source = input.source;
    const bytes = source.kind === 'upload' ? source.size : undefined;
    const counting = this.limits.count(input.ownerId, bytes).then(
      () => undefined,
      (refusal: unknown) => ({ refusal }),
    );
    const [counts, engines, earlier, refused] = await Promise.all([
      this.queue.getJobCounts('waiting', 'prioritized', 'delayed'),
      this.engines.status(),
      this.jobs.replayed(idempotent),
      counting,
    ]).catch(async (error: unknown) => {
      if ((await counting) === undefined) await this.limits.uncount(input.ownerId, bytes);
      throw error;
    });
    clock.mark('checks');
    const giveBack = refused === undefined ? () => this.limits.uncount(input.ownerId, bytes) : () => Promise.resolve();
    if (earlier !== undefined) {
      const first = await this.jobs.findOwned(earlier, input.ownerId);
      if (first) {
        await giveBack();
        return toView(first);
      }
    }
    // No live worker has the engine: refused now rather than queued to fail (a URL whose format is found once fetched is let through).
    const missing = format ? engineProblem(engines, format) : undefined;
    const waiting = Object.values(counts).reduce((a, b) => a + b, 0);
    const problem = missing
      ? new AppError('ENGINE_UNAVAILABLE', missing)
      : waiting >= this.settings.queueLimit
        ? new AppError('QUEUE_FULL', `the conversion queue is full (${waiting} jobs waiting); try again shortly`, undefined, 30)
        : undefined;
    if (problem) {
      await giveBack();
      throw problem;
    }
    if (refused) throw refused.refusal;
    const { job, replayed } = await this.jobs
      .insertOnce(
        {
          id: input.id,
          ownerId: input.ownerId,
          sourceFormat: input.from === 'jpeg' ? 'jpg' : input.from,
          sourceKind: source.kind,
          sourceUrl: source.kind === 'url' ? source.url : null,
          filename:
            source.kind === 'upload' ? source.filename : (new URL(source.url).pathname.split('/').filter(Boolean).at(-1) ?? 'download'),
          mediaType: source.kind === 'upload' ? source.mediaType : 'application/octet-stream',
          inputSize: source.kind === 'upload' ? source.size : 0,
          target: input.to === 'jpeg' ? 'jpg' : input.to,
          options: { ...input.options },
          expires: new Date(this.now().getTime() + this.settings.resultTtlHours * 3600_000),
        },
        idempotent,
      )
      .catch(async (error: unknown) => {
        await giveBack(); // nothing was made (an id taken already, the database out of reach)
        throw error;
      });
    clock.mark('record');
    // The same request ran alongside under the key: its job is the answer (queued by that request).
    // Parallel requests under one key each counted above; the one that makes the job keeps its count,
    // the others give theirs back: one job, counted once.
    if (replayed) {
      await giveBack();
      return toView(job);
    }
    try {
      const upload: PlannedUpload = {
        ownerId: job.ownerId,
        sourceFormat: job.sourceFormat,
        filename: job.filename,
        target: job.target,
        options: job.options,
      };
      const data: ConversionJobData = {
        id: job.id,
        ...(source.kind === 'upload' ? { upload } : {}),
        ...(source.kind === 'url' && source.headers ? { headers: source.headers } : {}),
      };
      await this.producer.add('convert', data, { jobId: job.id });
      clock.mark('queue');
    } catch (error) {
      await this.jobs.removeUnqueued(job.id, idempotent);
      this.logger.error({ err: error, jobId: job.id }, 'could not queue conversion job');
      throw new AppError('UNAVAILABLE', 'the conversion queue is not reachable');
    }
    this.logger.info(
      {
        jobId: job.id,
        from: job.sourceFormat,
        to: job.target,
        size: job.inputSize,
        ms: clock.ms,
        at: clock.at,
        receivedAt: currentReceivedAt(),
      },
      'conversion job queued',
    );
    return toView(job);
  }

  async get(id: string, ownerId: string): Promise<ConversionJobView> {
    const job = await this.jobs.findOwned(id, ownerId);
    if (!job) throw new AppError('NOT_FOUND', `no conversion job ${id}`);
    if (job.state !== 'expired' && job.expires.getTime() <= this.now().getTime()) {
      // Its time is up but the sweep has not come by yet: expire it now, so nobody gets a stale result.
      await this.expire(job.id);
      return toView({ ...job, state: 'expired', progress: 0 });
    }
    return toView(job);
  }

  async list(ownerId: string, offset = 0, limit = DEFAULT_LIMIT): Promise<ConversionJobList> {
    const [jobs, total] = await this.jobs.listOwned(ownerId, offset, limit);
    return { jobs: jobs.map(toView), total, offset, limit };
  }

  /**
   * A job that has not finished is cancelled (taken off the queue, or its worker drops the result)
   * and kept in the list as cancelled; a finished one is deleted. Its files go either way.
   */
  async delete(id: string, ownerId: string): Promise<{ success: true; state: 'cancelled' | 'deleted' }> {
    const job = await this.jobs.findOwned(id, ownerId);
    if (!job) throw new AppError('NOT_FOUND', `no conversion job ${id}`);
    const cancelled = await this.jobs.cancel(id);
    if (cancelled)
      await this.queue.remove(id).catch(() => undefined); // an active job is locked: its worker sees the state
    else await this.jobs.remove(id);
    await this.dropFiles(id);
    return { success: true, state: cancelled ? 'cancelled' : 'deleted' };
  }

  /** The engines of the live workers (GET /v1/convert/formats, /v1/health). */
  engineStatus(): Promise<EngineStatus> {
    return this.engines.status();
  }

  /** Frees the files of jobs whose time is up and marks them expired; how many there were. */
  async expireDue(batch = 100): Promise<number> {
    const due = await this.jobs.findExpired(this.now(), batch);
    for (const job of due) await this.expire(job.id);
    if (due.length > 0) this.logger.info({ count: due.length }, 'expired conversion results removed');
    return due.length;
  }

  private async expire(id: string): Promise<void> {
    await this.jobs.cancel(id); // a job still running when its time is up stops too
    await this.queue.remove(id).catch(() => undefined);
    await this.dropFiles(id);
    await this.jobs.markExpired(id);
  }

  private async dropFiles(id: string): Promise<void> {
    await Promise.all([conversionInputKey(id), conversionOutputKey(id)].map((key) => this.files.delete(key).catch(() => undefined)));
  }
}
