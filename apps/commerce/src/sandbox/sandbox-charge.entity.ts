import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An off-session charge of a sandbox card, once per idempotency key. */
@Entity({ name: 'sandbox_charge' })
export class SandboxChargeEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'idempotency_key', type: 'text', unique: true })
  idempotencyKey!: string;

  @Column({ name: 'card_id', type: 'text' })
  cardId!: string;

  @Column({ type: 'text' })
  account!: string;

  @Column({ type: 'integer' })
  amount!: number;

  @Column({ type: 'boolean' })
  paid!: boolean;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;
}
