import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One refund of an order: `pending` while its provider is asked (its amount is reserved: it counts
 * against what remains), `done` once the provider took it (counted in the order's refunded_amount).
 */
@Entity({ name: 'order_refund' })
export class OrderRefundEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'order_id', type: 'uuid' })
  orderId!: string;

  /** Cents. */
  @Column({ type: 'integer' })
  amount!: number;

  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @Column({ type: 'text', default: 'pending' })
  state!: 'pending' | 'done';

  @Column({ name: 'provider_refund_id', type: 'text', nullable: true })
  providerRefundId!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ name: 'refunded_at', type: 'timestamptz', nullable: true })
  refundedAt!: Date | null;
}
