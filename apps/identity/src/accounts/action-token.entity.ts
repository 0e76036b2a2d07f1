import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SingleUseRecord } from '../database/single-use-record.js';

export type ActionPurpose = 'verify' | 'reset';

/** A single-use, expiring token sent by email (verification, password reset); stored as a hash. */
@Entity({ name: 'action_token' })
export class ActionTokenEntity extends SingleUseRecord {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  purpose!: ActionPurpose;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;
}
