import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { BullModule, OnWorkerEvent, Processor } from '@nestjs/bullmq';
import { Inject, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  AppError,
  CONVERSION_BUCKET,
  CONVERSION_QUEUE,
  LIVE_EVENTS,
  conversionInputKey,
  conversionOutputKey,
  detectSourceFormat,
  engineOf,
  pairProblem,
  sourceFormat,
  SUBJECTS,
  TARGET_FORMATS,
  type ConversionJobView,
  type SourceFormat,
} from '@tinkerdesk/contracts';
import {
  announceReady,
  createLogger,
  createRedis,
  DrainingWorkerHost,
  LivePublisher,
  loadConfigOrExit,
  NATS_RECONNECT,
  openConversionFiles,
  parseAllowedHosts,
  phaseClock,
  PinoNestLogger,
  publishEvent,
  queueRoot,
  safeFetch,
  startProbeServer,
  type ConfigOf,
  type FetchPolicy,
  type ConversionFiles,
  type Logger,
  type ProbeServer,
} from '@tinkerdesk/nest-common';
import { serviceDataSourceOptions } from '@tinkerdesk/persistence';
import { DelayedError, UnrecoverableError, type Job, type WorkerOptions } from 'bullmq';
import { DataSource } from 'typeorm';
import { schema } from '../config.js';
import { dataSourceOptions } from '../database/data-source.js';
import { ConversionFailure, EngineMissing } from '../engines/failure.js';
import { convertImage, type ImageTarget } from '../engines/image.js';
import { OfficeEngine, warmModeAvailable, type OfficeRequest } from '../engines/libreoffice.js';
import { renderPdfPages } from '../engines/pdf-pages.js';
import { probeSandbox, SANDBOX_UNAVAILABLE } from '../engines/sandbox.js';
import { enginesOf, isExecutable, missingLines, onPath, type WorkerEngines } from '../engines/engine-detection.js';
import { EngineRegistry, heartbeatMs } from '../engines/engine-registry.js';
import { DEFAULT_WEB_PAGE_OPTIONS, WebPageRenderer } from '../engines/web-page.js';
import type { ConversionJobEntity } from './conversion-job.entity.js';
import { ConversionJobsRepository, toView } from './conversion-jobs.repository.js';
import type { ConversionJobData } from './conversion-jobs.service.js';
import { ConversionLimits } from './conversion-limits.js';

export interface WorkerHandle {
  logger: Logger;
  /** How long `close` may wait: a running job ends within CONVERSION_JOB_TIMEOUT_MS (closeOnSignals adds a margin). */
  graceMs: number;
  close(): Promise<void>;
}

interface Converted {
  data: Uint8Array;
  filename: string;
  mediaType: string;
}

/** "report.final.docx" → "report.final" (or the fallback when nothing is left). */
function baseName(filename: string, fallback = 'converted'): string {
  return (
    filename
      .replace(/\.[A-Za-z0-9]{1,5}$/, '')
      .replace(/[\\/:*?"<>|\p{Cc}]+/gu, '_')
      .trim() || fallback
  );
}

/** A file name from a page title ("Quarterly report | Acme" → "Quarterly report - Acme"). */
function titleName(title: string): string {
  return baseName(title.replace(/[|/\\]+/g, '-').slice(0, 80), 'page');
}

/**
 * Engines of one worker process: LibreOffice and Chromium are started on first use and kept.
 * LibreOffice runs only in its sandbox: where the sandbox cannot run (`sandboxed` false), document
 * jobs fail with SANDBOX_UNAVAILABLE instead of running without it.
 */
class Engines {
  readonly office: OfficeEngine;
  readonly web: WebPageRenderer;

  constructor(
    private readonly config: ConfigOf<typeof schema>,
    readonly policy: FetchPolicy,
    private readonly found: WorkerEngines,
  ) {
    const mode = config.LIBREOFFICE_MODE === 'auto' ? (warmModeAvailable() ? 'warm' : 'cold') : config.LIBREOFFICE_MODE;
    this.office = new OfficeEngine({
      mode,
      timeoutMs: config.CONVERSION_JOB_TIMEOUT_MS,
      restartAfter: config.LIBREOFFICE_RESTART_AFTER,
      bwrapPath: config.SANDBOX_BWRAP,
      sofficePath: config.SOFFICE_PATH,
    });
    this.web = new WebPageRenderer({
      ...DEFAULT_WEB_PAGE_OPTIONS,
      chromiumPath: config.CHROMIUM_PATH,
      policy,
      timeoutMs: Math.min(config.CONVERSION_JOB_TIMEOUT_MS, 120_000),
    });
  }

  async convert(
    job: JobPlan,
    format: SourceFormat,
    input: Uint8Array,
    filename: string,
    headers?: Record<string, string>,
  ): Promise<Converted> {
    const to = job.target;
    const target = TARGET_FORMATS[to];
    if (!target) throw new ConversionFailure('unsupported', `unknown target format ${to}`);
    // A job this worker has no engine for (taken before the admission knew, or from a mixed fleet): its reason names the engine.
    const engine = engineOf(format);
    if (this.found.missing[engine] !== undefined) throw new EngineMissing(engine);
    switch (format.kind) {
      case 'image': {
        const out = await convertImage(input, { filename, to: to as ImageTarget, ...job.options });
        return { data: out.data, filename: out.filename, mediaType: out.mediaType };
      }
      case 'document':
      case 'spreadsheet':
      case 'presentation': {
        const data = await this.office.convert(input, { kind: format.kind as OfficeRequest['kind'], from: format.id, to });
        return { data, filename: `${baseName(filename)}.${target.extension}`, mediaType: target.mediaType };
      }
      case 'pdf': {
        const out = await renderPdfPages(input, {
          to: to as 'png' | 'jpg',
          baseName: baseName(filename),
          ...(job.options.firstPage ? { firstPage: job.options.firstPage } : {}),
          ...(job.options.lastPage ? { lastPage: job.options.lastPage } : {}),
          ...(job.options.dpi ? { dpi: job.options.dpi } : {}),
        });
        return out;
      }
      case 'web': {
        const page = await this.web.render({ url: job.sourceUrl ?? '', to: to as 'pdf' | 'png', ...(headers ? { headers } : {}) });
        return { data: page.data, filename: `${titleName(page.title)}.${target.extension}`, mediaType: page.mediaType };
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.office.close(), this.web.close()]);
  }
}

/** What a conversion needs of its job: its record's fields, or for an upload its plan (PlannedUpload). */
type JobPlan = Pick<
  ConversionJobEntity,
  'id' | 'ownerId' | 'sourceKind' | 'sourceUrl' | 'sourceFormat' | 'filename' | 'target' | 'options'
>;

/** A sentence for a job that cannot succeed, from whatever the engines or the fetch threw; undefined: worth another attempt. */
function finalReason(error: unknown): string | undefined {
  if (error instanceof ConversionFailure) return error.final ? error.message : undefined;
  if (error instanceof AppError) return error.code === 'UNAVAILABLE' ? `the URL could not be fetched: ${error.detail}` : error.detail;
  return undefined;
}

/** What the processor works with: opened by `startWorker`, closed by it after the worker has drained. */
interface WorkerDeps {
  config: ConfigOf<typeof schema>;
  logger: Logger;
  jobs: ConversionJobsRepository;
  files: ConversionFiles;
  limits: ConversionLimits;
  policy: FetchPolicy;
  engines: Engines;
  registry: EngineRegistry;
  nc: NatsConnection;
}

/** The first wait before a job given back for a worker with its engine is offered again; each later wait doubles, up to the most. */
const HANDOVER_DELAY_MS = 100;
const HANDOVER_MAX_DELAY_MS = 1000;

const WORKER_DEPS = Symbol('WORKER_DEPS');

/**
 * A conversion worker: takes jobs from the BullMQ queue on Redis, reads the input from the object
 * store (or fetches the URL behind the SSRF guard), converts it with the engine its format needs,
 * stores the output and records the outcome in the conversion schema. Run as many copies as needed;
 * BullMQ hands each job to one of them, and a job whose worker died (SIGKILL, out of memory) is
 * taken up by another once its lock lapses (stalled-job recovery), at most `CONVERSION_ATTEMPTS`
 * times in all. On SIGTERM it takes no new job and finishes the running ones before the process exits.
 * Its `@Processor` options come from the config: see `startWorker`.
 */
export class ConversionProcessor extends DrainingWorkerHost {
  constructor(@Inject(WORKER_DEPS) private readonly deps: WorkerDeps) {
    super();
  }

  /**
   * Tells the gateways a job reached its final state (GET /v1/convert/jobs/{id}?wait answers at once);
   * with the job as recorded, so they answer it without reading it again.
   */
  private finished(id: string, state: 'completed' | 'failed', ownerId?: string, job?: ConversionJobView): void {
    const { nc, config, logger } = this.deps;
    publishEvent(nc, config.NATS_PREFIX, SUBJECTS.conversion.jobFinished, { id, state, ...(job ? { job } : {}) }).catch((err: unknown) =>
      logger.warn({ err, jobId: id }, 'could not announce a finished job'),
    );
    if (ownerId) this.toOwner(ownerId, id, state === 'completed' ? 100 : -1);
  }

  private livePublisher: LivePublisher | undefined;

  /** The owner's open converter hears of the job's progress (live stream; it polls too when the stream is down). */
  private toOwner(ownerId: string, id: string, progress: number): void {
    const { nc, config, logger } = this.deps;
    this.livePublisher ??= new LivePublisher(nc, config.NATS_PREFIX);
    this.livePublisher
      .publish({ type: LIVE_EVENTS.conversionProgress, ids: { jobId: id, progress }, audience: [ownerId] })
      .catch((err: unknown) => logger.warn({ err, jobId: id }, 'could not tell the owner of a job’s progress'));
  }

  /**
   * Moves the job's progress on (and tells its owner) unless it was cancelled or had finished
   * meanwhile; false then. The job's record is where progress lives: BullMQ's own copy of it is not
   * kept (nothing read it, and each update was a Redis script and an entry in the queue's event stream).
   */
  private async step(record: { id: string; ownerId: string }, progress: number): Promise<boolean> {
    const running = await this.deps.jobs.progress(record.id, progress);
    if (running) this.toOwner(record.ownerId, record.id, progress);
    return running;
  }

  /**
   * This worker lacks the job's engine: when another live worker announces it, the job goes back to
   * the queue (delayed a little, more each time, so that worker takes it; no attempt is counted) and
   * true is answered; false when no live worker has the engine (the job fails with the engine's name).
   * Bounded by the announcements: once the last worker with the engine stops renewing its own (killed
   * outright), it drops out after ENGINE_ANNOUNCEMENT_TTL_MS and the job is no longer given back.
   */
  private async handOver(job: Job<ConversionJobData>, token: string | undefined, missing: EngineMissing): Promise<boolean> {
    const { jobs, logger, registry } = this.deps;
    const live = await registry.status();
    if (!token || !live.available.includes(missing.engine)) return false;
    const handedOver = (job.data.handedOver ?? 0) + 1;
    await jobs.requeue(job.data.id);
    await job.updateData({ ...job.data, handedOver });
    const delay = Math.min(HANDOVER_DELAY_MS * 2 ** Math.min(handedOver - 1, 10), HANDOVER_MAX_DELAY_MS);
    await job.moveToDelayed(Date.now() + delay, token);
    logger.info(
      { jobId: job.data.id, engine: missing.engine, handedOver, delayMs: delay },
      'conversion given back for a worker with its engine',
    );
    return true;
  }

  async process(job: Job<ConversionJobData>, token?: string): Promise<void> {
    const { config, logger, jobs, files, limits, policy, engines } = this.deps;
    const clock = phaseClock();
    const queued = Date.now() - job.timestamp; // from the queue's entry to this worker taking it
    const id = job.data.id;
    // Starts by workers that gave the job back for lack of its engine are not attempts.
    if ((job.attemptsStarted ?? 0) - (job.data.handedOver ?? 0) > config.CONVERSION_ATTEMPTS) {
      // Started again after its workers died every time (each start that never finished): a poison job.
      const record = await jobs.findById(id);
      if (!record) throw new UnrecoverableError(`job ${id} has no record`);
      const reason = 'the conversion stopped its worker every time it was tried, and was given up';
      await jobs.fail(record.id, reason);
      this.finished(record.id, 'failed', record.ownerId);
      await files.delete(conversionInputKey(record.id)).catch(() => undefined);
      logger.error({ jobId: record.id, starts: job.attemptsStarted }, 'conversion given up: its workers died every time');
      throw new UnrecoverableError(reason);
    }
    // The job's start (unless it was cancelled meanwhile), which answers its record, and an upload's
    // input, at once: for a small file these round trips are a good part of the job's time. An upload
    // queued with its plan (PlannedUpload) does not wait for the start: its engine runs once the input
    // is read, the start's write beside it; the start is awaited before the job is completed or failed,
    // and a job cancelled or expired before it started drops what was made.
    const starting = jobs.start(id, 5).then(async (started) => {
      if (started) {
        this.toOwner(started.ownerId, started.id, 5);
        return started;
      }
      if (!(await jobs.findById(id))) throw new UnrecoverableError(`job ${id} has no record`);
      return null; // cancelled or expired before it started
    });
    starting.catch(() => undefined); // awaited below, whichever way the job goes
    const reading = files
      .getBlob(conversionInputKey(id))
      .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    const planned = job.data.upload;
    const plan: JobPlan | null = planned ? { id, sourceKind: 'upload', sourceUrl: null, ...planned } : await starting;
    if (!plan) return;
    clock.mark('start');
    logger.info({ jobId: id, attempt: job.attemptsMade + 1, stalled: job.stalledCounter }, 'conversion started');
    try {
      let input: Uint8Array = new Uint8Array(0);
      let filename = plan.filename;
      let format = sourceFormat(plan.sourceFormat);
      if (plan.sourceKind === 'upload') {
        const upload = await reading;
        if (upload instanceof Error) throw upload;
        if (!upload) throw new ConversionFailure('unreadable', 'the uploaded file has expired or was removed');
        input = upload;
      } else if (format?.kind !== 'web') {
        const got = await safeFetch(plan.sourceUrl ?? '', policy, job.data.headers ? { headers: job.data.headers } : {});
        await limits.countBytes(plan.ownerId, got.size);
        filename = got.filename;
        input = got.body;
        if (!format) {
          // `auto`: an HTML page is rendered, anything else converted by what it turned out to be.
          format = /^text\/html|^application\/xhtml/i.test(got.contentType)
            ? sourceFormat('url')
            : detectSourceFormat(got.filename, got.contentType);
          if (!format) throw new ConversionFailure('unsupported', `the URL gave ${got.contentType}, which this service does not convert`);
        }
        const problem = pairProblem(format, plan.target);
        if (problem) throw new ConversionFailure('unsupported', problem);
      }
      if (!format) throw new ConversionFailure('unsupported', `unknown source format ${plan.sourceFormat}`);
      clock.mark('read');
      // A URL job, whose fetch took a while, moves on to 30 % beside the work (a cancelled job's output
      // is dropped after it); an upload, read at once, takes no step between its start and its end (a
      // write and a live event fewer beside the engine on every small job). Storing the result takes no
      // step either: the completion that follows checks that the job was not cancelled meanwhile.
      const converting = plan.sourceKind === 'url' ? this.step(plan, 30) : Promise.resolve(true);
      converting.catch(() => undefined); // awaited below; a failure while converting is not left unhandled
      const output = await engines.convert(plan, format, input, filename, job.data.headers);
      clock.mark('convert');
      const [convertedWhileRunning, record] = await Promise.all([
        converting,
        starting,
        files.putBlob(conversionOutputKey(id), output.data),
      ]);
      clock.mark('store');
      if (!convertedWhileRunning || !record) {
        await files.delete(conversionOutputKey(id)).catch(() => undefined); // cancelled meanwhile, or before it started
        logger.info({ jobId: id }, 'conversion dropped: the job was cancelled or expired');
        return;
      }
      const kept = await jobs.complete(
        record,
        { filename: output.filename, mediaType: output.mediaType, size: output.data.byteLength },
        filename,
      );
      clock.mark('record');
      if (kept) this.finished(record.id, 'completed', record.ownerId, toView(kept));
      else await files.delete(conversionOutputKey(record.id)).catch(() => undefined); // cancelled meanwhile
      await files.delete(conversionInputKey(record.id)).catch(() => undefined);
      clock.mark('cleanup');
      logger.info(
        {
          jobId: record.id,
          from: format.id,
          to: record.target,
          size: output.data.byteLength,
          queuedMs: queued,
          ms: clock.ms,
          at: clock.at,
        },
        'conversion completed',
      );
    } catch (error) {
      // Whatever went wrong, the start has had its say first: a job cancelled before it started is left as it is.
      if ((await starting.catch(() => undefined)) === null) {
        logger.info({ jobId: id }, 'conversion dropped: the job was cancelled or expired');
        return;
      }
      if (error instanceof EngineMissing && (await this.handOver(job, token, error))) throw new DelayedError();
      const reason = finalReason(error);
      if (reason === undefined) throw error; // worth another attempt (BullMQ retries with backoff)
      await jobs.fail(id, reason);
      this.finished(id, 'failed', plan.ownerId);
      await files.delete(conversionInputKey(id)).catch(() => undefined);
      throw new UnrecoverableError(reason);
    }
  }

  @OnWorkerEvent('failed')
  failed(job: Job<ConversionJobData> | undefined, err: Error): void {
    const { jobs, files, logger } = this.deps;
    logger.warn({ jobId: job?.data.id, attempts: job?.attemptsMade, err: err.message }, 'conversion attempt failed');
    if (!job || err instanceof UnrecoverableError || err.name === 'UnrecoverableError') return;
    if (job.attemptsMade >= (job.opts.attempts ?? 1)) {
      const reason = 'the conversion failed every time it was tried; please try again later';
      const id = job.data.id;
      void jobs.fail(id, reason).then(
        () => this.finished(id, 'failed'),
        () => undefined,
      );
      void files.delete(conversionInputKey(job.data.id)).catch(() => undefined);
    }
  }

  @OnWorkerEvent('error')
  error(err: Error): void {
    this.deps.logger.error({ err: err.message }, 'worker error');
  }
}

/** The BullMQ worker options of this process, from its config. */
function workerOptions(config: ConfigOf<typeof schema>): Omit<WorkerOptions, 'connection'> {
  return {
    concurrency: config.WORKER_CONCURRENCY,
    // A worker that died leaves its job locked; the lock lapses after lockDuration and another
    // worker takes the job (stalled-job recovery). A job that keeps killing workers is failed by the
    // worker that starts it once more than CONVERSION_ATTEMPTS times (above), with its reason in the
    // database; BullMQ's own stall limit is set past that, since it fails jobs without telling us.
    lockDuration: config.CONVERSION_LOCK_MS,
    stalledInterval: Math.max(1000, Math.round(config.CONVERSION_LOCK_MS / 2)),
    maxStalledCount: config.CONVERSION_ATTEMPTS + 1,
    removeOnComplete: { count: 1000 },
    removeOnFail: { count: 1000 },
  };
}

@Module({})
class ConversionWorkerModule {}

/**
 * The worker process (its own entrypoint, apps/conversion/src/worker.ts): opens the database, NATS,
 * the object store and the engines, then runs `ConversionProcessor` in a Nest application context
 * (@nestjs/bullmq makes and runs the worker); `close` drains it first, then closes what it used.
 */
export async function startWorker(env: Record<string, string | undefined> = process.env): Promise<WorkerHandle> {
  const config = loadConfigOrExit(schema, env);
  const logger = createLogger('conversion-worker', config.LOG_LEVEL);
  const dataSource = new DataSource(serviceDataSourceOptions(dataSourceOptions(config.DATABASE_URL)));
  await dataSource.initialize();
  const jobs = new ConversionJobsRepository(dataSource);
  // noAsyncTraces: without it every publish to JetStream (the owner's live progress, twice a job) and
  // every flush builds an Error for its stack up front; a failure still arrives as the client's error.
  const nc = await connect({ servers: config.NATS_URL, name: `conversion-worker-${process.pid}`, ...NATS_RECONNECT, noAsyncTraces: true });
  const redis = createRedis(config.REDIS_URL, 'conversion-worker', { forBullmq: true });
  redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis connection error'));
  const files = await openConversionFiles(nc, redis, CONVERSION_BUCKET, config);
  const limits = new ConversionLimits(redis, config.REDIS_PREFIX, {
    jobsPerMinute: config.CONVERSION_JOBS_PER_MINUTE,
    bytesPerDay: config.CONVERSION_BYTES_PER_DAY,
  });
  const policy: FetchPolicy = {
    allowedHosts: parseAllowedHosts(config.FETCH_ALLOWED_HOSTS),
    maxBytes: config.FETCH_MAX_BYTES,
    timeoutMs: config.FETCH_TIMEOUT_MS,
    maxRedirects: 5,
  };
  const sandbox = await probeSandbox(config.SANDBOX_BWRAP);
  if (!sandbox.ok) logger.error({ reason: sandbox.reason }, SANDBOX_UNAVAILABLE);
  const found = enginesOf(
    {
      soffice: isExecutable(config.SOFFICE_PATH),
      sandbox: sandbox.ok,
      ...(sandbox.ok ? {} : { sandboxReason: sandbox.reason }),
      libreofficeMode: config.LIBREOFFICE_MODE,
      unoBridge: warmModeAvailable(),
      chromium: isExecutable(config.CHROMIUM_PATH),
      pdftoppm: onPath('pdftoppm', env.PATH ?? ''),
    },
    { soffice: config.SOFFICE_PATH, chromium: config.CHROMIUM_PATH, bwrap: config.SANDBOX_BWRAP },
  );
  for (const line of missingLines(found)) logger.warn(line);
  const engines = new Engines(config, policy, found);

  // `@Processor` keeps its worker options on the class, read when the module starts; this worker's
  // depend on the config (lock, stall limit, concurrency), which a decorator cannot see when this file
  // loads, so the process decorates a subclass of its own with them.
  @Processor(CONVERSION_QUEUE, workerOptions(config))
  class ConfiguredConversionProcessor extends ConversionProcessor {}

  // The worker's engines, announced until it stops (renewed; a worker killed outright drops out after the TTL).
  const registry = new EngineRegistry(redis, config.REDIS_PREFIX, config.ENGINE_ANNOUNCEMENT_TTL_MS);
  const deps: WorkerDeps = { config, logger, jobs, files, limits, policy, engines, registry, nc };
  const app = await NestFactory.createApplicationContext(
    {
      module: ConversionWorkerModule,
      // registerQueue also brings @nestjs/bullmq's explorer, which makes the processor's worker.
      imports: [
        queueRoot({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX, name: 'conversion-worker-queue' }),
        BullModule.registerQueue({ name: CONVERSION_QUEUE }),
      ],
      providers: [ConfiguredConversionProcessor, { provide: WORKER_DEPS, useValue: deps }],
    },
    { logger: new PinoNestLogger(logger), bufferLogs: false },
  );
  const worker = app.get(ConfiguredConversionProcessor).worker;
  await worker.waitUntilReady();
  const workerId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const announce = (): Promise<void> =>
    registry.announce(workerId, found.engines).catch((err: unknown) => logger.warn({ err }, 'could not announce the engines'));
  await announce();
  const heartbeat = setInterval(() => void announce(), heartbeatMs(config.ENGINE_ANNOUNCEMENT_TTL_MS));
  heartbeat.unref();
  logger.info(
    {
      concurrency: config.WORKER_CONCURRENCY,
      engines: found.engines,
      missing: Object.keys(found.missing),
      libreoffice: found.missing.libreoffice ? 'unavailable' : config.LIBREOFFICE_MODE,
    },
    'conversion worker ready',
  );

  let probe: ProbeServer | undefined;
  if (config.HEALTH_PORT) {
    probe = startProbeServer(
      config.HEALTH_PORT,
      () => worker.isRunning() && dataSource.isInitialized && !nc.isClosed() && redis.status === 'ready',
    );
    await probe.listening;
  }

  announceReady({ service: 'conversion-worker' });
  return {
    logger,
    graceMs: config.CONVERSION_JOB_TIMEOUT_MS,
    close: async () => {
      probe?.stopping(); // GET /ready answers 503 from now on; the probes go last
      clearInterval(heartbeat);
      await registry.withdraw(workerId, found.engines).catch(() => undefined); // no new job for its engines counts on it
      await app.close(); // the worker takes no new job and finishes the running ones (DrainingWorkerHost)
      await engines.close();
      redis.disconnect();
      await nc.drain();
      await dataSource.destroy();
      await probe?.close();
      logger.info('conversion worker stopped');
    },
  };
}
