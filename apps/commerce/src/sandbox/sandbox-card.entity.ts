import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A card the sandbox keeps (as Stripe keeps a PaymentMethod). */
@Entity({ name: 'sandbox_card' })
export class SandboxCardEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  brand!: string;

  @Column({ type: 'text' })
  last4!: string;

  @Column({ name: 'exp_month', type: 'integer' })
  expMonth!: number;

  @Column({ name: 'exp_year', type: 'integer' })
  expYear!: number;

  /** The card saves, but every charge of it is declined (Stripe's 4000 0000 0000 0341). */
  @Column({ name: 'charges_fail', type: 'boolean' })
  chargesFail!: boolean;

  @Column({ type: 'boolean', default: false })
  detached!: boolean;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;
}
