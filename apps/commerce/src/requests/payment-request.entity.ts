import type { RequestState } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The product as it was when the request was made (the product may change or go later), or a custom
 * amount: id null, name the seller's description, price the amount.
 */
export interface RequestedProduct {
  id: string | null;
  name: string;
  description: string;
  price: number;
  currency: 'USD';
}

/** A seller asks a person (by email) to pay for a product. */
@Entity({ name: 'payment_request' })
export class PaymentRequestEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'seller_id', type: 'uuid' })
  sellerId!: string;

  @Column({ name: 'service_id', type: 'uuid' })
  serviceId!: string;

  @Column({ name: 'product_id', type: 'uuid', nullable: true })
  productId!: string | null;

  @Column({ type: 'jsonb' })
  product!: RequestedProduct;

  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'text', default: '' })
  note!: string;

  @Column({ name: 'key_hash', type: 'text' })
  keyHash!: string;

  @Column({ name: 'payer_id', type: 'uuid', nullable: true })
  payerId!: string | null;

  @Column({ type: 'text' })
  state!: RequestState;

  /** Unique where set: one order pays one request. */
  @Column({ name: 'order_id', type: 'uuid', nullable: true })
  orderId!: string | null;

  /** Why the payer declined, when they said (plain text, at most 500 characters). */
  @Column({ name: 'decline_reason', type: 'text', nullable: true })
  declineReason!: string | null;

  @Column({ type: 'timestamptz' })
  expires!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  modified!: Date;
}
