import type { PaymentProviderId } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A provider's webhook event, kept once (a replay is recognised by it). */
@Entity({ name: 'provider_event' })
export class ProviderEventEntity {
  @PrimaryColumn({ type: 'text' })
  provider!: PaymentProviderId;

  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  received!: Date;
}
