import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  type CreateSavedFileMessage,
  type DownloadTicket,
  type SavedFileList,
  type SavedFileView,
  type UploadTicket,
} from '@tinkerdesk/contracts';
import { savedFileKey, type Logger, type SavedFileStorage } from '@tinkerdesk/nest-common';
import { CLOCK, LOGGER } from '../jobs/conversion-jobs.service.js';
import { SavedFilesRepository, toFileView } from './saved-files.repository.js';

export const SAVED_FILE_STORAGE = Symbol('SAVED_FILE_STORAGE');
export const SAVED_FILES_SETTINGS = Symbol('SAVED_FILES_SETTINGS');

export interface SavedFilesSettings {
  /** Largest file one may save, in bytes. */
  maxBytes: number;
  /** Bytes one account's files may take. */
  quotaBytes: number;
  /** How long a signed URL works. */
  urlTtlSeconds: number;
}

const DEFAULT_LIMIT = 20;
/** A pending file is kept this long past its upload URL's expiry (an upload that started in time may still be arriving). */
const PENDING_GRACE_MS = 10 * 60_000;

/**
 * Saved files ("my files", cloud saves): a file is declared (name, type, exact size) within the
 * account's quota, the browser PUTs it to a short-lived signed URL, and the file is confirmed once the
 * storage holds exactly the declared bytes. Another account's file answers like a missing one.
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
    const mediaType = input.mediaType ?? 'application/octet-stream';
    const file = await this.files.insertWithinQuota(
      {
        id: randomUUID(),
        ownerId: input.ownerId,
        filename: input.filename,
        mediaType,
        size: input.size,
        pendingUntil: new Date(now.getTime() + this.settings.urlTtlSeconds * 1000 + PENDING_GRACE_MS),
      },
      this.settings.quotaBytes,
    );
    if (!file) {
      const used = await this.files.usedBytes(input.ownerId);
      throw new AppError(
        'QUOTA_EXCEEDED',
        `saving ${input.size} bytes would pass your storage quota of ${this.settings.quotaBytes} bytes (${used} used); delete some files first`,
      );
    }
    const upload = await this.storage.uploadTicket(
      savedFileKey(file.ownerId, file.id),
      { mediaType, size: file.size },
      this.settings.urlTtlSeconds,
      now,
    );
    return { file: toFileView(file), upload };
  }

  /** Confirms an upload: the storage must hold exactly the declared bytes. Confirming twice answers the same. */
  async complete(id: string, ownerId: string): Promise<SavedFileView> {
    const file = await this.files.findOwned(id, ownerId);
    if (!file) throw new AppError('NOT_FOUND', `no saved file ${id}`);
    if (file.state === 'stored') return toFileView(file);
    const key = savedFileKey(ownerId, id);
    const stored = await this.storage.stat(key);
    if (!stored) throw new AppError('CONFLICT', 'the file has not been uploaded yet: PUT it to its upload URL first');
    if (stored.size !== file.size) {
      await this.storage.remove(key).catch(() => undefined);
      await this.files.remove(id);
      throw new AppError('VALIDATION_FAILED', `the upload has ${stored.size} bytes, not the ${file.size} declared; save the file again`);
    }
    await this.files.markStored(id);
    const saved = await this.files.findOwned(id, ownerId);
    if (!saved) throw new AppError('NOT_FOUND', `no saved file ${id}`);
    return toFileView(saved);
  }

  async list(ownerId: string, offset = 0, limit = DEFAULT_LIMIT): Promise<SavedFileList> {
    const [[files, total], usedBytes] = await Promise.all([this.files.listStored(ownerId, offset, limit), this.files.usedBytes(ownerId)]);
    return { files: files.map(toFileView), total, offset, limit, usedBytes, quotaBytes: this.settings.quotaBytes };
  }

  async download(id: string, ownerId: string): Promise<DownloadTicket> {
    const file = await this.files.findOwned(id, ownerId);
    if (!file) throw new AppError('NOT_FOUND', `no saved file ${id}`);
    if (file.state !== 'stored') throw new AppError('CONFLICT', 'the file has not been uploaded yet');
    return this.storage.downloadTicket(
      savedFileKey(ownerId, id),
      { filename: file.filename, mediaType: file.mediaType },
      this.settings.urlTtlSeconds,
      this.now(),
    );
  }

  async delete(id: string, ownerId: string): Promise<{ success: true }> {
    const file = await this.files.findOwned(id, ownerId);
    if (!file) throw new AppError('NOT_FOUND', `no saved file ${id}`);
    await this.storage.remove(savedFileKey(ownerId, id));
    await this.files.remove(id);
    return { success: true };
  }

  /** Drops pending files whose upload never came (their URLs expired); returns how many. */
  async dropAbandoned(batch = 100): Promise<number> {
    const abandoned = await this.files.findAbandoned(this.now(), batch);
    for (const file of abandoned) {
      try {
        await this.storage.remove(savedFileKey(file.ownerId, file.id));
        await this.files.remove(file.id);
      } catch (err) {
        this.logger.warn({ err, fileId: file.id }, 'could not drop an abandoned saved file');
      }
    }
    return abandoned.length;
  }
}
