import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { serviceDataSourceOptions, sql } from '@tinkerdesk/persistence';
import { RepositoryDatabase } from '@tinkerdesk/testing';
import { dataSourceOptions } from '../database/data-source.js';
import { ConversionJobsRepository, type NewJob, toView } from './conversion-jobs.repository.js';

let db: RepositoryDatabase;
let repository: ConversionJobsRepository;

beforeAll(async () => {
  db = await RepositoryDatabase.create((url) => serviceDataSourceOptions(dataSourceOptions(url)));
  repository = new ConversionJobsRepository(db.dataSource);
});

afterAll(() => db?.close());

function job(ownerId: string, fields: Partial<NewJob> = {}): NewJob {
  return {
    id: randomUUID(),
    ownerId,
    sourceFormat: 'png',
    sourceKind: 'upload',
    sourceUrl: null,
    filename: 'photo.png',
    mediaType: 'image/png',
    inputSize: 1234,
    target: 'webp',
    options: {},
    expires: new Date(Date.now() + 3_600_000),
    ...fields,
  };
}

describe('ConversionJobsRepository', () => {
  it('insert starts a job queued at 0 %, and its view names the upload', async () => {
    const owner = randomUUID();
    const saved = await repository.insert(job(owner));
    expect(saved).toMatchObject({ ownerId: owner, state: 'queued', progress: 0 });
    expect(toView(saved)).toMatchObject({
      state: 'queued',
      from: 'png',
      to: 'webp',
      source: { kind: 'upload', filename: 'photo.png', size: 1234 },
    });
    expect(toView(saved)).not.toHaveProperty('output');
    // What it answers is the row as stored (its timestamps from RETURNING), as a read gives it.
    expect(saved).toEqual(await repository.findById(saved.id));
  });

  it('refuses an id taken already with CONFLICT from the primary key, with or without an Idempotency-Key, and changes nothing', async () => {
    const owner = randomUUID();
    const saved = await repository.insert(job(owner, { filename: 'first.png' }));
    const again = job(randomUUID(), { id: saved.id, filename: 'second.png' });
    await expect(repository.insert(again)).rejects.toMatchObject({ code: 'CONFLICT', detail: `job ${saved.id} exists already` });
    const keyed = { scope: `job.create:${again.ownerId}`, key: randomUUID(), request: { filename: 'second.png' } };
    await expect(repository.insertOnce(again, keyed)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await repository.replayed(keyed)).toBeUndefined(); // the key's claim went with the refused INSERT
    expect((await repository.findById(saved.id))?.filename).toBe('first.png');
  });

  it("findOwned answers another owner's job exactly as a missing one", async () => {
    const owner = randomUUID();
    const saved = await repository.insert(job(owner));
    expect((await repository.findOwned(saved.id, owner))?.id).toBe(saved.id);
    expect(await repository.findOwned(saved.id, randomUUID())).toBeNull();
    expect(await repository.findOwned(randomUUID(), owner)).toBeNull();
  });

  it('listOwned pages the owner’s jobs newest first with the total', async () => {
    const owner = randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await repository.insert(job(owner))).id);
    await repository.insert(job(randomUUID()));
    const [first, total] = await repository.listOwned(owner, 0, 2);
    expect(total).toBe(3);
    expect(first.map((j) => j.id)).toEqual([ids[2], ids[1]]);
    const [rest] = await repository.listOwned(owner, 2, 2);
    expect(rest.map((j) => j.id)).toEqual([ids[0]]);
  });

  it('start answers the job as now stored (active, its columns as findById reads them); null once cancelled or gone', async () => {
    const queued = await repository.insert(job(randomUUID(), { inputSize: 5_000_000_000, options: { width: 800 } }));
    const started = await repository.start(queued.id, 5);
    expect(started).toStrictEqual(await repository.findById(queued.id));
    expect(started).toMatchObject({ state: 'active', progress: 5, inputSize: 5_000_000_000, options: { width: 800 }, outputSize: null });
    expect(started?.created).toBeInstanceOf(Date);
    // Taken up again by another worker (its first one died): still running, so it starts again.
    expect(await repository.start(queued.id, 5)).toMatchObject({ id: queued.id, state: 'active' });

    const cancelled = await repository.insert(job(randomUUID()));
    await repository.cancel(cancelled.id);
    expect(await repository.start(cancelled.id, 5)).toBeNull();
    expect(await repository.findById(cancelled.id)).toMatchObject({ state: 'cancelled', progress: 0 });
    expect(await repository.start(randomUUID(), 5)).toBeNull();
  });

  it('start keeps its answer when a migration adds a column while the worker runs (its prepared statement names its columns)', async () => {
    // One connection, so the statement runs again where it was prepared (a worker's pool under load).
    const single = await new DataSource({ ...serviceDataSourceOptions(dataSourceOptions(db.url)), extra: { max: 1 } }).initialize();
    const worker = new ConversionJobsRepository(single);
    try {
      const before = await worker.insert(job(randomUUID()));
      expect(await worker.start(before.id, 5)).toMatchObject({ state: 'active' });
      await sql.execute(db.dataSource, `ALTER TABLE "conversion"."job" ADD COLUMN "added_later" integer`);
      const after = await worker.insert(job(randomUUID()));
      const started = await worker.start(after.id, 5);
      expect(started).toStrictEqual(await repository.findById(after.id));
      expect(started).not.toHaveProperty('added_later');
    } finally {
      await sql.execute(db.dataSource, `ALTER TABLE "conversion"."job" DROP COLUMN IF EXISTS "added_later"`);
      await single.destroy();
    }
  });

  it('progress, complete and fail move only a job that still runs; a cancelled one stays cancelled', async () => {
    const running = await repository.insert(job(randomUUID()));
    expect(await repository.progress(running.id, 40)).toBe(true);
    expect(await repository.findById(running.id)).toMatchObject({ state: 'active', progress: 40 });
    const completed = await repository.complete((await repository.findById(running.id))!, {
      filename: 'photo.webp',
      mediaType: 'image/webp',
      size: 99,
    });
    const done = await repository.findById(running.id);
    // What complete answers is exactly what is stored (the finished event carries it to the gateways).
    expect(completed && toView(completed)).toEqual(toView(done!));
    expect(toView(done!)).toMatchObject({
      state: 'completed',
      progress: 100,
      output: { filename: 'photo.webp', mediaType: 'image/webp', size: 99 },
    });
    expect(await repository.cancel(running.id)).toBe(false);

    const cancelled = await repository.insert(job(randomUUID()));
    expect(await repository.cancel(cancelled.id)).toBe(true);
    expect(await repository.progress(cancelled.id, 50)).toBe(false);
    expect(await repository.complete(cancelled, { filename: 'x.webp', mediaType: 'image/webp', size: 1 })).toBeNull();
    await repository.fail(cancelled.id, 'too late');
    expect(await repository.findById(cancelled.id)).toMatchObject({ state: 'cancelled', error: null, outputFilename: null });
  });

  it('findExpired lists jobs past their time that still hold files, oldest first; markExpired takes them out', async () => {
    const owner = randomUUID();
    const now = new Date();
    const older = await repository.insert(job(owner, { expires: new Date(now.getTime() - 120_000) }));
    const newer = await repository.insert(job(owner, { expires: new Date(now.getTime() - 60_000) }));
    const live = await repository.insert(job(owner));
    const expired = (await repository.findExpired(now, 1000)).map((j) => j.id);
    expect(expired.indexOf(older.id)).toBeGreaterThanOrEqual(0);
    expect(expired.indexOf(older.id)).toBeLessThan(expired.indexOf(newer.id));
    expect(expired).not.toContain(live.id);
    await repository.markExpired(older.id);
    expect(await repository.findById(older.id)).toMatchObject({ state: 'expired', progress: 0 });
    expect((await repository.findExpired(now, 1000)).map((j) => j.id)).not.toContain(older.id);
  });

  it('a URL job keeps its address and a state outside the known ones is refused by the table', async () => {
    const url = await repository.insert(
      job(randomUUID(), { sourceKind: 'url', sourceUrl: 'https://example.com/page', sourceFormat: 'url' }),
    );
    expect(toView(url).source).toEqual({ kind: 'url', url: 'https://example.com/page' });
    await expect(
      sql.execute(db.dataSource, `UPDATE "conversion"."job" SET "state" = $2 WHERE "id" = $1`, [url.id, 'lost']),
    ).rejects.toThrow(/job_state_check/);
    expect((await repository.findById(url.id))?.state).toBe('queued');
  });

  it('remove deletes the job', async () => {
    const saved = await repository.insert(job(randomUUID()));
    await repository.remove(saved.id);
    expect(await repository.findById(saved.id)).toBeNull();
  });
});
