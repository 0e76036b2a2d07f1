import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  type CreateSavedFileMessage,
  type DownloadTicket,
  type FileUploadBeginMessage,
  type FileUploadEndMessage,
  type SavedFileList,
  type SavedFileView,
  type UploadTicket,
} from '@tinkerdesk/contracts';
import {
  savedFileKey,
  savedFileObjectKey,
  savedFileUploadKey,
  type Logger,
  type S3Storage,
  type SavedFileStorage,
} from '@tinkerdesk/nest-common';
import { createUnderKey } from '@tinkerdesk/persistence';
import { CLOCK, LOGGER } from '../jobs/conversion-jobs.service.js';
import type { SavedFileEntity } from './saved-file.entity.js';
import { SavedFilesRepository, toFileView, type Purge } from './saved-files.repository.js';

export const SAVED_FILE_STORAGE = Symbol('SAVED_FILE_STORAGE');
export const SAVED_FILES_SETTINGS = Symbol('SAVED_FILES_SETTINGS');

export interface SavedFilesSettings {
  /** Largest file one may save, in bytes. */
  maxBytes: number;
  /** Bytes one account's files may take. */
  quotaBytes: number;
  /** How long a signed download URL works. */
  urlTtlSeconds: number;
  /** How long an upload URL may start its upload. */
  uploadTtlSeconds: number;
  /** A declared file not confirmed within this is dropped with what was uploaded for it. */
  pendingSeconds: number;
}

const DEFAULT_LIMIT = 20;
/**
 * What a declaration keeps of the gateway's deadline for committing and answering: it does not wait for
 * the owner's lock past the deadline less this, nor commit after it (the gateway would have answered 503).
 */
const ANSWER_MARGIN_MS = 250;
/** S3: an upload that started before its URL expired may still be arriving this long after. */
const UPLOAD_SLACK_MS = 10 * 60_000;
/** Withdrawn declarations are remembered this long (a late one arrives within seconds). */
const ABANDONED_MEMORY_MS = 24 * 3600_000;

/**
 * Saved files ("my files", cloud saves): a file is declared (name, type, exact size) within the
 * account's quota, the browser PUTs it to a short-lived upload URL that works once and only for that
 * pending file, and the file is confirmed once the storage holds exactly the declared bytes, under a key
 * no upload URL writes to. Another account's file answers like a missing one. A file's bytes are removed
 * with it (or, when the storage does not answer, by the sweep, which keeps the keys until they are gone).
 */
@Injectable()
export class SavedFilesService {
  constructor(
    @Inject(SavedFilesRepository) private readonly files: SavedFilesRepository,
    @Inject(SAVED_FILE_STORAGE) private readonly storage: SavedFileStorage,
    @Inject(SAVED_FILES_SETTINGS) private readonly settings: SavedFilesSettings,
    @Inject(CLOCK) private readonly now: () => Date,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async create(input: CreateSavedFileMessage): Promise<{ file: SavedFileView; upload: UploadTicket }> {
    if (input.size > this.settings.maxBytes) {
      throw new AppError('PAYLOAD_TOO_LARGE', `a saved file may have at most ${this.settings.maxBytes} bytes (this one: ${input.size})`);
    }
    const now = this.now();
    const busy = () => new AppError('UNAVAILABLE', 'too many files are being declared on this account at once; try again in a moment');
    const cutoff = input.deadline === undefined ? undefined : input.deadline - ANSWER_MARGIN_MS;
    if (cutoff !== undefined && cutoff <= now.getTime()) throw busy();
    const mediaType = input.mediaType ?? 'application/octet-stream';
    const uploadTtl = Math.min(this.settings.uploadTtlSeconds, this.settings.pendingSeconds);
    const nonce = randomBytes(16).toString('base64url');
    const result = await this.files.insertWithinQuota(
      {
        id: input.id,
        ownerId: input.ownerId,
        filename: input.filename,
        mediaType,
        size: input.size,
        pendingUntil: new Date(now.getTime() + this.settings.pendingSeconds * 1000),
        uploadNonce: nonce,
        uploadExpires: new Date(now.getTime() + uploadTtl * 1000),
      },
      this.settings.quotaBytes,
      cutoff === undefined ? {} : { lockWaitMs: cutoff - now.getTime(), inTime: () => this.now().getTime() < cutoff },
      createUnderKey('file.create', input.ownerId, {
        filename: input.filename,
        mediaType,
        size: input.size,
        ...(input.idempotencyKey === undefined ? {} : { idempotencyKey: input.idempotencyKey }),
      }),
    );
    switch (result.outcome) {
      case 'quota':
        throw new AppError(
          'QUOTA_EXCEEDED',
          `saving ${input.size} bytes would pass your storage quota of ${this.settings.quotaBytes} bytes (${result.usedBytes} used); delete some files first`,
        );
      case 'abandoned':
      case 'busy':
      case 'late':
        throw busy();
      case 'gone':
        throw new AppError(
          'CONFLICT',
          'the file declared under this Idempotency-Key is gone (not uploaded in time, or deleted): declare it again with a new key',
        );
      case 'inserted':
        break;
    }
    const file = result.file;
    // A retry under the same key answers the first declaration: its URL again, signed until the same time.
    const ticketTtl =
      result.replayed && file.uploadExpires ? Math.max(1, Math.floor((file.uploadExpires.getTime() - now.getTime()) / 1000)) : uploadTtl;
    const upload = await this.storage.uploadTicket(
      { ownerId: file.ownerId, fileId: file.id, nonce: result.replayed ? (file.uploadNonce ?? nonce) : nonce },
      { mediaType: file.mediaType, size: file.size },
      ticketTtl,
      now,
    );
    return { file: toFileView(file), upload };
  }

  /** The gateway stopped waiting for a declaration: it is not kept (nor recorded, if it comes later). */
  async abandon(id: string, ownerId: string): Promise<{ success: true }> {
    await this.files.abandon(id, ownerId);
    return { success: true };
  }

  /** A PUT to an upload URL of the site's own storage begins: the URL must still be unused and its file pending. */
  async beginUpload(input: FileUploadBeginMessage): Promise<{ success: true }> {
    if (await this.files.beginUpload(input.id, input.ownerId, input.nonce, input.putId)) return { success: true };
    const file = await this.files.findOwned(input.id, input.ownerId);
    if (file?.state === 'pending' && file.uploadNonce === input.nonce && file.uploadPut) {
      throw new AppError('CONFLICT', 'another upload to this URL is under way');
    }
    throw new AppError('CONFLICT', 'this upload URL has been used already, or its file was confirmed or deleted; declare the file again');
  }

  /** The PUT ended: its object becomes the file's bytes (stored), or the URL may be tried again (not stored). */
  async endUpload(input: FileUploadEndMessage): Promise<{ success: true }> {
    if (!input.stored) {
      await this.files.releaseUpload(input.id, input.ownerId, input.putId);
      return { success: true };
    }
    const key = savedFileObjectKey(input.ownerId, input.id, input.putId);
    if (!(await this.files.endUpload(input.id, input.ownerId, input.putId, key))) {
      throw new AppError('CONFLICT', 'the file was deleted while it was uploaded');
    }
    return { success: true };
  }

  /** Confirms an upload: the storage must hold exactly the declared bytes. Confirming twice answers the same. */
  async complete(id: string, ownerId: string): Promise<SavedFileView> {
    const file = await this.files.findOwned(id, ownerId);
    if (!file) throw new AppError('NOT_FOUND', `no saved file ${id}`);
    if (file.state === 'stored') return toFileView(file);
    const stored = this.storage.kind === 's3' ? await this.acceptS3Upload(this.storage, file) : await this.acceptLocalUpload(file);
    if (!stored) {
      const again = await this.files.findOwned(id, ownerId);
      if (again?.state === 'stored') return toFileView(again);
      throw new AppError('NOT_FOUND', `no saved file ${id}`);
    }
    const saved = await this.files.findOwned(id, ownerId);
    if (!saved) throw new AppError('NOT_FOUND', `no saved file ${id}`);
    return toFileView(saved);
  }

  private notUploaded(file: SavedFileEntity): AppError {
    return new AppError(
      'CONFLICT',
      file.uploadPut ? 'the upload is still under way' : 'the file has not been uploaded yet: PUT it to its upload URL first',
    );
  }

  private async wrongSize(file: SavedFileEntity, size: number): Promise<never> {
    await this.drop(file.id, { ownerId: file.ownerId });
    throw new AppError('VALIDATION_FAILED', `the upload has ${size} bytes, not the ${file.size} declared; save the file again`);
  }

  /** The site's own storage: the one PUT of the URL left its bytes under the file's object key (written once). */
  private async acceptLocalUpload(file: SavedFileEntity): Promise<boolean> {
    if (!file.objectKey) throw this.notUploaded(file);
    const object = await this.storage.stat(file.objectKey);
    if (!object || object.size !== file.size) return this.wrongSize(file, object?.size ?? 0);
    return this.files.markStored(file.id, file.objectKey);
  }

  /**
   * S3: the presigned URL may still write the upload key, so the checked object (its size, and its
   * entity tag: S3's checksum of it) is copied to a key of its own only if it is still that object, and
   * the upload key is removed now and again once the URL is dead. A later PUT never changes the file.
   */
  private async acceptS3Upload(storage: S3Storage, file: SavedFileEntity): Promise<boolean> {
    const uploadKey = savedFileUploadKey(file.ownerId, file.id);
    const upload = await storage.stat(uploadKey);
    if (!upload) throw this.notUploaded(file);
    if (upload.size !== file.size) return this.wrongSize(file, upload.size);
    const objectKey = savedFileObjectKey(file.ownerId, file.id, randomUUID());
    const changed = () => new AppError('CONFLICT', 'the upload changed while it was being confirmed; confirm it again');
    if (!upload.etag || !(await storage.copyIfUnchanged(uploadKey, objectKey, upload.etag))) throw changed();
    const copy = await storage.stat(objectKey);
    if (!copy || copy.size !== file.size) {
      await storage.remove(objectKey).catch(() => undefined);
      throw changed();
    }
    const later = this.uploadLeftovers(file);
    if (!(await this.files.markStored(file.id, objectKey, later))) {
      // Confirmed by another call, or deleted meanwhile: this copy is nobody's.
      await storage.remove(objectKey).catch(() => undefined);
      return false;
    }
    await this.removeNow([uploadKey], false);
    return true;
  }

  /** S3: the upload key again once no PUT through its URL can arrive any more (nothing when that time has passed). */
  private uploadLeftovers(file: SavedFileEntity): Purge[] {
    if (this.storage.kind !== 's3' || !file.uploadExpires) return [];
    const urlDead = file.uploadExpires.getTime() + UPLOAD_SLACK_MS;
    return urlDead > this.now().getTime() ? [{ key: savedFileUploadKey(file.ownerId, file.id), notBefore: new Date(urlDead) }] : [];
  }

  /** Every key a file may have bytes under: its object, an upload under way, and (S3) its upload key now and later. */
  private purgesOf(file: SavedFileEntity): Purge[] {
    const now = this.now();
    const purges: Purge[] = [];
    if (file.objectKey) purges.push({ key: file.objectKey, notBefore: now });
    // The gateway removes it when the PUT ends; if the gateway went away meanwhile, this does.
    if (file.uploadPut) {
      const key = savedFileObjectKey(file.ownerId, file.id, file.uploadPut);
      purges.push({ key, notBefore: new Date(now.getTime() + this.settings.pendingSeconds * 1000) });
    }
    return [...purges, ...this.uploadLeftovers(file)];
  }

  /** Deletes a file and removes what it has in the storage (now, and later for keys an upload URL may still write). */
  private async drop(id: string, where: { ownerId?: string; expiredAt?: Date }): Promise<SavedFileEntity | null> {
    let purges: Purge[] = [];
    const file = await this.files.discard(id, (f) => (purges = this.purgesOf(f)), where);
    if (!file) return null;
    const now = this.now();
    await this.removeNow(
      purges.filter((p) => p.notBefore <= now).map((p) => p.key),
      true,
    );
    // S3: the upload key goes now as well (its purge stays for a PUT that may still come).
    if (this.storage.kind === 's3') await this.removeNow([savedFileUploadKey(file.ownerId, file.id)], false);
    return file;
  }

  /** Removes keys from the storage; with `recorded`, forgets their purges once gone. A failure is left to the sweep. */
  private async removeNow(keys: string[], recorded: boolean): Promise<void> {
    const gone: string[] = [];
    for (const key of keys) {
      try {
        await this.storage.remove(key);
        gone.push(key);
      } catch (err) {
        this.logger.warn({ err, key }, 'could not remove a saved file object now; the sweep will');
      }
    }
    if (recorded) await this.files.purged(gone);
  }

  async list(ownerId: string, offset = 0, limit = DEFAULT_LIMIT): Promise<SavedFileList> {
    const [[files, total], usage] = await Promise.all([this.files.listStored(ownerId, offset, limit), this.files.usage(ownerId)]);
    return {
      files: files.map(toFileView),
      total,
      offset,
      limit,
      usedBytes: usage.used,
      pendingBytes: usage.pending,
      quotaBytes: this.settings.quotaBytes,
    };
  }

  async download(id: string, ownerId: string): Promise<DownloadTicket> {
    const file = await this.files.findOwned(id, ownerId);
    if (!file) throw new AppError('NOT_FOUND', `no saved file ${id}`);
    if (file.state !== 'stored') throw new AppError('CONFLICT', 'the file has not been uploaded yet');
    return this.storage.downloadTicket(
      file.objectKey ?? savedFileKey(ownerId, id),
      { filename: file.filename, mediaType: file.mediaType },
      this.settings.urlTtlSeconds,
      this.now(),
    );
  }

  async delete(id: string, ownerId: string): Promise<{ success: true }> {
    if (!(await this.drop(id, { ownerId }))) throw new AppError('NOT_FOUND', `no saved file ${id}`);
    return { success: true };
  }

  /**
   * The sweep: drops pending files past their time with whatever was uploaded for them, removes the
   * keys whose time has come (leftover uploads, removals that failed), forgets old withdrawals.
   * Answers how many files it dropped.
   */
  async sweep(batch = 100): Promise<number> {
    const now = this.now();
    let dropped = 0;
    for (const file of await this.files.findAbandoned(now, batch)) {
      try {
        if (await this.drop(file.id, { expiredAt: now })) dropped++;
      } catch (err) {
        this.logger.warn({ err, fileId: file.id }, 'could not drop an unconfirmed saved file');
      }
    }
    await this.removeNow(await this.files.duePurges(now, batch), true);
    await this.files.forgetAbandoned(new Date(now.getTime() - ABANDONED_MEMORY_MS));
    return dropped;
  }
}
