import type { WalletBarcode, WalletTextRow } from '@tinkerdesk/tools/wallet-pass';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A wallet pass a user designed. */
@Entity({ name: 'pass' })
export class PassEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'card_title', type: 'text' })
  cardTitle!: string;

  @Column({ type: 'text' })
  header!: string;

  @Column({ type: 'text', nullable: true })
  subheader!: string | null;

  @Column({ name: 'text_rows', type: 'jsonb', default: [] })
  textRows!: WalletTextRow[];

  @Column({ type: 'jsonb', nullable: true })
  barcode!: WalletBarcode | null;

  @Column({ name: 'background_color', type: 'text' })
  backgroundColor!: string;

  @Column({ name: 'logo_id', type: 'text', nullable: true })
  logoId!: string | null;

  @Column({ name: 'hero_id', type: 'text', nullable: true })
  heroId!: string | null;

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  created!: Date;

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  modified!: Date;
}

/** A PNG of a pass, stored once per account and content (its id is the SHA-256 of both). */
@Entity({ name: 'pass_image' })
export class PassImageEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  type!: 'image/png';

  @Column({ type: 'integer' })
  width!: number;

  @Column({ type: 'integer' })
  height!: number;

  @Column({ type: 'integer' })
  size!: number;

  @Column({ type: 'bytea' })
  bytes!: Buffer;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  stored!: Date;
}
