import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An Idempotency-Key of a request and, once it finished, its answer (kept 24 hours). */
@Entity({ name: 'idempotency_key' })
export class IdempotencyKeyEntity {
  @PrimaryColumn({ type: 'text' })
  scope!: string;

  @PrimaryColumn({ type: 'text' })
  key!: string;

  @Column({ type: 'text' })
  fingerprint!: string;

  /** Null while the first request still runs. */
  @Column({ type: 'jsonb', nullable: true })
  response!: unknown;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;
}
