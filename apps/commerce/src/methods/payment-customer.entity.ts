import type { PaymentProviderId } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A payer's customer at a provider (the cards are saved under it). */
@Entity({ name: 'payment_customer' })
export class PaymentCustomerEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @PrimaryColumn({ type: 'text' })
  provider!: PaymentProviderId;

  @Column({ type: 'text' })
  ref!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;
}
