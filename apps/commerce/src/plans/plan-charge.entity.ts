import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One period's charge of a plan (once per period; a paid one stays paid). */
@Entity({ name: 'plan_charge' })
export class PlanChargeEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'plan_id', type: 'uuid' })
  planId!: string;

  @Column({ type: 'integer' })
  period!: number;

  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt!: Date;

  @Column({ type: 'text' })
  state!: 'paid' | 'failed';

  @Column({ type: 'integer' })
  amount!: number;

  @Column({ type: 'integer' })
  attempts!: number;

  @Column({ name: 'payment_ref', type: 'text', nullable: true })
  paymentRef!: string | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  modified!: Date;
}
