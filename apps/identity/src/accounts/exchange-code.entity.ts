import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SingleUseRecord } from '../database/single-use-record.js';

export type CodeKind = 'impersonate' | 'tokenswap';

/** A single-use, expiring code exchanged for a session (impersonation, token swap); stored as a hash. */
@Entity({ name: 'exchange_code' })
export class ExchangeCodeEntity extends SingleUseRecord {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  kind!: CodeKind;

  @Column({ name: 'code_hash', type: 'text' })
  codeHash!: string;

  /** The account that asked for the code (the administrator of an impersonation). */
  @Column({ name: 'issued_by', type: 'uuid' })
  issuedBy!: string;
}
