import type { PaymentProviderId } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A checkout at the payment provider; one open session per order (a unique index). */
@Entity({ name: 'payment_session' })
export class PaymentSessionEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'order_id', type: 'uuid' })
  orderId!: string;

  @Column({ type: 'text' })
  provider!: PaymentProviderId;

  @Column({ type: 'text' })
  account!: string;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'text' })
  status!: 'open' | 'complete' | 'expired';

  @Column({ type: 'integer' })
  amount!: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  modified!: Date;
}
