import type { PaymentProviderId } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A saved card of a payer (the number stays at the provider); one default per payer and provider. */
@Entity({ name: 'payment_method' })
export class PaymentMethodEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  provider!: PaymentProviderId;

  /** The provider's id of the card (pm_...); unique per provider. */
  @Column({ type: 'text' })
  ref!: string;

  @Column({ name: 'customer_ref', type: 'text', nullable: true })
  customerRef!: string | null;

  @Column({ type: 'text' })
  brand!: string;

  @Column({ type: 'text' })
  last4!: string;

  @Column({ name: 'exp_month', type: 'integer' })
  expMonth!: number;

  @Column({ name: 'exp_year', type: 'integer' })
  expYear!: number;

  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault!: boolean;

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  created!: Date;
}
