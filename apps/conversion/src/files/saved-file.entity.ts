import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { SavedFileState } from '@tinkerdesk/contracts';

const bigintAsNumber = { to: (v?: number | null) => v, from: (v?: string | null) => (v == null ? null : Number(v)) };

@Entity({ name: 'saved_file' })
export class SavedFileEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** The account that saved it; nobody else sees it. */
  @Column({ name: 'owner_id', type: 'uuid' })
  ownerId!: string;

  @Column({ type: 'text' })
  filename!: string;

  @Column({ name: 'media_type', type: 'text' })
  mediaType!: string;

  /** Declared before the upload; a stored file has exactly this many bytes. */
  @Column({ type: 'bigint', transformer: bigintAsNumber })
  size!: number;

  @Column({ type: 'text' })
  state!: SavedFileState;

  /** A pending file that is not confirmed by then is dropped (its upload URL has expired). */
  @Column({ name: 'pending_until', type: 'timestamptz', nullable: true })
  pendingUntil!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  modified!: Date;
}
