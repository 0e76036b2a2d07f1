import { beforeEach, describe, expect, it } from '@jest/globals';
import { AppError, type CreateSavedFileMessage, type UploadTicket } from '@tinkerdesk/contracts';
import type { FileFacts, LocalStorage, Logger, S3Storage, StoredObject, UploadTarget } from '@tinkerdesk/nest-common';
import type { SavedFileEntity } from './saved-file.entity.js';
import type { InsertOptions, InsertOutcome, NewSavedFile, Purge, SavedFilesRepository } from './saved-files.repository.js';
import { SavedFilesService, type SavedFilesSettings } from './saved-files.service.js';

/** The rules of SavedFilesService with its repository and storage faked. */

const OWNER = '6f1c3a52-1f6e-4c8a-9d3b-6a2f7c1e9b40';
const OTHER = '0b1c3a52-1f6e-4c8a-9d3b-6a2f7c1e9b41';
const NOW = new Date('2026-11-24T10:00:00Z');
const SETTINGS: SavedFilesSettings = { maxBytes: 1000, quotaBytes: 2500, urlTtlSeconds: 60, uploadTtlSeconds: 120, pendingSeconds: 300 };

class FakeFiles {
  rows = new Map<string, SavedFileEntity>();
  abandoned = new Set<string>();
  purges = new Map<string, Date>();
  nextInsert: InsertOutcome['outcome'] | undefined;
  lastOptions: InsertOptions | undefined;

  private used(ownerId: string, state?: string) {
    return [...this.rows.values()]
      .filter((r) => r.ownerId === ownerId && (!state || r.state === state))
      .reduce((sum, r) => sum + r.size, 0);
  }
  insertWithinQuota(file: NewSavedFile, quota: number, options: InsertOptions = {}): Promise<InsertOutcome> {
    this.lastOptions = options;
    if (this.nextInsert === 'busy' || this.nextInsert === 'late') return Promise.resolve({ outcome: this.nextInsert });
    if (this.abandoned.has(file.id)) return Promise.resolve({ outcome: 'abandoned' });
    const used = this.used(file.ownerId);
    if (used + file.size > quota) return Promise.resolve({ outcome: 'quota', usedBytes: used });
    const row = { ...file, state: 'pending', uploadPut: null, objectKey: null, created: NOW, modified: NOW } as SavedFileEntity;
    this.rows.set(file.id, row);
    return Promise.resolve({ outcome: 'inserted', file: row, replayed: false });
  }
  abandon(id: string) {
    this.abandoned.add(id);
    if (this.rows.get(id)?.state === 'pending') this.rows.delete(id);
    return Promise.resolve();
  }
  usage(ownerId: string) {
    return Promise.resolve({ used: this.used(ownerId), pending: this.used(ownerId, 'pending') });
  }
  findOwned(id: string, ownerId: string) {
    const row = this.rows.get(id);
    return Promise.resolve(row && row.ownerId === ownerId ? { ...row } : null);
  }
  listStored(ownerId: string, offset: number, limit: number): Promise<[SavedFileEntity[], number]> {
    const mine = [...this.rows.values()].filter((r) => r.ownerId === ownerId && r.state === 'stored');
    return Promise.resolve([mine.slice(offset, offset + limit), mine.length]);
  }
  beginUpload(id: string, ownerId: string, nonce: string, putId: string) {
    const row = this.rows.get(id);
    const ok = !!row && row.ownerId === ownerId && row.state === 'pending' && row.uploadNonce === nonce && !row.objectKey && !row.uploadPut;
    if (ok) row.uploadPut = putId;
    return Promise.resolve(ok);
  }
  endUpload(id: string, ownerId: string, putId: string, objectKey: string) {
    const row = this.rows.get(id);
    const ok = !!row && row.ownerId === ownerId && row.state === 'pending' && row.uploadPut === putId;
    if (ok) Object.assign(row, { objectKey, uploadPut: null, uploadNonce: null });
    return Promise.resolve(ok);
  }
  releaseUpload(id: string, _ownerId: string, putId: string) {
    const row = this.rows.get(id);
    if (row?.uploadPut === putId) row.uploadPut = null;
    return Promise.resolve();
  }
  markStored(id: string, objectKey: string, later: Purge[] = []) {
    const row = this.rows.get(id);
    if (!row || row.state !== 'pending') return Promise.resolve(false);
    Object.assign(row, { state: 'stored', pendingUntil: null, uploadNonce: null, objectKey });
    for (const p of later) this.purges.set(p.key, p.notBefore);
    return Promise.resolve(true);
  }
  discard(id: string, purgesOf: (file: SavedFileEntity) => Purge[], where: { ownerId?: string; expiredAt?: Date } = {}) {
    const row = this.rows.get(id);
    if (!row || (where.ownerId && row.ownerId !== where.ownerId)) return Promise.resolve(null);
    if (where.expiredAt && !(row.state === 'pending' && row.pendingUntil && row.pendingUntil < where.expiredAt))
      return Promise.resolve(null);
    this.rows.delete(id);
    for (const p of purgesOf(row)) this.purges.set(p.key, p.notBefore);
    return Promise.resolve(row);
  }
  findAbandoned(now: Date) {
    return Promise.resolve([...this.rows.values()].filter((r) => r.state === 'pending' && r.pendingUntil !== null && r.pendingUntil < now));
  }
  duePurges(now: Date) {
    return Promise.resolve([...this.purges].filter(([, at]) => at <= now).map(([key]) => key));
  }
  purged(keys: string[]) {
    for (const key of keys) this.purges.delete(key);
    return Promise.resolve();
  }
  forgetAbandoned() {
    return Promise.resolve();
  }
}

class FakeStorage {
  objects = new Map<string, StoredObject>();
  removed: string[] = [];
  uploadTicket(target: UploadTarget, facts: FileFacts, ttlSeconds: number): Promise<UploadTicket> {
    return Promise.resolve({
      url: `/put/${target.ownerId}/${target.fileId}?size=${facts.size}&nonce=${target.nonce}`,
      method: 'PUT',
      headers: { 'content-type': facts.mediaType },
      expires: String(ttlSeconds),
    });
  }
  downloadTicket(key: string, file: { filename: string }) {
    return Promise.resolve({ url: `/get/${key}?name=${file.filename}`, expires: 'later' });
  }
  stat(key: string): Promise<StoredObject | undefined> {
    return Promise.resolve(this.objects.get(key));
  }
  remove(key: string) {
    this.removed.push(key);
    this.objects.delete(key);
    return Promise.resolve();
  }
}

class FakeLocal extends FakeStorage implements LocalStorage {
  readonly kind = 'local' as const;
}

class FakeS3 extends FakeStorage implements S3Storage {
  readonly kind = 's3' as const;
  /** Replaces the upload between the check and the copy when set. */
  replaceBeforeCopy: StoredObject | undefined;
  copyIfUnchanged(from: string, to: string, etag: string): Promise<boolean> {
    if (this.replaceBeforeCopy) this.objects.set(from, this.replaceBeforeCopy);
    const source = this.objects.get(from);
    if (!source || source.etag !== etag) return Promise.resolve(false);
    this.objects.set(to, { ...source });
    return Promise.resolve(true);
  }
}

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;
let files: FakeFiles;
let storage: FakeStorage & (LocalStorage | S3Storage);
let now: Date;
let service: SavedFilesService;
let ids = 0;

function build(kind: 'local' | 's3') {
  storage = kind === 'local' ? new FakeLocal() : new FakeS3();
  service = new SavedFilesService(files as unknown as SavedFilesRepository, storage, SETTINGS, () => now, logger);
}

beforeEach(() => {
  files = new FakeFiles();
  now = NOW;
  build('local');
});

function declaration(size: number, ownerId = OWNER, extra: Partial<CreateSavedFileMessage> = {}): CreateSavedFileMessage {
  ids++;
  return { id: `00000000-0000-4000-8000-${String(ids).padStart(12, '0')}`, ownerId, filename: 'notes.txt', size, ...extra };
}

const nonceOf = (url: string) => new URL(url, 'http://x').searchParams.get('nonce') ?? '';
const PUT_A = '11111111-1111-4111-8111-111111111111';
const PUT_B = '22222222-2222-4222-8222-222222222222';

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

/** Declares and uploads (local) a file of `size` bytes; answers its id and the upload's object key. */
async function uploadedLocal(size = 5) {
  const { file, upload } = await service.create(declaration(size));
  const nonce = nonceOf(upload.url);
  await service.beginUpload({ id: file.id, ownerId: OWNER, nonce, putId: PUT_A });
  await service.endUpload({ id: file.id, ownerId: OWNER, putId: PUT_A, stored: true });
  const key = `${OWNER}/${file.id}/${PUT_A}`;
  storage.objects.set(key, { size });
  return { id: file.id, key, nonce };
}

describe('create', () => {
  it('refuses a file larger than the largest a file may be', async () => {
    expect(await code(service.create(declaration(1001)))).toBe('PAYLOAD_TOO_LARGE');
    expect(files.rows.size).toBe(0);
  });

  it('refuses a file that would pass the quota, naming it and what is used', async () => {
    await service.create(declaration(1000));
    await service.create(declaration(1000));
    const failure = await service.create(declaration(600)).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect((failure as AppError).detail).toMatch(/quota of 2500 bytes \(2000 used\)/);
    // Another account has its own quota.
    expect(await code(service.create(declaration(600, OTHER)))).toBe('resolved');
  });

  it('records a pending file for FILES_PENDING_SECONDS with a one-time upload token, and answers the upload ticket for it', async () => {
    const { file, upload } = await service.create(declaration(12));
    expect(file).toMatchObject({ filename: 'notes.txt', mediaType: 'application/octet-stream', size: 12, state: 'pending' });
    const row = files.rows.get(file.id);
    expect(upload.url).toBe(`/put/${OWNER}/${file.id}?size=12&nonce=${row?.uploadNonce}`);
    expect(row?.uploadNonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(row?.pendingUntil?.getTime()).toBe(NOW.getTime() + 300_000);
    expect(row?.uploadExpires?.getTime()).toBe(NOW.getTime() + 120_000);
    // Every declaration has a token of its own.
    const other = await service.create(declaration(12));
    expect(files.rows.get(other.file.id)?.uploadNonce).not.toBe(row?.uploadNonce);
  });

  it("keeps within the gateway's deadline: it waits for the lock only until shortly before, and does not record a late one", async () => {
    await service.create(declaration(5, OWNER, { deadline: NOW.getTime() + 1500 }));
    expect(files.lastOptions?.lockWaitMs).toBe(1250);
    expect(files.lastOptions?.inTime?.()).toBe(true);
    now = new Date(NOW.getTime() + 1300);
    expect(files.lastOptions?.inTime?.()).toBe(false);
    now = NOW;
    // Past the deadline already: nothing is tried.
    const before = files.rows.size;
    expect(await code(service.create(declaration(5, OWNER, { deadline: NOW.getTime() + 100 })))).toBe('UNAVAILABLE');
    expect(files.rows.size).toBe(before);
    for (const outcome of ['busy', 'late'] as const) {
      files.nextInsert = outcome;
      expect(await code(service.create(declaration(5)))).toBe('UNAVAILABLE');
    }
  });

  it('does not record a declaration the gateway has withdrawn, and withdrawing a recorded one removes it', async () => {
    const late = declaration(5);
    await service.abandon(late.id, OWNER);
    expect(await code(service.create(late))).toBe('UNAVAILABLE');
    expect(files.rows.has(late.id)).toBe(false);
    const { file } = await service.create(declaration(5));
    await service.abandon(file.id, OWNER);
    expect(files.rows.has(file.id)).toBe(false);
  });
});

describe('uploads through the site’s own storage', () => {
  it('lets one upload through, with the token of its own file only', async () => {
    const { file, upload } = await service.create(declaration(5));
    const nonce = nonceOf(upload.url);
    expect(await code(service.beginUpload({ id: file.id, ownerId: OWNER, nonce: 'B'.repeat(22), putId: PUT_A }))).toBe('CONFLICT');
    expect(await code(service.beginUpload({ id: file.id, ownerId: OTHER, nonce, putId: PUT_A }))).toBe('CONFLICT');
    expect(await service.beginUpload({ id: file.id, ownerId: OWNER, nonce, putId: PUT_A })).toEqual({ success: true });
    const concurrent = await service.beginUpload({ id: file.id, ownerId: OWNER, nonce, putId: PUT_B }).catch((e: unknown) => e);
    expect(concurrent).toMatchObject({ code: 'CONFLICT', detail: 'another upload to this URL is under way' });
    await service.endUpload({ id: file.id, ownerId: OWNER, putId: PUT_A, stored: true });
    expect(files.rows.get(file.id)).toMatchObject({ objectKey: `${OWNER}/${file.id}/${PUT_A}`, uploadNonce: null, uploadPut: null });
    // Used up.
    expect(await code(service.beginUpload({ id: file.id, ownerId: OWNER, nonce, putId: PUT_B }))).toBe('CONFLICT');
  });

  it('lets the URL be used again after an upload that failed', async () => {
    const { file, upload } = await service.create(declaration(5));
    const nonce = nonceOf(upload.url);
    await service.beginUpload({ id: file.id, ownerId: OWNER, nonce, putId: PUT_A });
    await service.endUpload({ id: file.id, ownerId: OWNER, putId: PUT_A, stored: false });
    expect(await service.beginUpload({ id: file.id, ownerId: OWNER, nonce, putId: PUT_B })).toEqual({ success: true });
  });

  it('refuses the end of an upload whose file was deleted meanwhile, and the deletion purges the object under way later', async () => {
    const { file, upload } = await service.create(declaration(5));
    await service.beginUpload({ id: file.id, ownerId: OWNER, nonce: nonceOf(upload.url), putId: PUT_A });
    await service.delete(file.id, OWNER);
    expect(await code(service.endUpload({ id: file.id, ownerId: OWNER, putId: PUT_A, stored: true }))).toBe('CONFLICT');
    expect(files.purges.get(`${OWNER}/${file.id}/${PUT_A}`)?.getTime()).toBe(NOW.getTime() + 300_000);
  });
});

describe('complete (the site’s own storage)', () => {
  it("answers another account's file like a missing one", async () => {
    const { file } = await service.create(declaration(5));
    expect(await code(service.complete(file.id, OTHER))).toBe('NOT_FOUND');
  });

  it('is a conflict before the upload arrived', async () => {
    const { file } = await service.create(declaration(5));
    expect(await code(service.complete(file.id, OWNER))).toBe('CONFLICT');
    expect(files.rows.get(file.id)?.state).toBe('pending');
  });

  it('drops the file and its bytes when the stored object is not the declared size', async () => {
    const { id, key } = await uploadedLocal(5);
    storage.objects.set(key, { size: 4 });
    expect(await code(service.complete(id, OWNER))).toBe('VALIDATION_FAILED');
    expect(files.rows.has(id)).toBe(false);
    expect(storage.removed).toEqual([key]);
  });

  it('stores the file under the object its upload wrote, and answers the same when confirmed again', async () => {
    const { id, key } = await uploadedLocal(5);
    expect(await service.complete(id, OWNER)).toMatchObject({ id, state: 'stored' });
    expect(files.rows.get(id)?.objectKey).toBe(key);
    expect(await service.complete(id, OWNER)).toMatchObject({ id, state: 'stored' });
  });
});

describe('complete (S3)', () => {
  beforeEach(() => build('s3'));

  const s3 = () => storage as FakeS3;

  it('copies the checked upload to a key of its own, removes the upload key now and again once its URL is dead', async () => {
    const { file } = await service.create(declaration(5));
    const uploadKey = `${OWNER}/${file.id}/upload`;
    storage.objects.set(uploadKey, { size: 5, etag: '"one"' });
    expect(await service.complete(file.id, OWNER)).toMatchObject({ state: 'stored' });
    const objectKey = files.rows.get(file.id)?.objectKey ?? '';
    expect(objectKey).toMatch(new RegExp(`^${OWNER}/${file.id}/[0-9a-f-]{36}$`));
    expect(storage.objects.get(objectKey)).toEqual({ size: 5, etag: '"one"' });
    expect(storage.objects.has(uploadKey)).toBe(false);
    expect(files.purges.get(uploadKey)?.getTime()).toBe(NOW.getTime() + 120_000 + 10 * 60_000);
    // A PUT through the URL afterwards changes nothing the file is served from.
    storage.objects.set(uploadKey, { size: 5, etag: '"two"' });
    expect(await service.download(file.id, OWNER)).toEqual({ url: `/get/${objectKey}?name=notes.txt`, expires: 'later' });
    // Once the URL is dead, the sweep removes what it wrote.
    now = new Date(NOW.getTime() + 120_000 + 10 * 60_000);
    await service.sweep();
    expect(storage.objects.has(uploadKey)).toBe(false);
    expect(files.purges.size).toBe(0);
  });

  it('refuses to confirm an upload replaced between its check and its copy; nothing is stored', async () => {
    const { file } = await service.create(declaration(5));
    storage.objects.set(`${OWNER}/${file.id}/upload`, { size: 5, etag: '"checked"' });
    s3().replaceBeforeCopy = { size: 5, etag: '"swapped"' };
    expect(await code(service.complete(file.id, OWNER))).toBe('CONFLICT');
    expect(files.rows.get(file.id)?.state).toBe('pending');
    expect([...storage.objects.keys()]).toEqual([`${OWNER}/${file.id}/upload`]);
  });

  it('drops the file when the upload is not the declared size', async () => {
    const { file } = await service.create(declaration(5));
    storage.objects.set(`${OWNER}/${file.id}/upload`, { size: 6, etag: '"x"' });
    expect(await code(service.complete(file.id, OWNER))).toBe('VALIDATION_FAILED');
    expect(files.rows.has(file.id)).toBe(false);
    expect(storage.objects.size).toBe(0);
  });
});

describe('list, download and delete', () => {
  it('list shows stored files only, with what the account uses of its quota and how much of it is pending', async () => {
    const { id } = await uploadedLocal(5);
    await service.complete(id, OWNER);
    await service.create(declaration(7));
    const list = await service.list(OWNER);
    expect(list).toMatchObject({ total: 1, usedBytes: 12, pendingBytes: 7, quotaBytes: 2500, offset: 0, limit: 20 });
    expect(list.files.map((f) => f.id)).toEqual([id]);
  });

  it('download answers a signed URL for a stored file only, and nothing for another account', async () => {
    const { file } = await service.create(declaration(5));
    expect(await code(service.download(file.id, OWNER))).toBe('CONFLICT');
    const { id, key } = await uploadedLocal(5);
    await service.complete(id, OWNER);
    expect(await code(service.download(id, OTHER))).toBe('NOT_FOUND');
    expect(await service.download(id, OWNER)).toEqual({ url: `/get/${key}?name=notes.txt`, expires: 'later' });
  });

  it('delete removes the bytes and the record; another account cannot', async () => {
    const { id, key } = await uploadedLocal(5);
    await service.complete(id, OWNER);
    expect(await code(service.delete(id, OTHER))).toBe('NOT_FOUND');
    expect(await service.delete(id, OWNER)).toEqual({ success: true });
    expect(storage.removed).toEqual([key]);
    expect(files.purges.size).toBe(0);
    expect(await code(service.delete(id, OWNER))).toBe('NOT_FOUND');
  });

  it('delete keeps the key when the storage does not answer, and the sweep removes it later', async () => {
    const { id, key } = await uploadedLocal(5);
    const remove = storage.remove.bind(storage);
    storage.remove = () => Promise.reject(new Error('storage down'));
    expect(await service.delete(id, OWNER)).toEqual({ success: true });
    expect(files.purges.has(key)).toBe(true);
    storage.remove = remove;
    await service.sweep();
    expect(storage.removed).toEqual([key]);
    expect(files.purges.size).toBe(0);
  });
});

describe('sweep', () => {
  it('drops pending files past their time with what was uploaded for them, and keeps stored ones and pending ones still in time', async () => {
    const late = await uploadedLocal(5);
    const stored = await uploadedLocal(5);
    await service.complete(stored.id, OWNER);
    now = new Date(NOW.getTime() + 301_000);
    const fresh = await service.create(declaration(5));
    expect(await service.sweep()).toBe(1);
    expect([...files.rows.keys()].sort()).toEqual([stored.id, fresh.file.id].sort());
    expect(storage.removed).toEqual([late.key]);
  });
});
