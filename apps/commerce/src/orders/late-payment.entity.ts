import type { PaymentProviderId } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A payment that landed on an order that could no longer take it: refunded automatically. */
@Entity({ name: 'late_payment' })
export class LatePaymentEntity {
  @PrimaryColumn({ type: 'text' })
  provider!: PaymentProviderId;

  @PrimaryColumn({ name: 'payment_id', type: 'text' })
  paymentId!: string;

  @Column({ name: 'order_id', type: 'uuid' })
  orderId!: string;

  @Column({ name: 'session_id', type: 'text' })
  sessionId!: string;

  @Column({ type: 'text' })
  account!: string;

  @Column({ type: 'integer' })
  amount!: number;

  @Column({ type: 'text', default: 'refund_pending' })
  state!: 'refund_pending' | 'refunded';

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** The lease of the replica trying the refund. */
  @Column({ name: 'attempt_at', type: 'timestamptz', default: () => 'now()' })
  attemptAt!: Date;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'refunded_at', type: 'timestamptz', nullable: true })
  refundedAt!: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;
}
