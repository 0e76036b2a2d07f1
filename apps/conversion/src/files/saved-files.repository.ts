import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SavedFileView } from '@tinkerdesk/contracts';
import { databaseError, sql, type IdempotentCreate } from '@tinkerdesk/persistence';
import { DataSource, In, LessThan, LessThanOrEqual, type EntityManager, type Repository } from 'typeorm';
import { CONVERSION_KEYS } from '../database/idempotency-keys.js';
import { SavedFileAbandonedEntity, SavedFileEntity, SavedFilePurgeEntity } from './saved-file.entity.js';

export function toFileView(file: SavedFileEntity): SavedFileView {
  return {
    id: file.id,
    filename: file.filename,
    mediaType: file.mediaType,
    size: file.size,
    state: file.state,
    created: file.created.toISOString(),
    modified: file.modified.toISOString(),
  };
}

export interface NewSavedFile {
  id: string;
  ownerId: string;
  filename: string;
  mediaType: string;
  size: number;
  pendingUntil: Date;
  uploadNonce: string;
  uploadExpires: Date;
}

/** An object key to remove, not before `notBefore`. */
export interface Purge {
  key: string;
  notBefore: Date;
}

export interface InsertOptions {
  /** Longest wait for the owner's lock (and any row or table lock), in ms; past it: 'busy'. */
  lockWaitMs?: number;
  /** Asked right before the commit: false rolls the insert back ('late'). */
  inTime?: () => boolean;
}

export type InsertOutcome =
  | { outcome: 'inserted'; file: SavedFileEntity; replayed: boolean }
  | { outcome: 'gone' }
  | { outcome: 'quota'; usedBytes: number }
  | { outcome: 'abandoned' }
  | { outcome: 'busy' }
  | { outcome: 'late' };

/** Thrown inside a transaction to roll it back with an outcome. */
class Rollback extends Error {
  constructor(readonly outcome: InsertOutcome) {
    super(outcome.outcome);
  }
}

/** PostgreSQL's lock_not_available (lock_timeout passed). */
function isLockTimeout(error: unknown): boolean {
  return databaseError(error)?.code === '55P03';
}

/** One owner's declarations, withdrawals and uploads wait for each other (a transaction-scoped advisory lock). */
async function lockOwner(manager: EntityManager, ownerId: string): Promise<void> {
  await sql.execute(manager, `SELECT pg_advisory_xact_lock(hashtext('saved_file:' || $1))`, [ownerId]);
}

/** The only place that touches TypeORM for saved files. */
@Injectable()
export class SavedFilesRepository {
  private readonly repo: Repository<SavedFileEntity>;
  private readonly purges: Repository<SavedFilePurgeEntity>;
  private readonly abandoned: Repository<SavedFileAbandonedEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.repo = dataSource.getRepository(SavedFileEntity);
    this.purges = dataSource.getRepository(SavedFilePurgeEntity);
    this.abandoned = dataSource.getRepository(SavedFileAbandonedEntity);
  }

  /**
   * Records a pending file unless the owner's files (stored and pending) and it would take more than
   * `quotaBytes`, or the gateway has withdrawn this declaration already. Under the owner's lock, so a burst
   * cannot pass the quota together and a withdrawal is ordered with the insert; the wait for it is
   * bounded, and the insert is rolled back when it could only be committed after the caller stopped waiting.
   */
  async insertWithinQuota(
    file: NewSavedFile,
    quotaBytes: number,
    options: InsertOptions = {},
    idempotent?: IdempotentCreate,
  ): Promise<InsertOutcome> {
    try {
      return await this.dataSource.transaction(async (manager): Promise<InsertOutcome> => {
        if (options.lockWaitMs !== undefined) {
          await sql.execute(manager, `SELECT set_config('lock_timeout', $1, true)`, [`${Math.max(1, Math.floor(options.lockWaitMs))}ms`]);
        }
        await lockOwner(manager, file.ownerId);
        const repo = manager.getRepository(SavedFileEntity);
        // Under an Idempotency-Key the declaration is recorded once, the key with it (a retry answers the first file).
        const declared = await CONVERSION_KEYS.once(manager, idempotent, async () => {
          if (await manager.getRepository(SavedFileAbandonedEntity).existsBy({ id: file.id })) throw new Rollback({ outcome: 'abandoned' });
          const { used } = await this.usageWith(repo, file.ownerId);
          if (used + file.size > quotaBytes) throw new Rollback({ outcome: 'quota', usedBytes: used });
          await repo.insert({ ...file, state: 'pending' });
          return file.id;
        });
        if (options.inTime && !options.inTime()) throw new Rollback({ outcome: 'late' });
        const found = await repo.findOneBy({ id: declared.answer, ownerId: file.ownerId });
        return found ? { outcome: 'inserted', file: found, replayed: declared.replayed } : { outcome: 'gone' };
      });
    } catch (error) {
      if (error instanceof Rollback) return error.outcome;
      if (isLockTimeout(error)) return { outcome: 'busy' };
      throw error;
    }
  }

  /**
   * Withdraws a declaration the gateway stopped waiting for: removes it if it was recorded (it cannot
   * have been uploaded: nobody learnt its URL), and remembers it so it is not recorded later. Under the
   * owner's lock, so it is ordered with the insert.
   */
  abandon(id: string, ownerId: string): Promise<void> {
    return this.dataSource.transaction(async (manager) => {
      await lockOwner(manager, ownerId);
      await manager.getRepository(SavedFileAbandonedEntity).createQueryBuilder().insert().values({ id, ownerId }).orIgnore().execute();
      await manager.getRepository(SavedFileEntity).delete({ id, ownerId, state: 'pending' });
    });
  }

  private async usageWith(repo: Repository<SavedFileEntity>, ownerId: string): Promise<{ used: number; pending: number }> {
    const row = await repo
      .createQueryBuilder('f')
      .select('COALESCE(SUM(f.size), 0)', 'used')
      .addSelect(`COALESCE(SUM(f.size) FILTER (WHERE f.state = 'pending'), 0)`, 'pending')
      .where('f.owner_id = :ownerId', { ownerId })
      .getRawOne<{ used: string; pending: string }>();
    return { used: Number(row?.used ?? 0), pending: Number(row?.pending ?? 0) };
  }

  /** Bytes the owner's files take (stored and pending), and how many of them are pending. */
  usage(ownerId: string): Promise<{ used: number; pending: number }> {
    return this.usageWith(this.repo, ownerId);
  }

  /** The file if `ownerId` owns it; null otherwise, exactly as for a file that does not exist. */
  findOwned(id: string, ownerId: string): Promise<SavedFileEntity | null> {
    return this.repo.findOneBy({ id, ownerId });
  }

  /** The owner's stored files, newest first, and how many there are. */
  listStored(ownerId: string, offset: number, limit: number): Promise<[SavedFileEntity[], number]> {
    return this.repo.findAndCount({
      where: { ownerId, state: 'stored' },
      order: { created: 'DESC', id: 'DESC' },
      skip: offset,
      take: limit,
    });
  }

  /**
   * Starts the one upload of a pending file through its URL (token `nonce`): only when nothing was
   * uploaded for it yet and no other upload is under way. False otherwise.
   */
  async beginUpload(id: string, ownerId: string, nonce: string, putId: string): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set({ uploadPut: putId })
      .where(`id = :id AND owner_id = :ownerId AND state = 'pending' AND upload_nonce = :nonce`, { id, ownerId, nonce })
      .andWhere('object_key IS NULL AND upload_put IS NULL')
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** The upload `putId` stored its bytes under `objectKey`: they are the file's, and its URL is used up. False when the file is gone. */
  async endUpload(id: string, ownerId: string, putId: string, objectKey: string): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set({ objectKey, uploadPut: null, uploadNonce: null })
      .where(`id = :id AND owner_id = :ownerId AND state = 'pending' AND upload_put = :putId`, { id, ownerId, putId })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** The upload `putId` failed: the URL may be used again (until it expires). */
  async releaseUpload(id: string, ownerId: string, putId: string): Promise<void> {
    await this.repo.update({ id, ownerId, uploadPut: putId }, { uploadPut: null });
  }

  /**
   * Marks a pending file stored with its bytes under `objectKey`, and records `later` (keys to remove in
   * time) in the same transaction; false when it was not pending (confirmed already, or dropped).
   */
  markStored(id: string, objectKey: string, later: Purge[] = []): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const result = await manager
        .getRepository(SavedFileEntity)
        .update({ id, state: 'pending' }, { state: 'stored', pendingUntil: null, uploadNonce: null, objectKey });
      if (!result.affected) return false;
      await this.addPurges(manager, later);
      return true;
    });
  }

  private async addPurges(manager: EntityManager, purges: Purge[]): Promise<void> {
    if (!purges.length) return;
    await manager
      .getRepository(SavedFilePurgeEntity)
      .createQueryBuilder()
      .insert()
      .values(purges)
      .orUpdate(['not_before'], ['key'])
      .execute();
  }

  /**
   * Deletes a file (only if `ownerId` owns it when given, only if it is a pending file past its time when
   * `expiredAt` is given) and records, in the same transaction, the keys of whatever it has in the storage
   * (`purgesOf` the deleted row, as it was when deleted). Answers the deleted row, or null.
   */
  discard(
    id: string,
    purgesOf: (file: SavedFileEntity) => Purge[],
    where: { ownerId?: string; expiredAt?: Date } = {},
  ): Promise<SavedFileEntity | null> {
    return this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(SavedFileEntity);
      // FOR UPDATE: an upload that ends or a confirmation meanwhile waits, then finds no file.
      const file = await repo.findOne({
        where: {
          id,
          ...(where.ownerId ? { ownerId: where.ownerId } : {}),
          ...(where.expiredAt ? { state: 'pending' as const, pendingUntil: LessThan(where.expiredAt) } : {}),
        },
        lock: { mode: 'pessimistic_write' },
      });
      if (!file) return null;
      await repo.delete({ id });
      await this.addPurges(manager, purgesOf(file));
      return file;
    });
  }

  /** Pending files past their time (oldest first, a batch at a time). */
  findAbandoned(now: Date, limit: number): Promise<SavedFileEntity[]> {
    return this.repo.find({ where: { state: 'pending', pendingUntil: LessThan(now) }, order: { pendingUntil: 'ASC' }, take: limit });
  }

  /** Keys due for removal. */
  async duePurges(now: Date, limit: number): Promise<string[]> {
    const rows = await this.purges.find({ where: { notBefore: LessThanOrEqual(now) }, order: { notBefore: 'ASC' }, take: limit });
    return rows.map((r) => r.key);
  }

  /** The keys are gone from the storage. */
  async purged(keys: string[]): Promise<void> {
    if (keys.length) await this.purges.delete({ key: In(keys) });
  }

  /** Forgets withdrawn declarations older than `before` (a late declaration arrives within seconds). */
  async forgetAbandoned(before: Date): Promise<void> {
    await this.abandoned.delete({ created: LessThan(before) });
  }
}
