import { beforeEach, describe, expect, it } from '@jest/globals';
import { AppError, engineStatus, type ConversionEngine, type CreateConversionJobMessage } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import type { ConversionJobEntity } from './conversion-job.entity.js';
import { queuedJob, type ConversionJobsRepository, type NewJob } from './conversion-jobs.repository.js';
import {
  ConversionJobsService,
  type ConversionJobData,
  type EngineSource,
  type FileRemover,
  type JobQueue,
} from './conversion-jobs.service.js';
import type { ConversionLimits } from './conversion-limits.js';

/** The rules of ConversionJobsService with its repository, queue, store and limits faked. */

const OWNER = '6f1c3a52-1f6e-4c8a-9d3b-6a2f7c1e9b40';
const OTHER = '0b1c3a52-1f6e-4c8a-9d3b-6a2f7c1e9b41';
const NOW = new Date('2026-11-24T10:00:00Z');

class FakeJobs {
  rows = new Map<string, ConversionJobEntity>();
  insert(job: NewJob): Promise<ConversionJobEntity> {
    // As the real table's primary key answers (conversion-jobs.repository.medium-spec).
    if (this.rows.has(job.id)) return Promise.reject(new AppError('CONFLICT', `job ${job.id} exists already`));
    const row = queuedJob(job, { created: NOW, modified: NOW });
    this.rows.set(job.id, row);
    return Promise.resolve(row);
  }
  /** Idempotency-Keys are the real repository's (idempotency.int-spec): none here. */
  async insertOnce(job: NewJob): Promise<{ job: ConversionJobEntity; replayed: boolean }> {
    return { job: await this.insert(job), replayed: false };
  }
  replayed(): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }
  removeUnqueued(id: string) {
    return this.remove(id);
  }
  findById(id: string) {
    return Promise.resolve(this.rows.get(id) ?? null);
  }
  findOwned(id: string, ownerId: string) {
    const row = this.rows.get(id);
    return Promise.resolve(row && row.ownerId === ownerId ? row : null);
  }
  listOwned(ownerId: string, offset: number, limit: number): Promise<[ConversionJobEntity[], number]> {
    const mine = [...this.rows.values()].filter((r) => r.ownerId === ownerId);
    return Promise.resolve([mine.slice(offset, offset + limit), mine.length]);
  }
  remove(id: string) {
    this.rows.delete(id);
    return Promise.resolve();
  }
  cancel(id: string) {
    const row = this.rows.get(id);
    if (!row || !['queued', 'active'].includes(row.state)) return Promise.resolve(false);
    row.state = 'cancelled';
    return Promise.resolve(true);
  }
  findExpired(now: Date) {
    return Promise.resolve([...this.rows.values()].filter((r) => r.expires < now && r.state !== 'expired'));
  }
  markExpired(id: string) {
    const row = this.rows.get(id);
    if (row) row.state = 'expired';
    return Promise.resolve();
  }
}

/** The engines the live workers announced, as the test sets them (one list per worker). */
class FakeEngines implements EngineSource {
  workers: ConversionEngine[][] = [];
  status() {
    return Promise.resolve(engineStatus(this.workers));
  }
}

class FakeQueue implements JobQueue {
  added: string[] = [];
  entries: ConversionJobData[] = [];
  removed: string[] = [];
  waiting = 0;
  failAdd = false;
  add(_name: string, data: ConversionJobData) {
    if (this.failAdd) return Promise.reject(new Error('redis is down'));
    this.added.push(data.id);
    this.entries.push(data);
    return Promise.resolve();
  }
  getJobCounts() {
    return Promise.resolve({ waiting: this.waiting, prioritized: 0, delayed: 0 });
  }
  on() {
    return this;
  }
  remove(id: string) {
    this.removed.push(id);
    return Promise.resolve();
  }
}

class FakeFiles implements FileRemover {
  deleted: string[] = [];
  delete(name: string) {
    this.deleted.push(name);
    return Promise.resolve(true);
  }
}

class FakeLimits {
  jobs: string[] = [];
  bytes: number[] = [];
  refuse = false;
  countJob(owner: string) {
    if (this.refuse) return Promise.reject(AppError.rateLimited('too many conversions; try again in 40 seconds', 40));
    this.jobs.push(owner);
    return Promise.resolve();
  }
  countBytes(_owner: string, bytes: number) {
    this.bytes.push(bytes);
    return Promise.resolve();
  }
  /** As ConversionLimits.count: both, and neither stays counted when one refuses (the job's refusal first). */
  async count(owner: string, bytes: number | undefined) {
    await this.countJob(owner);
    if (bytes !== undefined) await this.countBytes(owner, bytes);
  }
  uncount(owner: string, bytes: number | undefined) {
    this.jobs.splice(this.jobs.indexOf(owner), 1);
    if (bytes !== undefined) this.bytes.splice(this.bytes.indexOf(bytes), 1);
    return Promise.resolve();
  }
}

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;

let jobs: FakeJobs;
let queue: FakeQueue;
let files: FakeFiles;
let limits: FakeLimits;
let service: ConversionJobsService;
let engines: FakeEngines;

beforeEach(() => {
  jobs = new FakeJobs();
  queue = new FakeQueue();
  files = new FakeFiles();
  limits = new FakeLimits();
  engines = new FakeEngines();
  service = new ConversionJobsService(
    jobs as unknown as ConversionJobsRepository,
    queue,
    files,
    limits as unknown as ConversionLimits,
    { queueLimit: 3, attempts: 3, resultTtlHours: 24 },
    logger,
    () => NOW,
    engines,
  );
});

let n = 0;
function message(extra: Partial<CreateConversionJobMessage> = {}): CreateConversionJobMessage {
  n++;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    ownerId: OWNER,
    from: 'docx',
    to: 'pdf',
    source: { kind: 'upload', filename: 'report.docx', mediaType: 'application/octet-stream', size: 1234 },
    options: {},
    ...extra,
  } as CreateConversionJobMessage;
}

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return `${error.code}: ${error.detail}`;
    throw error;
  }
  return 'ok';
}

describe('engines', () => {
  const LIBREOFFICE = 'ENGINE_UNAVAILABLE: no running conversion worker has LibreOffice';

  it('refuses at once, naming the engine, a job whose engine no live worker has; queues nothing and counts nothing', async () => {
    engines.workers = [['images', 'pdf-pages', 'chromium']];
    expect(await code(service.create(message()))).toMatch(
      new RegExp(`^${LIBREOFFICE}.*\\(engine libreoffice\\).*Word document \\(docx\\)`),
    );
    expect(jobs.rows.size).toBe(0);
    expect(queue.added).toEqual([]);
    expect(limits.jobs).toEqual([]);
    // An image still goes: its engine is there.
    expect(
      await code(
        service.create(
          message({ from: 'png', to: 'webp', source: { kind: 'upload', filename: 'a.png', mediaType: 'image/png', size: 1 } }),
        ),
      ),
    ).toBe('ok');
  });

  it('takes the job when any one live worker has the engine', async () => {
    engines.workers = [['images'], ['images', 'libreoffice']];
    expect(await code(service.create(message()))).toBe('ok');
  });

  it('queues the job while no worker is live at all (one being restarted takes it)', async () => {
    engines.workers = [];
    expect(await code(service.create(message()))).toBe('ok');
  });

  it('lets a URL whose format is found once fetched through (its worker says what it lacked)', async () => {
    engines.workers = [['images']];
    expect(await code(service.create(message({ from: 'auto', source: { kind: 'url', url: 'https://example.com/a' } })))).toBe('ok');
  });
});

describe('create', () => {
  it('refuses a pair the source cannot become, naming what it can', async () => {
    expect(await code(service.create(message({ to: 'png' })))).toBe(
      'VALIDATION_FAILED: a Word document (docx) can become pdf, odt or txt, not png',
    );
    expect(jobs.rows.size).toBe(0);
  });

  it('refuses a web page without a URL, and an upload without a format', async () => {
    expect(await code(service.create(message({ from: 'url' })))).toMatch(/^VALIDATION_FAILED: from url needs a URL/);
    expect(await code(service.create(message({ from: 'auto' })))).toMatch(/^VALIDATION_FAILED: from is required/);
  });

  it('refuses a job id that exists, and gives back what it counted', async () => {
    const first = message();
    await service.create(first);
    expect(await code(service.create({ ...first }))).toBe(`CONFLICT: job ${first.id} exists already`);
    expect(limits.jobs).toEqual([OWNER]);
    expect(limits.bytes).toEqual([1234]);
    expect(queue.added).toEqual([first.id]);
  });

  it('answers QUEUE_FULL with a wait when the queue holds its limit, counting nothing', async () => {
    queue.waiting = 3;
    try {
      await service.create(message());
      throw new Error('expected QUEUE_FULL');
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('QUEUE_FULL');
      expect((error as AppError).retryAfterSeconds).toBe(30);
    }
    expect(limits.jobs).toEqual([]);
    expect(limits.bytes).toEqual([]);
    expect(jobs.rows.size).toBe(0);
  });

  it('counts the job and the uploaded bytes against the owner, and stops at the limit', async () => {
    await service.create(message());
    expect(limits.jobs).toEqual([OWNER]);
    expect(limits.bytes).toEqual([1234]);
    limits.refuse = true;
    expect(await code(service.create(message()))).toMatch(/^RATE_LIMITED/);
    expect(jobs.rows.size).toBe(1);
  });

  it('removes the record when the queue cannot take the job (nothing half-written)', async () => {
    queue.failAdd = true;
    expect(await code(service.create(message()))).toBe('UNAVAILABLE: the conversion queue is not reachable');
    expect(jobs.rows.size).toBe(0);
  });

  it('records and queues a job that expires after the result TTL, reading jpeg as jpg', async () => {
    const job = await service.create(
      message({
        from: 'png',
        to: 'jpeg',
        source: { kind: 'upload', filename: 'a.png', mediaType: 'image/png', size: 10 },
      } as Partial<CreateConversionJobMessage>),
    );
    expect(job).toMatchObject({
      state: 'queued',
      from: 'png',
      to: 'jpg',
      expires: '2026-11-25T10:00:00.000Z',
      source: { kind: 'upload', filename: 'a.png' },
    });
    expect(queue.added).toEqual([job.id]);
  });

  it("queues an upload with its plan (what its worker converts by before its start is written), a URL's job without", async () => {
    const upload = await service.create(message({ options: { quality: 70 } }));
    const url = await service.create(
      message({ from: 'auto', source: { kind: 'url', url: 'https://example.com/a', headers: { accept: 'text/html' } } }),
    );
    expect(queue.entries).toEqual([
      {
        id: upload.id,
        upload: { ownerId: OWNER, sourceFormat: 'docx', filename: 'report.docx', target: 'pdf', options: { quality: 70 } },
      },
      { id: url.id, headers: { accept: 'text/html' } },
    ]);
  });
});

describe('get, list and delete', () => {
  it("answer another owner's job exactly like a missing one", async () => {
    const job = await service.create(message());
    expect(await code(service.get(job.id, OTHER))).toBe(`NOT_FOUND: no conversion job ${job.id}`);
    expect(await code(service.delete(job.id, OTHER))).toBe(`NOT_FOUND: no conversion job ${job.id}`);
    expect((await service.list(OTHER)).total).toBe(0);
    expect(jobs.rows.get(job.id)?.state).toBe('queued');
  });

  it('cancels an unfinished job (off the queue, files dropped) and deletes a finished one', async () => {
    const queued = await service.create(message());
    expect(await service.delete(queued.id, OWNER)).toEqual({ success: true, state: 'cancelled' });
    expect(jobs.rows.get(queued.id)?.state).toBe('cancelled');
    expect(queue.removed).toEqual([queued.id]);
    expect(files.deleted).toEqual([`in/${queued.id}`, `out/${queued.id}`]);
    const done = await service.create(message());
    jobs.rows.get(done.id)!.state = 'completed';
    expect(await service.delete(done.id, OWNER)).toEqual({ success: true, state: 'deleted' });
    expect(jobs.rows.has(done.id)).toBe(false);
  });

  it('expires a job whose time is up when it is read, and in the sweep', async () => {
    const a = await service.create(message());
    const b = await service.create(message());
    for (const id of [a.id, b.id]) jobs.rows.get(id)!.expires = new Date(NOW.getTime() - 1);
    expect((await service.get(a.id, OWNER)).state).toBe('expired');
    expect(files.deleted).toContain(`out/${a.id}`);
    expect(await service.expireDue()).toBe(1);
    expect(jobs.rows.get(b.id)?.state).toBe('expired');
  });
});
