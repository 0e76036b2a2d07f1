import type { PaymentProviderId, PlanInterval, PlanState } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The product as it was when the plan was made. */
export interface PlannedProduct {
  name: string;
  price: number;
  currency: 'USD';
}

/** A recurring payment: a payer pays a seller's product every interval with a saved card. */
@Entity({ name: 'plan' })
export class PlanEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'payer_id', type: 'uuid' })
  payerId!: string;

  @Column({ name: 'seller_id', type: 'uuid' })
  sellerId!: string;

  @Column({ name: 'service_id', type: 'uuid' })
  serviceId!: string;

  @Column({ name: 'product_id', type: 'uuid', nullable: true })
  productId!: string | null;

  @Column({ type: 'jsonb' })
  product!: PlannedProduct;

  @Column({ type: 'text' })
  provider!: PaymentProviderId;

  @Column({ type: 'text' })
  account!: string;

  @Column({ type: 'text' })
  interval!: PlanInterval;

  /** -1 (no reminder) or 1 … 28. */
  @Column({ name: 'reminder_day', type: 'integer' })
  reminderDay!: number;

  @Column({ name: 'start_at', type: 'timestamptz' })
  startAt!: Date;

  @Column({ name: 'time_zone', type: 'text' })
  timeZone!: string;

  @Column({ name: 'method_id', type: 'uuid', nullable: true })
  methodId!: string | null;

  @Column({ type: 'text' })
  state!: PlanState;

  /** The period charged next (0 first). */
  @Column({ type: 'integer', default: 0 })
  period!: number;

  /** Failed tries of that period. */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'next_charge_at', type: 'timestamptz', nullable: true })
  nextChargeAt!: Date | null;

  /** Until when a runner holds the due charge (a runner that died is replaced after it). */
  @Column({ name: 'claimed_until', type: 'timestamptz', nullable: true })
  claimedUntil!: Date | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  modified!: Date;

  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true })
  cancelledAt!: Date | null;
}
