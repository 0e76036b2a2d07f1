import type { OrderItem, OrderState, PaymentProviderId, ShippingChoice, Vendor } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An order of a product (or items) from a seller's service. */
@Entity({ name: 'order' })
export class OrderEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'service_id', type: 'uuid' })
  serviceId!: string;

  @Column({ name: 'product_id', type: 'uuid', nullable: true })
  productId!: string | null;

  @Column({ name: 'seller_id', type: 'uuid' })
  sellerId!: string;

  @Column({ name: 'buyer_id', type: 'uuid', nullable: true })
  buyerId!: string | null;

  /**
   * The account whose verified address this order (placed signed out) was placed with: at order time
   * when the address was verified already, else when an account verifies it (identity.email.verified).
   * It reads, writes and lists the order as its buyer; the link still works for its holder.
   */
  @Column({ name: 'claimed_by', type: 'uuid', nullable: true })
  claimedBy!: string | null;

  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'text', default: '' })
  note!: string;

  @Column({ type: 'boolean', default: false })
  share!: boolean;

  @Column({ type: 'text' })
  state!: OrderState;

  @Column({ type: 'text' })
  provider!: PaymentProviderId;

  @Column({ type: 'text' })
  account!: string;

  @Column({ type: 'text' })
  vendor!: Vendor;

  @Column({ type: 'jsonb' })
  items!: OrderItem[];

  @Column({ type: 'integer' })
  amount!: number;

  @Column({ type: 'text' })
  currency!: 'USD';

  @Column({ type: 'jsonb', nullable: true })
  shipping!: ShippingChoice | null;

  @Column({ type: 'text', nullable: true })
  failure!: string | null;

  @Column({ name: 'payment_id', type: 'text', nullable: true })
  paymentId!: string | null;

  /** Cents refunded so far (done refunds; never more than amount): refunded in full when equal. */
  @Column({ name: 'refunded_amount', type: 'integer', default: 0 })
  refundedAmount!: number;

  @Column({ name: 'fulfil_note', type: 'text', nullable: true })
  fulfilNote!: string | null;

  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true })
  paidAt!: Date | null;

  @Column({ name: 'fulfilled_at', type: 'timestamptz', nullable: true })
  fulfilledAt!: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  modified!: Date;
}
