import type { TerminalPlatform } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn, VirtualColumn } from 'typeorm';

/** A stored Web Push subscription (PushSubscription.toJSON()). */
export interface StoredSubscription {
  endpoint: string;
  expirationTime: number | null;
  keys: { p256dh: string; auth: string };
}

/** A registered browser (or an app's device) that sends and receives shares. */
@Entity({ name: 'terminal' })
export class TerminalEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  label!: string;

  @Column({ type: 'boolean' })
  send!: boolean;

  @Column({ type: 'boolean' })
  receive!: boolean;

  @Column({ type: 'boolean' })
  active!: boolean;

  @Column({ type: 'jsonb', default: {} })
  details!: Record<string, string>;

  @Column({ type: 'text' })
  platform!: TerminalPlatform;

  @Column({ type: 'text', array: true, default: [] })
  capabilities!: string[];

  @Column({ type: 'boolean', default: false })
  remote!: boolean;

  /** The terminal its shares go to by default. */
  @Column({ type: 'uuid', nullable: true })
  destination!: string | null;

  /** SHA-256 of the terminal's token; never read back. */
  @Column({ name: 'token_hash', type: 'text', select: false })
  tokenHash!: string;

  @Column({ type: 'jsonb', nullable: true })
  subscription!: StoredSubscription | null;

  /** The OAuth grant, app and app name that registered it (all three or none). */
  @Column({ name: 'grant_id', type: 'text', nullable: true })
  grantId!: string | null;

  @Column({ name: 'app_id', type: 'uuid', nullable: true })
  appId!: string | null;

  @Column({ name: 'app_name', type: 'text', nullable: true })
  appName!: string | null;

  /** Shares in its inbox (counted on every read). */
  @VirtualColumn({ type: 'int', query: (alias) => `SELECT count(*)::int FROM "terminals"."share" s WHERE s."terminal_id" = ${alias}."id"` })
  inbox!: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  modified!: Date;
}
