import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SavedFileView } from '@tinkerdesk/contracts';
import { DataSource, LessThan, type Repository } from 'typeorm';
import { SavedFileEntity } from './saved-file.entity.js';

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
}

/** The only place that touches TypeORM for saved files. */
@Injectable()
export class SavedFilesRepository {
  private readonly repo: Repository<SavedFileEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.repo = dataSource.getRepository(SavedFileEntity);
  }

  /**
   * Records a pending file unless the owner's files (stored, and pending ones not yet dropped) and it
   * would take more than `quotaBytes`; one owner's calls wait for each other (an advisory lock), so a
   * burst cannot pass the quota together. Null when over the quota.
   */
  insertWithinQuota(file: NewSavedFile, quotaBytes: number): Promise<SavedFileEntity | null> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('saved_file:' || $1))`, [file.ownerId]);
      const used = await this.usedBytesWith(manager.getRepository(SavedFileEntity), file.ownerId);
      if (used + file.size > quotaBytes) return null;
      const repo = manager.getRepository(SavedFileEntity);
      return repo.save(repo.create({ ...file, state: 'pending' }));
    });
  }

  private async usedBytesWith(repo: Repository<SavedFileEntity>, ownerId: string): Promise<number> {
    const row = await repo
      .createQueryBuilder('f')
      .select('COALESCE(SUM(f.size), 0)', 'used')
      .where('f.owner_id = :ownerId', { ownerId })
      .getRawOne<{ used: string }>();
    return Number(row?.used ?? 0);
  }

  /** Bytes the owner's files take (stored and pending). */
  usedBytes(ownerId: string): Promise<number> {
    return this.usedBytesWith(this.repo, ownerId);
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

  /** Marks a pending file stored; false when it was not pending (confirmed already, or dropped). */
  async markStored(id: string): Promise<boolean> {
    const result = await this.repo.update({ id, state: 'pending' }, { state: 'stored', pendingUntil: null });
    return (result.affected ?? 0) > 0;
  }

  async remove(id: string): Promise<void> {
    await this.repo.delete({ id });
  }

  /** Pending files whose upload URL has expired (oldest first, a batch at a time). */
  findAbandoned(now: Date, limit: number): Promise<SavedFileEntity[]> {
    return this.repo.find({ where: { state: 'pending', pendingUntil: LessThan(now) }, order: { pendingUntil: 'ASC' }, take: limit });
  }
}
