import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A sign-in session. Only the SHA-256 of its token is stored. */
@Entity({ name: 'session' })
export class SessionEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  /** Set on an impersonation session: the administrator behind it. */
  @Column({ name: 'impersonator_id', type: 'uuid', nullable: true })
  impersonatorId!: string | null;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
