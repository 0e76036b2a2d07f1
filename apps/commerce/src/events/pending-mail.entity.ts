import type { SendMailMessage } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An email that holds a secret (a payment request's link with its key), kept out of the event
 * stream: written in the transaction that records its event, under the event's id; the mail
 * listener sends it when it handles that event, then deletes it.
 */
@Entity({ name: 'pending_mail' })
export class PendingMailEntity {
  @PrimaryColumn({ type: 'uuid', name: 'event_id' })
  eventId!: string;

  @Column({ type: 'jsonb' })
  message!: SendMailMessage;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;
}
