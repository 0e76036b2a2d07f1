import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A note the buyer or the seller adds to an order. */
@Entity({ name: 'order_reply' })
export class OrderReplyEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'order_id', type: 'uuid' })
  orderId!: string;

  @Column({ name: 'author_id', type: 'uuid' })
  authorId!: string;

  @Column({ name: 'author_role', type: 'text' })
  authorRole!: 'buyer' | 'seller';

  @Column({ type: 'text' })
  note!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;
}
