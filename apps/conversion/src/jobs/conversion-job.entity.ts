import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { JobState } from '@tinkerdesk/contracts';

const bigintAsNumber = { to: (v?: number | null) => v, from: (v?: string | null) => (v == null ? null : Number(v)) };

@Entity({ name: 'job' })
export class ConversionJobEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  state!: JobState;

  @Column({ type: 'smallint', default: 0 })
  progress!: number;

  @Column({ type: 'text' })
  filename!: string;

  @Column({ name: 'media_type', type: 'text' })
  mediaType!: string;

  @Column({ name: 'input_size', type: 'bigint', transformer: bigintAsNumber })
  inputSize!: number;

  @Column({ type: 'text' })
  target!: string;

  @Column({ type: 'integer', nullable: true })
  width!: number | null;

  @Column({ type: 'integer', nullable: true })
  height!: number | null;

  @Column({ name: 'output_filename', type: 'text', nullable: true })
  outputFilename!: string | null;

  @Column({ name: 'output_media_type', type: 'text', nullable: true })
  outputMediaType!: string | null;

  @Column({ name: 'output_size', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  outputSize!: number | null;

  @Column({ name: 'output_width', type: 'integer', nullable: true })
  outputWidth!: number | null;

  @Column({ name: 'output_height', type: 'integer', nullable: true })
  outputHeight!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  modified!: Date;
}
