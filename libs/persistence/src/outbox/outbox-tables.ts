import { EntitySchema, type QueryRunner } from 'typeorm';

/** One row of a service's outbox: something that happened, written in the transaction that made it happen. */
export interface OutboxEventRow {
  id: string;
  /** Insertion order: the relay publishes in this order (so in order per aggregate). */
  seq: string;
  aggregateType: string;
  aggregateId: string;
  name: string;
  payload: unknown;
  createdAt: Date;
  publishedAt: Date | null;
  attempts: number;
  lastError: string | null;
}

/** An event a listener has handled (its own writes were committed with this row). */
export interface ProcessedEventRow {
  listener: string;
  eventId: string;
  processedAt: Date;
}

/**
 * The TypeORM entities of the outbox and processed-event tables in a service's schema (entity
 * schemas rather than decorated classes: the schema is the service's).
 */
export function outboxEntities(schema: string): [EntitySchema<OutboxEventRow>, EntitySchema<ProcessedEventRow>] {
  return [
    new EntitySchema<OutboxEventRow>({
      name: `${schema}.outbox_event`,
      tableName: 'outbox_event',
      schema,
      columns: {
        id: { type: 'uuid', primary: true },
        seq: { type: 'bigint', generated: 'increment' },
        aggregateType: { type: 'text', name: 'aggregate_type' },
        aggregateId: { type: 'text', name: 'aggregate_id' },
        name: { type: 'text' },
        payload: { type: 'jsonb' },
        createdAt: { type: 'timestamptz', name: 'created_at', createDate: true },
        publishedAt: { type: 'timestamptz', name: 'published_at', nullable: true },
        attempts: { type: 'int', default: 0 },
        lastError: { type: 'text', name: 'last_error', nullable: true },
      },
    }),
    new EntitySchema<ProcessedEventRow>({
      name: `${schema}.processed_event`,
      tableName: 'processed_event',
      schema,
      columns: {
        listener: { type: 'text', primary: true },
        eventId: { type: 'uuid', primary: true, name: 'event_id' },
        processedAt: { type: 'timestamptz', name: 'processed_at', createDate: true },
      },
    }),
  ];
}

/** The migration body that creates both tables in `schema` (a service's migration calls it once). */
export async function createOutboxTables(runner: QueryRunner, schema: string): Promise<void> {
  await runner.query(`
    CREATE TABLE "${schema}"."outbox_event" (
      "id" uuid PRIMARY KEY,
      "seq" bigserial NOT NULL UNIQUE,
      "aggregate_type" text NOT NULL,
      "aggregate_id" text NOT NULL,
      "name" text NOT NULL,
      "payload" jsonb NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "published_at" timestamptz,
      "attempts" integer NOT NULL DEFAULT 0,
      "last_error" text
    )`);
  await runner.query(`CREATE INDEX "outbox_event_unpublished" ON "${schema}"."outbox_event" ("seq") WHERE "published_at" IS NULL`);
  await runner.query(`
    CREATE TABLE "${schema}"."processed_event" (
      "listener" text NOT NULL,
      "event_id" uuid NOT NULL,
      "processed_at" timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY ("listener", "event_id")
    )`);
}

export async function dropOutboxTables(runner: QueryRunner, schema: string): Promise<void> {
  await runner.query(`DROP TABLE "${schema}"."processed_event"`);
  await runner.query(`DROP TABLE "${schema}"."outbox_event"`);
}
