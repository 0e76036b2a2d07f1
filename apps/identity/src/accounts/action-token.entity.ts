import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type ActionPurpose = 'verify' | 'reset';

/** A single-use, expiring token sent by email (verification, password reset); stored as a hash. */
@Entity({ name: 'action_token' })
export class ActionTokenEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  purpose!: ActionPurpose;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
