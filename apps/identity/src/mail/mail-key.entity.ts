import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * The idempotency key of a message another service asked identity to send (`identity.mail.send` with
 * `key`): a message sent again with the same key within MAIL_KEY_RETENTION_DAYS is accepted but queued
 * once (mail-keys.repository.ts).
 */
@Entity({ name: 'mail_key' })
export class MailKeyEntity {
  @PrimaryColumn({ type: 'text' })
  key!: string;

  /** When its mail was put on the queue; null while the first request is queuing it (or died doing so). */
  @Column({ name: 'queued_at', type: 'timestamptz', nullable: true })
  queuedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
