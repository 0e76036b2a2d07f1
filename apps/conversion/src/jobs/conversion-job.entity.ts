import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { ConversionOptions, JobState } from '@tinkerdesk/contracts';

const bigintAsNumber = { to: (v?: number | null) => v, from: (v?: string | null) => (v == null ? null : Number(v)) };

@Entity({ name: 'job' })
export class ConversionJobEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** The account that created the job; nobody else sees it. */
  @Column({ name: 'owner_id', type: 'uuid' })
  ownerId!: string;

  @Column({ type: 'text' })
  state!: JobState;

  @Column({ type: 'smallint', default: 0 })
  progress!: number;

  /** Source format id, or `auto` for a URL whose format is known once fetched. */
  @Column({ name: 'source_format', type: 'text' })
  sourceFormat!: string;

  @Column({ name: 'source_kind', type: 'text' })
  sourceKind!: 'upload' | 'url';

  @Column({ name: 'source_url', type: 'text', nullable: true })
  sourceUrl!: string | null;

  /** The uploaded file's name (for a URL: its last path segment, known once fetched). */
  @Column({ type: 'text' })
  filename!: string;

  @Column({ name: 'media_type', type: 'text' })
  mediaType!: string;

  @Column({ name: 'input_size', type: 'bigint', transformer: bigintAsNumber })
  inputSize!: number;

  @Column({ type: 'text' })
  target!: string;

  @Column({ type: 'jsonb', default: {} })
  options!: ConversionOptions;

  @Column({ name: 'output_filename', type: 'text', nullable: true })
  outputFilename!: string | null;

  @Column({ name: 'output_media_type', type: 'text', nullable: true })
  outputMediaType!: string | null;

  @Column({ name: 'output_size', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  outputSize!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'timestamptz' })
  expires!: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  modified!: Date;
}
