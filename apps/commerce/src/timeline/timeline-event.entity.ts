import type { TimelineKind } from '@tinkerdesk/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An entry of a user's timeline (written by the outbox listeners after the change committed). */
@Entity({ name: 'timeline_event' })
export class TimelineEventEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  kind!: TimelineKind;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'integer', nullable: true })
  amount!: number | null;

  @Column({ name: 'order_id', type: 'uuid', nullable: true })
  orderId!: string | null;

  @Column({ name: 'request_id', type: 'uuid', nullable: true })
  requestId!: string | null;

  @Column({ name: 'plan_id', type: 'uuid', nullable: true })
  planId!: string | null;

  /** clock_timestamp(): entries written in one transaction still sort in the order they were written. */
  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  created!: Date;
}
