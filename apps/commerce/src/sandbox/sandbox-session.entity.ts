import { Column, Entity, PrimaryColumn } from 'typeorm';

export type SandboxStatus = 'open' | 'requires_action' | 'complete' | 'expired';

/** A card waiting for its 3-D Secure step: brand, last 4, expiry (never the number). */
export interface PendingCard {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  chargesFail: boolean;
}

/** A checkout (payment) or card-saving (setup) session of the sandbox processor. */
@Entity({ name: 'sandbox_session' })
export class SandboxSessionEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text', default: 'payment' })
  mode!: 'payment' | 'setup';

  /** The order paid (payment mode). */
  @Column({ name: 'order_id', type: 'uuid', nullable: true })
  orderId!: string | null;

  /** Whose card is saved (setup mode). */
  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId!: string | null;

  /** The card saved (setup mode, once complete). */
  @Column({ name: 'card_id', type: 'text', nullable: true })
  cardId!: string | null;

  /** A card waiting for its 3-D Secure step (setup mode). */
  @Column({ name: 'pending_card', type: 'jsonb', nullable: true })
  pendingCard!: PendingCard | null;

  @Column({ type: 'text' })
  account!: string;

  @Column({ type: 'integer' })
  amount!: number;

  @Column({ type: 'text' })
  currency!: string;

  @Column({ type: 'text' })
  email!: string;

  @Column({ name: 'product_name', type: 'text' })
  productName!: string;

  @Column({ name: 'seller_name', type: 'text' })
  sellerName!: string;

  @Column({ type: 'text' })
  status!: SandboxStatus;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'payment_intent', type: 'text', nullable: true })
  paymentIntent!: string | null;

  @Column({ type: 'boolean', default: false })
  refunded!: boolean;

  /** Cents refunded of this payment (refunded: all of it). */
  @Column({ name: 'refunded_amount', type: 'integer', default: 0 })
  refundedAmount!: number;

  @Column({ name: 'success_url', type: 'text' })
  successUrl!: string;

  @Column({ name: 'cancel_url', type: 'text' })
  cancelUrl!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  modified!: Date;
}
