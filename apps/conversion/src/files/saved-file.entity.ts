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

  /** A pending file that is not confirmed by then is dropped with whatever was uploaded for it. */
  @Column({ name: 'pending_until', type: 'timestamptz', nullable: true })
  pendingUntil!: Date | null;

  /** The one-time token of the file's upload URL (the site's own storage); null once an upload used it. */
  @Column({ name: 'upload_nonce', type: 'text', nullable: true })
  uploadNonce!: string | null;

  /** The site's own storage: the PUT under way for the file (its object is `{owner}/{id}/{uploadPut}`). */
  @Column({ name: 'upload_put', type: 'uuid', nullable: true })
  uploadPut!: string | null;

  /** When the file's upload URL stops working (S3: a PUT may still write its upload key until then). */
  @Column({ name: 'upload_expires', type: 'timestamptz', nullable: true })
  uploadExpires!: Date | null;

  /** Where the file's bytes are: a key written once and never by an upload URL again (set by the upload or by confirming it). */
  @Column({ name: 'object_key', type: 'text', nullable: true })
  objectKey!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  modified!: Date;
}

/** An object key that must go (a deleted or dropped file's bytes, a leftover upload), not before a time; kept until it is gone. */
@Entity({ name: 'saved_file_purge' })
export class SavedFilePurgeEntity {
  @PrimaryColumn({ type: 'text' })
  key!: string;

  @Column({ name: 'not_before', type: 'timestamptz' })
  notBefore!: Date;
}

/** A declaration the gateway stopped waiting for: it is never recorded, or is removed if it was. */
@Entity({ name: 'saved_file_abandoned' })
export class SavedFileAbandonedEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'owner_id', type: 'uuid' })
  ownerId!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
