import type { ShareContentType, ShareView } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A link or text shared to a terminal's inbox. */
@Entity({ name: 'share' })
export class ShareEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'terminal_id', type: 'uuid' })
  terminalId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'from_terminal_id', type: 'uuid', nullable: true })
  fromTerminalId!: string | null;

  @Column({ name: 'content_type', type: 'text' })
  contentType!: ShareContentType;

  @Column({ type: 'text' })
  content!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ type: 'text' })
  push!: ShareView['push'];

  @Column({ name: 'push_error', type: 'text', nullable: true })
  pushError!: string | null;

  /** clock_timestamp(): shares made in one transaction still sort in the order they were made. */
  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  created!: Date;
}
