import type { OrderItem } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The receipt of a paid order; its number comes from a sequence (R-YYYY-000001). */
@Entity({ name: 'receipt' })
export class ReceiptEntity {
  @PrimaryColumn({ name: 'order_id', type: 'uuid' })
  orderId!: string;

  @Column({ type: 'text', unique: true })
  number!: string;

  @Column({ type: 'integer' })
  amount!: number;

  @Column({ type: 'text' })
  currency!: 'USD';

  @Column({ type: 'jsonb' })
  items!: OrderItem[];

  @Column({ type: 'text' })
  email!: string;

  @Column({ name: 'seller_name', type: 'text' })
  sellerName!: string;

  @Column({ name: 'service_name', type: 'text' })
  serviceName!: string;

  @Column({ name: 'support_email', type: 'text', nullable: true })
  supportEmail!: string | null;

  @Column({ name: 'paid_at', type: 'timestamptz' })
  paidAt!: Date;
}
