import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A refund the sandbox made, under its idempotency key (a retry answers the same refund, as at Stripe). */
@Entity({ name: 'sandbox_refund' })
export class SandboxRefundEntity {
  @PrimaryColumn({ name: 'idempotency_key', type: 'text' })
  idempotencyKey!: string;

  @Column({ type: 'text' })
  id!: string;

  @Column({ name: 'payment_intent', type: 'text' })
  paymentIntent!: string;

  @Column({ type: 'text' })
  account!: string;

  @Column({ type: 'integer' })
  amount!: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;
}
