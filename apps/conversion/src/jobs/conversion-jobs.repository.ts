import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppError, type ConversionJobView, type ConversionOptions, type JobState } from '@tinkerdesk/contracts';
import { isUniqueViolation, sql, storedId, type IdempotentCreate, type NamedStatement } from '@tinkerdesk/persistence';
import { DataSource, In, LessThan, Not, type Repository, type ValueTransformer } from 'typeorm';
import { ConversionJobEntity } from './conversion-job.entity.js';
import { CONVERSION_KEYS } from '../database/idempotency-keys.js';

export function toView(job: ConversionJobEntity): ConversionJobView {
  return {
    id: job.id,
    state: job.state,
    progress: job.progress,
    from: job.sourceFormat,
    to: job.target,
    source:
      job.sourceKind === 'url'
        ? { kind: 'url', url: job.sourceUrl ?? '' }
        : { kind: 'upload', filename: job.filename, size: job.inputSize },
    options: job.options,
    ...(job.state === 'completed' && job.outputFilename && job.outputMediaType && job.outputSize != null
      ? { output: { filename: job.outputFilename, mediaType: job.outputMediaType, size: job.outputSize } }
      : {}),
    ...(job.error ? { error: job.error } : {}),
    created: job.created.toISOString(),
    modified: job.modified.toISOString(),
    expires: job.expires.toISOString(),
  };
}

export interface NewJob {
  id: string;
  ownerId: string;
  sourceFormat: string;
  sourceKind: 'upload' | 'url';
  sourceUrl: string | null;
  filename: string;
  mediaType: string;
  inputSize: number;
  target: string;
  options: ConversionOptions;
  expires: Date;
}

export interface JobOutput {
  filename: string;
  mediaType: string;
  size: number;
}

/** A column's value as read from the database, through its transformers (as TypeORM applies them: the last first). */
function fromDatabase(transformer: ValueTransformer | ValueTransformer[], value: unknown): unknown {
  return (Array.isArray(transformer) ? [...transformer].reverse() : [transformer]).reduce<unknown>((v, t) => t.from(v), value);
}

/** A new job's row as its INSERT stores it, with the timestamps the database gave it. */
export function queuedJob(job: NewJob, stamps: { created: Date; modified: Date }): ConversionJobEntity {
  return { ...job, state: 'queued', progress: 0, outputFilename: null, outputMediaType: null, outputSize: null, error: null, ...stamps };
}

/** A job's primary key: an id taken already is refused by it. */
const JOB_PRIMARY_KEY = 'job_pkey';

/** Rethrows the INSERT's failure, as CONFLICT when the job id was taken already. */
function conflictOnId(id: string): (error: unknown) => never {
  return (error: unknown) => {
    if (isUniqueViolation(error, JOB_PRIMARY_KEY)) throw new AppError('CONFLICT', `job ${id} exists already`);
    throw error;
  };
}

/**
 * The statements on every job's way (its INSERT, its worker's start and completion), each kept prepared
 * on the pool's connections (`NamedStatement`): parsed and planned once per connection, not per job.
 */
const INSERT_JOB: NamedStatement = {
  name: 'conversion_job_insert',
  text: `INSERT INTO "conversion"."job" ("id", "owner_id", "state", "progress", "source_format", "source_kind", "source_url",
           "filename", "media_type", "input_size", "target", "options", "expires")
         VALUES ($1, $2, 'queued', 0, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         RETURNING "created", "modified"`,
};
/**
 * The worker's start, answering the job's columns by name (never `*`: a prepared statement whose result
 * shape a migration changes, a column added, fails on its connection; named columns keep their shape).
 */
const startJob = (columns: readonly string[]): NamedStatement => ({
  name: 'conversion_job_start',
  text: `UPDATE "conversion"."job" SET "state" = 'active', "progress" = $2, "modified" = CURRENT_TIMESTAMP
       WHERE "id" = $1 AND "state" IN ('queued', 'active') RETURNING ${columns.map((c) => `"${c}"`).join(', ')}`,
});
const COMPLETE_JOB: NamedStatement = {
  name: 'conversion_job_complete',
  text: `UPDATE "conversion"."job" SET "state" = 'completed', "progress" = 100, "output_filename" = $2, "output_media_type" = $3,
         "output_size" = $4, "error" = NULL, "filename" = $5, "modified" = $6
       WHERE "id" = $1 AND "state" IN ('queued', 'active')`,
};

/** States in which a job still holds files that expiry must free. */
const LIVE_STATES: JobState[] = ['queued', 'active', 'completed', 'failed', 'cancelled'];

/**
 * The only place that touches TypeORM for conversion jobs. An injectable provider of the listener's
 * jobs module; the worker process builds one on its own DataSource.
 */
@Injectable()
export class ConversionJobsRepository {
  private readonly repo: Repository<ConversionJobEntity>;
  private readonly startStatement: NamedStatement;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.repo = dataSource.getRepository(ConversionJobEntity);
    this.startStatement = startJob(this.repo.metadata.columns.map((c) => c.databaseName));
  }

  /**
   * One INSERT, its timestamps coming back with RETURNING, straight to the pool (a small job's create
   * waits for it: TypeORM's insert took about a millisecond more of CPU on a busy machine). A job id
   * that exists already answers CONFLICT from the primary key (no read before it).
   */
  async insert(job: NewJob): Promise<ConversionJobEntity> {
    const stamps = await sql
      .one<{ created: Date; modified: Date }>(this.dataSource, INSERT_JOB, [
        job.id,
        job.ownerId,
        job.sourceFormat,
        job.sourceKind,
        job.sourceUrl,
        job.filename,
        job.mediaType,
        job.inputSize,
        job.target,
        JSON.stringify(job.options),
        job.expires,
      ])
      .catch(conflictOnId(job.id));
    return this.repo.create(queuedJob(job, stamps));
  }

  /**
   * `insert`, under an Idempotency-Key once: the key is claimed in the insert's transaction and names the
   * job, and a request that ran alongside under the same key answers that first job (`replayed`).
   */
  async insertOnce(job: NewJob, idempotent: IdempotentCreate | undefined): Promise<{ job: ConversionJobEntity; replayed: boolean }> {
    if (idempotent === undefined) return { job: await this.insert(job), replayed: false };
    const entity = this.repo.create({ ...job, state: 'queued', progress: 0 });
    const { answer, replayed } = await this.dataSource.transaction((manager) =>
      CONVERSION_KEYS.once(manager, idempotent, async () => {
        await manager.getRepository(ConversionJobEntity).insert(entity).catch(conflictOnId(job.id));
        return { id: entity.id };
      }),
    );
    if (!replayed) return { job: entity, replayed };
    const first = await this.findOwned(answer.id, job.ownerId);
    if (!first) throw new AppError('NOT_FOUND', `the conversion job ${answer.id} made under this Idempotency-Key is gone`);
    return { job: first, replayed };
  }

  /** The job id stored under a create's key when the same request came before (IdempotencyKeys.replay). */
  async replayed(idempotent: IdempotentCreate | undefined): Promise<string | undefined> {
    return storedId(await CONVERSION_KEYS.replay(this.dataSource, idempotent));
  }

  /** Removes a job that could not be queued, and the key that named it (a retry creates anew). */
  async removeUnqueued(id: string, idempotent: IdempotentCreate | undefined): Promise<void> {
    await this.repo.delete({ id });
    await CONVERSION_KEYS.forget(this.dataSource, idempotent);
  }

  findById(id: string): Promise<ConversionJobEntity | null> {
    return this.repo.findOneBy({ id });
  }

  /** The job if `ownerId` owns it; null otherwise, exactly as for a job that does not exist. */
  findOwned(id: string, ownerId: string): Promise<ConversionJobEntity | null> {
    return this.repo.findOneBy({ id, ownerId });
  }

  /** The owner's jobs, newest first, and how many there are. */
  listOwned(ownerId: string, offset: number, limit: number): Promise<[ConversionJobEntity[], number]> {
    return this.repo.findAndCount({ where: { ownerId }, order: { created: 'DESC', id: 'DESC' }, skip: offset, take: limit });
  }

  async remove(id: string): Promise<void> {
    await this.repo.delete({ id });
  }

  /**
   * Starts the job (active, at `progress`) unless it was cancelled or had finished meanwhile, and
   * answers it as now stored: one UPDATE … RETURNING instead of a read beside a write (a worker's
   * start is on every job's way). null when it does not run (cancelled, finished, or gone).
   */
  async start(id: string, progress: number): Promise<ConversionJobEntity | null> {
    const row = await sql.maybeOne<Record<string, unknown>>(this.dataSource, this.startStatement, [id, progress]);
    if (!row) return null;
    const job = this.repo.create();
    for (const column of this.repo.metadata.columns) {
      const value = row[column.databaseName];
      column.setEntityValue(job, column.transformer ? fromDatabase(column.transformer, value) : value);
    }
    return job;
  }

  /** Moves the job on unless it was cancelled (or finished) meanwhile; false when it no longer runs. */
  async progress(id: string, progress: number, state: 'active' = 'active'): Promise<boolean> {
    const result = await this.repo.update({ id, state: In(['queued', 'active']) }, { state, progress });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Records the output unless the job was cancelled meanwhile: the job as now stored (its `modified`
   * written from here, so the copy is exact), or null when it no longer ran (the caller drops the file).
   */
  async complete(job: ConversionJobEntity, output: JobOutput, filename?: string): Promise<ConversionJobEntity | null> {
    const changes = {
      state: 'completed' as const,
      progress: 100,
      outputFilename: output.filename,
      outputMediaType: output.mediaType,
      outputSize: output.size,
      error: null,
      filename: filename ?? job.filename,
      modified: new Date(),
    };
    // Straight to the pool, as the INSERT: every job's answer waits for this write.
    const affected = await sql.execute(this.dataSource, COMPLETE_JOB, [
      job.id,
      changes.outputFilename,
      changes.outputMediaType,
      changes.outputSize,
      changes.filename,
      changes.modified,
    ]);
    return affected > 0 ? { ...job, ...changes } : null;
  }

  /** Back in the queue (handed over to another worker) unless it was cancelled or finished meanwhile. */
  async requeue(id: string): Promise<void> {
    await this.repo.update({ id, state: In(['queued', 'active']) }, { state: 'queued', progress: 0 });
  }

  async fail(id: string, error: string): Promise<void> {
    await this.repo.update({ id, state: In(['queued', 'active']) }, { state: 'failed', error });
  }

  /** Cancels a job that has not finished; false when it had finished already. */
  async cancel(id: string): Promise<boolean> {
    const result = await this.repo.update({ id, state: In(['queued', 'active']) }, { state: 'cancelled' });
    return (result.affected ?? 0) > 0;
  }

  /** Jobs whose time is up and that still hold files (oldest first, a batch at a time). */
  findExpired(now: Date, limit: number): Promise<ConversionJobEntity[]> {
    return this.repo.find({ where: { expires: LessThan(now), state: In(LIVE_STATES) }, order: { expires: 'ASC' }, take: limit });
  }

  async markExpired(id: string): Promise<void> {
    await this.repo.update({ id, state: Not('expired') }, { state: 'expired', progress: 0 });
  }
}
