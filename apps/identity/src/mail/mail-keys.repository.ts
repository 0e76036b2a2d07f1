import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sql, type RetentionRule } from '@tinkerdesk/persistence';
import { DataSource, Raw, type Repository } from 'typeorm';
import { MailKeyEntity } from './mail-key.entity.js';

/** Keys older than MAIL_KEY_RETENTION_DAYS go in identity's retention sweep (a claim counts such a key as new meanwhile). */
export const mailKeyRetentionRule = (keepDays: number): RetentionRule => ({
  name: 'identity.mail_key',
  table: `"identity"."mail_key"`,
  condition: (cutoff) => `"created" < ${cutoff}`,
  keepDays,
});

/** The only place that touches the database for the idempotency keys of mail (mail_key). */
@Injectable()
export class MailKeysRepository {
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
}
