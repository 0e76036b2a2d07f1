import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A provider's service: what a provider sells through (docs/api.md, "Selling"). The user lives in identity: only its id is kept. */
@Entity({ name: 'service' })
export class ProviderServiceEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  name!: string;

  /** The name buyers see as the seller (receipts, emails, pages, timelines); never empty (CHECK service_display_name_present). */
  @Column({ name: 'display_name', type: 'text' })
  displayName!: string;

  @Column({ type: 'text' })
  provider!: string;

  @Column({ type: 'text' })
  vendor!: string;

  @Column({ type: 'text' })
  account!: string;

  /**
   * The short shop link (`/s/{slug}`), lowercase; unique across sellers (index service_slug_key). Read
   * as text or null; optional only in TypeScript, so a save that leaves it out keeps the stored one.
   */
  @Column({ type: 'text', nullable: true })
  slug?: string | null;

  @Column({ type: 'jsonb', default: {} })
  extras!: Record<string, unknown>;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  modified!: Date;
}
