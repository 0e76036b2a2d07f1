import { beforeEach, describe, expect, it } from '@jest/globals';
import { AppError, type UploadTicket } from '@tinkerdesk/contracts';
import type { FileFacts, Logger, SavedFileStorage, StoredObject } from '@tinkerdesk/nest-common';
import type { SavedFileEntity } from './saved-file.entity.js';
import type { NewSavedFile, SavedFilesRepository } from './saved-files.repository.js';
import { SavedFilesService } from './saved-files.service.js';

/** The rules of SavedFilesService with its repository and storage faked. */

const OWNER = '6f1c3a52-1f6e-4c8a-9d3b-6a2f7c1e9b40';
const OTHER = '0b1c3a52-1f6e-4c8a-9d3b-6a2f7c1e9b41';
const NOW = new Date('2026-11-24T10:00:00Z');

class FakeFiles {
  rows = new Map<string, SavedFileEntity>();
  insertWithinQuota(file: NewSavedFile, quota: number): Promise<SavedFileEntity | null> {
    const used = [...this.rows.values()].filter((r) => r.ownerId === file.ownerId).reduce((sum, r) => sum + r.size, 0);
    if (used + file.size > quota) return Promise.resolve(null);
    const row = { ...file, state: 'pending', created: NOW, modified: NOW } as SavedFileEntity;
    this.rows.set(file.id, row);
    return Promise.resolve(row);
  }
  usedBytes(ownerId: string) {
    return Promise.resolve([...this.rows.values()].filter((r) => r.ownerId === ownerId).reduce((sum, r) => sum + r.size, 0));
  }
  findOwned(id: string, ownerId: string) {
    const row = this.rows.get(id);
    return Promise.resolve(row && row.ownerId === ownerId ? row : null);
  }
  listStored(ownerId: string, offset: number, limit: number): Promise<[SavedFileEntity[], number]> {
    const mine = [...this.rows.values()].filter((r) => r.ownerId === ownerId && r.state === 'stored');
    return Promise.resolve([mine.slice(offset, offset + limit), mine.length]);
  }
  markStored(id: string) {
    const row = this.rows.get(id);
    if (!row || row.state !== 'pending') return Promise.resolve(false);
    row.state = 'stored';
    row.pendingUntil = null;
    return Promise.resolve(true);
  }
  remove(id: string) {
    this.rows.delete(id);
    return Promise.resolve();
  }
  findAbandoned(now: Date) {
    return Promise.resolve([...this.rows.values()].filter((r) => r.state === 'pending' && r.pendingUntil !== null && r.pendingUntil < now));
  }
}

class FakeStorage implements SavedFileStorage {
  readonly kind = 'local' as const;
  objects = new Map<string, number>();
  removed: string[] = [];
  uploadTicket(key: string, facts: FileFacts, ttlSeconds: number): Promise<UploadTicket> {
    return Promise.resolve({
      url: `/put/${key}?size=${facts.size}`,
      method: 'PUT',
      headers: { 'content-type': facts.mediaType },
      expires: String(ttlSeconds),
    });
  }
  downloadTicket(key: string, file: { filename: string }) {
    return Promise.resolve({ url: `/get/${key}?name=${file.filename}`, expires: 'later' });
  }
  stat(key: string): Promise<StoredObject | undefined> {
    const size = this.objects.get(key);
    return Promise.resolve(size === undefined ? undefined : { size });
  }
  remove(key: string) {
    this.removed.push(key);
    this.objects.delete(key);
    return Promise.resolve();
  }
}

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;
let files: FakeFiles;
let storage: FakeStorage;
let now: Date;
let service: SavedFilesService;

beforeEach(() => {
  files = new FakeFiles();
  storage = new FakeStorage();
  now = NOW;
  service = new SavedFilesService(
    files as unknown as SavedFilesRepository,
    storage,
    { maxBytes: 1000, quotaBytes: 2500, urlTtlSeconds: 60 },
    () => now,
    logger,
  );
});

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

describe('create', () => {
  it('refuses a file larger than the largest a file may be', async () => {
    expect(await code(service.create({ ownerId: OWNER, filename: 'big.bin', size: 1001 }))).toBe('PAYLOAD_TOO_LARGE');
    expect(files.rows.size).toBe(0);
  });

  it('refuses a file that would pass the quota, naming it and what is used', async () => {
    await service.create({ ownerId: OWNER, filename: 'a', size: 1000 });
    await service.create({ ownerId: OWNER, filename: 'b', size: 1000 });
    const failure = await service.create({ ownerId: OWNER, filename: 'c', size: 600 }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect((failure as AppError).detail).toMatch(/quota of 2500 bytes \(2000 used\)/);
    // Another account has its own quota.
    expect(await code(service.create({ ownerId: OTHER, filename: 'c', size: 600 }))).toBe('resolved');
  });

  it('records a pending file until its URL has expired (with a grace) and answers the upload ticket for its key', async () => {
    const { file, upload } = await service.create({ ownerId: OWNER, filename: 'notes.txt', size: 12 });
    expect(file).toMatchObject({ filename: 'notes.txt', mediaType: 'application/octet-stream', size: 12, state: 'pending' });
    expect(upload.url).toBe(`/put/${OWNER}/${file.id}?size=12`);
    expect(files.rows.get(file.id)?.pendingUntil?.getTime()).toBe(NOW.getTime() + 60_000 + 10 * 60_000);
  });
});

describe('complete', () => {
  it("answers another account's file like a missing one", async () => {
    const { file } = await service.create({ ownerId: OWNER, filename: 'a', size: 5 });
    expect(await code(service.complete(file.id, OTHER))).toBe('NOT_FOUND');
  });

  it('is a conflict before the upload arrived', async () => {
    const { file } = await service.create({ ownerId: OWNER, filename: 'a', size: 5 });
    expect(await code(service.complete(file.id, OWNER))).toBe('CONFLICT');
    expect(files.rows.get(file.id)?.state).toBe('pending');
  });

  it('drops the file and its bytes when the upload is not the declared size', async () => {
    const { file } = await service.create({ ownerId: OWNER, filename: 'a', size: 5 });
    storage.objects.set(`${OWNER}/${file.id}`, 4);
    expect(await code(service.complete(file.id, OWNER))).toBe('VALIDATION_FAILED');
    expect(files.rows.has(file.id)).toBe(false);
    expect(storage.removed).toEqual([`${OWNER}/${file.id}`]);
  });

  it('stores the file when the bytes are there, and answers the same when confirmed again', async () => {
    const { file } = await service.create({ ownerId: OWNER, filename: 'a', size: 5 });
    storage.objects.set(`${OWNER}/${file.id}`, 5);
    expect(await service.complete(file.id, OWNER)).toMatchObject({ id: file.id, state: 'stored' });
    expect(await service.complete(file.id, OWNER)).toMatchObject({ id: file.id, state: 'stored' });
  });
});

describe('list, download and delete', () => {
  it('list shows stored files only, with what the account uses of its quota', async () => {
    const stored = await service.create({ ownerId: OWNER, filename: 'kept', size: 5 });
    storage.objects.set(`${OWNER}/${stored.file.id}`, 5);
    await service.complete(stored.file.id, OWNER);
    await service.create({ ownerId: OWNER, filename: 'pending', size: 7 });
    const list = await service.list(OWNER);
    expect(list).toMatchObject({ total: 1, usedBytes: 12, quotaBytes: 2500, offset: 0, limit: 20 });
    expect(list.files.map((f) => f.filename)).toEqual(['kept']);
  });

  it('download answers a signed URL for a stored file only, and nothing for another account', async () => {
    const { file } = await service.create({ ownerId: OWNER, filename: 'a.pdf', size: 5 });
    expect(await code(service.download(file.id, OWNER))).toBe('CONFLICT');
    storage.objects.set(`${OWNER}/${file.id}`, 5);
    await service.complete(file.id, OWNER);
    expect(await code(service.download(file.id, OTHER))).toBe('NOT_FOUND');
    expect(await service.download(file.id, OWNER)).toEqual({ url: `/get/${OWNER}/${file.id}?name=a.pdf`, expires: 'later' });
  });

  it('delete removes the bytes and the record; another account cannot', async () => {
    const { file } = await service.create({ ownerId: OWNER, filename: 'a', size: 5 });
    expect(await code(service.delete(file.id, OTHER))).toBe('NOT_FOUND');
    expect(await service.delete(file.id, OWNER)).toEqual({ success: true });
    expect(storage.removed).toEqual([`${OWNER}/${file.id}`]);
    expect(await code(service.delete(file.id, OWNER))).toBe('NOT_FOUND');
  });
});

describe('dropAbandoned', () => {
  it('drops pending files past their time, and keeps stored ones and pending ones still in time', async () => {
    const late = await service.create({ ownerId: OWNER, filename: 'late', size: 5 });
    const stored = await service.create({ ownerId: OWNER, filename: 'stored', size: 5 });
    storage.objects.set(`${OWNER}/${stored.file.id}`, 5);
    await service.complete(stored.file.id, OWNER);
    now = new Date(NOW.getTime() + 30 * 60_000);
    const fresh = await service.create({ ownerId: OWNER, filename: 'fresh', size: 5 });
    expect(await service.dropAbandoned()).toBe(1);
    expect([...files.rows.keys()].sort()).toEqual([stored.file.id, fresh.file.id].sort());
    expect(storage.removed).toEqual([`${OWNER}/${late.file.id}`]);
  });
});
