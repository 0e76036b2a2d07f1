import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { serviceDataSourceOptions, sql } from '@tinkerdesk/persistence';
import { RepositoryDatabase, staysBlocked } from '@tinkerdesk/testing';
import { dataSourceOptions } from '../database/data-source.js';
import { SavedFilesRepository, type NewSavedFile } from './saved-files.repository.js';

let db: RepositoryDatabase;
let repository: SavedFilesRepository;

beforeAll(async () => {
  db = await RepositoryDatabase.create((url) => serviceDataSourceOptions(dataSourceOptions(url)));
  repository = new SavedFilesRepository(db.dataSource);
});

afterAll(() => db?.close());

const later = (ms = 60_000): Date => new Date(Date.now() + ms);

function newFile(ownerId: string, size = 10): NewSavedFile {
  return {
    id: randomUUID(),
    ownerId,
    filename: 'a.pdf',
    mediaType: 'application/pdf',
    size,
    pendingUntil: later(),
    uploadNonce: randomUUID(),
    uploadExpires: later(),
  };
}

/** Holds the owner's advisory lock in another transaction until `release` is called. */
/** Holds the owner's advisory lock in a transaction of its own; `acquired` settles once it holds it. */
function holdOwnerLock(ownerId: string): { acquired: Promise<void>; release: () => void; done: Promise<void> } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const acquired = new Promise<void>((resolve) => (entered = resolve));
  const done = db.dataSource.transaction(async (tx) => {
    await sql.execute(tx, `SELECT pg_advisory_xact_lock(hashtext('saved_file:' || $1))`, [ownerId]);
    entered();
    await held;
  });
  return { acquired, release, done };
}

describe('insertWithinQuota', () => {
  it('inserts a pending file, counts it in the usage, refuses past the quota', async () => {
    const owner = randomUUID();
    const first = await repository.insertWithinQuota(newFile(owner, 60), 100);
    expect(first).toMatchObject({ outcome: 'inserted', file: { state: 'pending', size: 60, ownerId: owner } });
    await expect(repository.usage(owner)).resolves.toEqual({ used: 60, pending: 60 });
    await expect(repository.insertWithinQuota(newFile(owner, 50), 100)).resolves.toEqual({ outcome: 'quota', usedBytes: 60 });
  });

  it('lets a concurrent burst pass the quota only once (the owner lock)', async () => {
    const owner = randomUUID();
    const results = await Promise.all([1, 2, 3].map(() => repository.insertWithinQuota(newFile(owner, 40), 100)));
    expect(results.filter((r) => r.outcome === 'inserted')).toHaveLength(2);
  });

  it('answers busy when the owner lock is held past lockWaitMs', async () => {
    const owner = randomUUID();
    const lock = holdOwnerLock(owner);
    await lock.acquired;
    await expect(repository.insertWithinQuota(newFile(owner), 100, { lockWaitMs: 100 })).resolves.toEqual({ outcome: 'busy' });
    lock.release();
    await lock.done;
  });

  it('rolls back when it is no longer in time, and refuses a withdrawn declaration', async () => {
    const owner = randomUUID();
    const late = newFile(owner);
    await expect(repository.insertWithinQuota(late, 100, { inTime: () => false })).resolves.toEqual({ outcome: 'late' });
    await expect(repository.findOwned(late.id, owner)).resolves.toBeNull();
    const withdrawn = newFile(owner);
    await repository.abandon(withdrawn.id, owner);
    await repository.abandon(withdrawn.id, owner); // twice is fine (ON CONFLICT DO NOTHING)
    await expect(repository.insertWithinQuota(withdrawn, 100)).resolves.toEqual({ outcome: 'abandoned' });
  });
});

describe('abandon', () => {
  it('removes a recorded pending file, waiting for the owner lock', async () => {
    const owner = randomUUID();
    const file = newFile(owner);
    await repository.insertWithinQuota(file, 100);
    const lock = holdOwnerLock(owner);
    await lock.acquired;
    const abandoning = repository.abandon(file.id, owner);
    expect(await staysBlocked(abandoning)).toBe(true);
    lock.release();
    await lock.done;
    await abandoning;
    await expect(repository.findOwned(file.id, owner)).resolves.toBeNull();
  });
});

describe('uploads', () => {
  it('begins one upload only, ends it with the object key, and releases a failed one', async () => {
    const owner = randomUUID();
    const file = newFile(owner);
    await repository.insertWithinQuota(file, 100);
    const put = randomUUID();
    await expect(repository.beginUpload(file.id, owner, 'wrong nonce', put)).resolves.toBe(false);
    await expect(repository.beginUpload(file.id, owner, file.uploadNonce, put)).resolves.toBe(true);
    await expect(repository.beginUpload(file.id, owner, file.uploadNonce, randomUUID())).resolves.toBe(false);
    await repository.releaseUpload(file.id, owner, put);
    const second = randomUUID();
    await expect(repository.beginUpload(file.id, owner, file.uploadNonce, second)).resolves.toBe(true);
    await expect(repository.endUpload(file.id, owner, put, 'k')).resolves.toBe(false);
    await expect(repository.endUpload(file.id, owner, second, 'objects/k')).resolves.toBe(true);
    await expect(repository.findOwned(file.id, owner)).resolves.toMatchObject({
      objectKey: 'objects/k',
      uploadPut: null,
      uploadNonce: null,
    });
    await expect(repository.beginUpload(file.id, owner, file.uploadNonce, randomUUID())).resolves.toBe(false);
  });
});

describe('stored files and purges', () => {
  it('marks a pending file stored once with its purges (upserted by key), lists stored files newest first', async () => {
    const owner = randomUUID();
    const a = newFile(owner);
    const b = newFile(owner);
    await repository.insertWithinQuota(a, 100);
    await repository.insertWithinQuota(b, 100);
    const key = `purge-${a.id}`;
    await expect(repository.markStored(a.id, 'objects/a', [{ key, notBefore: later(3_600_000) }])).resolves.toBe(true);
    await expect(repository.markStored(a.id, 'objects/a', [{ key, notBefore: new Date(0) }])).resolves.toBe(false);
    await expect(repository.duePurges(new Date(), 100)).resolves.not.toContain(key);
    await repository.markStored(b.id, 'objects/b', [{ key, notBefore: new Date(1000) }]);
    await expect(repository.duePurges(new Date(), 100)).resolves.toContain(key);
    await repository.purged([key]);
    await expect(repository.duePurges(new Date(), 100)).resolves.not.toContain(key);
    const [files, total] = await repository.listStored(owner, 0, 10);
    expect(total).toBe(2);
    expect(files[0]?.state).toBe('stored');
    await expect(repository.usage(owner)).resolves.toEqual({ used: 20, pending: 0 });
  });

  it('discards only the owner’s file, or only an expired pending one, recording its purges', async () => {
    const owner = randomUUID();
    const file = newFile(owner);
    await repository.insertWithinQuota(file, 100);
    const purgesOf = (f: { id: string }) => [{ key: `gone-${f.id}`, notBefore: new Date(0) }];
    await expect(repository.discard(file.id, purgesOf, { ownerId: randomUUID() })).resolves.toBeNull();
    await expect(repository.discard(file.id, purgesOf, { expiredAt: new Date() })).resolves.toBeNull();
    await expect(repository.discard(file.id, purgesOf, { ownerId: owner })).resolves.toMatchObject({ id: file.id });
    await expect(repository.duePurges(new Date(), 1000)).resolves.toContain(`gone-${file.id}`);
  });

  it('discard waits for a writer holding the row (FOR UPDATE), then sees its change', async () => {
    const owner = randomUUID();
    const file = newFile(owner);
    await repository.insertWithinQuota(file, 100);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const writer = db.dataSource.transaction(async (tx) => {
      await sql.execute(tx, `UPDATE "conversion"."saved_file" SET "pending_until" = now() + interval '1 hour' WHERE "id" = $1`, [file.id]);
      entered();
      await held;
    });
    await inside;
    const discarding = repository.discard(file.id, () => [], { expiredAt: later(600_000) });
    expect(await staysBlocked(discarding)).toBe(true);
    release();
    await writer;
    await expect(discarding).resolves.toBeNull();
  });

  it('finds pending files past their time, oldest first, and forgets old withdrawals', async () => {
    const owner = randomUUID();
    const old = { ...newFile(owner), pendingUntil: new Date(1000) };
    const older = { ...newFile(owner), pendingUntil: new Date(500) };
    await repository.insertWithinQuota(old, 100);
    await repository.insertWithinQuota(older, 100);
    const found = (await repository.findAbandoned(new Date(2000), 10)).map((f) => f.id);
    expect(found).toEqual([older.id, old.id]);
    const withdrawn = randomUUID();
    await repository.abandon(withdrawn, owner);
    await repository.forgetAbandoned(later());
    await expect(repository.insertWithinQuota({ ...newFile(owner), id: withdrawn }, 100)).resolves.toMatchObject({ outcome: 'inserted' });
  });
});
