import { conversionInputKey, AppError } from '@tinkerdesk/contracts';
import { epochMs, type ConversionFiles } from '@tinkerdesk/nest-common';
import type { Request } from 'express';
import { randomUUID } from 'node:crypto';

/** What an upload stored in the conversion files adds to multer's file: the job id it was stored for, and its size. */
export interface StoredUpload {
  jobId: string;
  size: number;
  /**
   * Where the upload's time went (ms): from the file part's start to its last byte read, then until
   * stored; `at`, when the file part began (epoch ms, for lining the phases up with other processes).
   */
  uploadMs: { receive: number; store: number; at: number };
}

type StoredFile = Express.Multer.File & Partial<StoredUpload>;

/**
 * A multer storage engine that streams the upload straight into the conversion files under a fresh
 * job id: a small file (CONVERSION_INLINE_MAX_BYTES) into Redis in one write, a larger one into the
 * JetStream object store in chunks as it arrives, so no large upload sits in the gateway's memory
 * (eight parallel 50 MB uploads used to take the gateway from 143 MB to 748 MB). multer's size limit
 * cuts the stream; the part already stored is then removed.
 */
export class ObjectStoreStorage {
  constructor(private readonly files: () => ConversionFiles) {}

  _handleFile(_req: Request, file: StoredFile, callback: (error?: unknown, info?: Partial<StoredFile>) => void): void {
    const jobId = randomUUID();
    const began = performance.now();
    const at = epochMs();
    let received = began;
    file.stream.once('end', () => (received = performance.now()));
    const round = (ms: number) => Math.round(ms * 10) / 10;
    this.files()
      .putStream(conversionInputKey(jobId), file.stream)
      .then(
        (size) =>
          callback(null, { jobId, size, uploadMs: { receive: round(received - began), store: round(performance.now() - received), at } }),
        (error: unknown) => {
          void this.files()
            .delete(conversionInputKey(jobId))
            .catch(() => undefined);
          const full = error instanceof Error && /maximum bytes|insufficient|storage/i.test(error.message);
          callback(full ? new AppError('UNAVAILABLE', 'the file store is full right now; try again later') : error);
        },
      );
  }

  _removeFile(_req: Request, file: StoredFile, callback: (error: Error | null) => void): void {
    if (!file.jobId) return callback(null);
    this.files()
      .delete(conversionInputKey(file.jobId))
      .then(
        () => callback(null),
        () => callback(null),
      );
  }
}
