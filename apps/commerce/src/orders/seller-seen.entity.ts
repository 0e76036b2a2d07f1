import { Column, Entity, PrimaryColumn } from 'typeorm';

/** When a seller last looked at their overview: orders paid after it are new to them. */
@Entity({ name: 'seller_seen' })
export class SellerSeenEntity {
  @PrimaryColumn({ name: 'seller_id', type: 'uuid' })
  sellerId!: string;

  @Column({ name: 'seen_at', type: 'timestamptz' })
  seenAt!: Date;
}
