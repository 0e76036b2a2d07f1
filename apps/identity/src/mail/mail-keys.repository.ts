import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sql } from '@tinkerdesk/persistence';
import { DataSource, Raw, type Repository } from 'typeorm';
import { MailKeyEntity } from './mail-key.entity.js';

/** Keys older than the retention are deleted at most once a minute per replica. */
const SWEEP_EVERY_MS = 60_000;

/** The only place that touches the database for the idempotency keys of mail (mail_key). */
@Injectable()
export class MailKeysRepository {
  private lastSweep = 0;
  private readonly keys: Repository<MailKeyEntity>;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.keys = db.getRepository(MailKeyEntity);
  }

  /**
   * Records a key (a key older than `retentionDays` counts as new) and answers whether its mail was
   * queued already. False for a new key, and for a key whose first request has not yet marked its
   * mail queued (it is queuing now, or it died doing so): the caller queues it under the key's job id,
   * which BullMQ takes once.
   */
  async claim(key: string, retentionDays: number): Promise<{ queued: boolean }> {
    await this.sweep(retentionDays);
    return sql.one<{ queued: boolean }>(
      this.db,
      `INSERT INTO "identity"."mail_key" AS k ("key") VALUES ($1)
       ON CONFLICT ("key") DO UPDATE SET
         "created" = CASE WHEN k."created" < now() - make_interval(days => $2::int) THEN now() ELSE k."created" END,
         "queued_at" = CASE WHEN k."created" < now() - make_interval(days => $2::int) THEN NULL ELSE k."queued_at" END
       RETURNING "queued_at" IS NOT NULL AS "queued"`,
      [key, retentionDays],
    );
  }

  /** The key's mail is on the queue: a later request with the key only answers. */
  async markQueued(key: string): Promise<void> {
    await this.keys.update({ key, queuedAt: Raw((column) => `${column} IS NULL`) }, { queuedAt: () => 'now()' });
  }

  find(key: string): Promise<MailKeyEntity | null> {
    return this.keys.findOneBy({ key });
  }

  private async sweep(retentionDays: number): Promise<void> {
    if (Date.now() - this.lastSweep <= SWEEP_EVERY_MS) return;
    this.lastSweep = Date.now();
    await this.keys.delete({
      created: Raw((column) => `${column} < now() - make_interval(days => CAST(:days AS int))`, { days: retentionDays }),
    });
  }
}
