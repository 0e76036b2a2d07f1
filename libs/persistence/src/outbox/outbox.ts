import { randomUUID } from 'node:crypto';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { AppError, statusOf } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import type { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import { sql } from '../sql.js';
import type { OutboxEventRow } from './outbox-tables.js';

/**
 * The transactional outbox, for any service that owns a schema with the outbox tables
 * (outbox-tables.ts): a service writes what happened in the same transaction as the change
 * (recordOutboxEvents), the relay publishes committed events to a JetStream stream of the service's
 * own (at least once, in insertion order, so in order per aggregate; the event id is the
 * Nats-Msg-Id, so the stream drops a second publish of the same event), and listeners (durable
 * consumers) react once per event: their writes commit together with a processed-event row.
 */

/** An event as the outbox stores it and the stream carries it. */
export interface OutboxEnvelope<N extends string = string, P = unknown> {
  id: string;
  name: N;
  aggregateType: string;
  aggregateId: string;
  payload: P;
  createdAt: string;
}

export interface NewOutboxEvent {
  name: string;
  aggregateType: string;
  aggregateId: string;
  payload: unknown;
}

/** Where a service's events live on NATS. */
export interface EventStreamOptions {
  nc: NatsConnection;
  /** The deployment's NATS subject prefix ('' for none). */
  prefix: string;
  /** The stream's name without prefix, e.g. COMMERCE_EVENTS. */
  stream: string;
  /** The service whose events the stream holds (`commerce`: subjects evt.commerce.>). */
  service: string;
}

/** A transaction's manager as services and listeners pass it on (only repositories use it). */
export type TransactionManager = EntityManager;

const WRITTEN = 'outboxWritten';

export const streamName = (o: Pick<EventStreamOptions, 'prefix' | 'stream'>) => (o.prefix ? `${o.prefix}_${o.stream}` : o.stream);
/** Events travel under `evt.` so that the stream never captures the service's request subjects. */
export const eventSubject = (prefix: string, name: string) => (prefix ? `${prefix}.evt.${name}` : `evt.${name}`);

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Inserts events into the outbox through the transaction's manager; the relay is woken after its commit. */
export async function recordOutboxEvents(manager: EntityManager, schema: string, events: NewOutboxEvent[]): Promise<string[]> {
  if (!manager.queryRunner?.isTransactionActive) throw new Error('outbox events are recorded inside the transaction of the change');
  const ids: string[] = [];
  for (const e of events) {
    const id = randomUUID();
    ids.push(id);
    await sql.execute(
      manager,
      `INSERT INTO "${schema}"."outbox_event" ("id", "aggregate_type", "aggregate_id", "name", "payload") VALUES ($1, $2, $3, $4, $5::jsonb)`,
      [id, e.aggregateType, e.aggregateId, e.name, JSON.stringify(e.payload)],
    );
  }
  manager.queryRunner.data = { ...(manager.queryRunner.data as Record<string, unknown>), [WRITTEN]: true };
  return ids;
}

/** Creates the service's stream when it is missing (its subjects: every event of the service). */
export async function ensureEventStream(o: EventStreamOptions): Promise<void> {
  const jsm = await jetstreamManager(o.nc);
  const name = streamName(o);
  const subjects = [eventSubject(o.prefix, `${o.service}.>`)];
  try {
    await jsm.streams.info(name);
  } catch {
    try {
      await jsm.streams.add({ name, subjects, duplicate_window: 2 * 60 * 1_000_000_000 });
    } catch (error) {
      // Another replica created it at the same moment.
      await jsm.streams.info(name).catch(() => {
        throw error;
      });
    }
  }
}

export interface OutboxRelayOptions extends EventStreamOptions {
  dataSource: DataSource;
  schema: string;
  logger: Logger;
  /** The safety net: how often the relay looks for unpublished events without being woken. */
  pollMs: number;
  batchSize?: number;
}

/**
 * Publishes committed outbox events, oldest first, and marks them published. Woken right after a
 * transaction that wrote events commits (in this process), and by a poll. Of several replicas one
 * relays at a time (a session-level advisory lock, held while it publishes; no transaction stays
 * open over the network). A publish that fails stops the batch, so a later event never overtakes
 * an earlier one; the next wake tries again.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly subscriber: EntitySubscriberInterface;

  constructor(private readonly o: OutboxRelayOptions) {
    this.subscriber = {
      afterTransactionCommit: (event: { queryRunner: QueryRunner }) => {
        const data = event.queryRunner.data as Record<string, unknown> | undefined;
        if (data?.[WRITTEN]) {
          data[WRITTEN] = false;
          this.wake();
        }
      },
      afterTransactionRollback: (event: { queryRunner: QueryRunner }) => {
        const data = event.queryRunner.data as Record<string, unknown> | undefined;
        if (data) data[WRITTEN] = false;
      },
    };
  }

  async start(): Promise<void> {
    this.stopped = false;
    await ensureEventStream(this.o);
    this.o.dataSource.subscribers.push(this.subscriber);
    this.timer = setInterval(() => this.wake(), this.o.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Publishes what is pending now (again after the current run, if one is running). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .then(() => undefined)
      .catch((error: unknown) => this.o.logger.warn({ err: message(error) }, 'outbox relay: publishing failed (tried again)'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Waits until nothing is being published (tests; shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    const i = this.o.dataSource.subscribers.indexOf(this.subscriber);
    if (i >= 0) this.o.dataSource.subscribers.splice(i, 1);
    await this.idle();
  }

  /** One run: under the advisory lock, publishes batches until none is left. Answers how many it published. */
  async drain(): Promise<number> {
    const runner = this.o.dataSource.createQueryRunner();
    await runner.connect();
    // Every statement on this one connection: the advisory lock is the session's.
    const db = runner.manager;
    const key = `${this.o.schema}.outbox_event`;
    let published = 0;
    try {
      const lock = await sql.one<{ locked: boolean }>(db, `SELECT pg_try_advisory_lock(hashtext($1)) AS "locked"`, [key]);
      if (!lock.locked) return 0;
      try {
        const js = jetstream(this.o.nc);
        const batch = this.o.batchSize ?? 100;
        for (;;) {
          const rows = await sql.rows<
            Pick<OutboxEventRow, 'id' | 'seq' | 'aggregateType' | 'aggregateId' | 'name' | 'payload' | 'createdAt'>
          >(
            db,
            `SELECT "id", "seq", "aggregate_type" AS "aggregateType", "aggregate_id" AS "aggregateId", "name", "payload", "created_at" AS "createdAt"
               FROM "${this.o.schema}"."outbox_event" WHERE "published_at" IS NULL ORDER BY "seq" LIMIT $1`,
            [batch],
          );
          for (const row of rows) {
            const envelope: OutboxEnvelope = {
              id: row.id,
              name: row.name,
              aggregateType: row.aggregateType,
              aggregateId: row.aggregateId,
              payload: row.payload,
              createdAt: row.createdAt.toISOString(),
            };
            try {
              await js.publish(eventSubject(this.o.prefix, row.name), JSON.stringify(envelope), { msgID: row.id, timeout: 5000 });
            } catch (error) {
              await sql.execute(
                db,
                `UPDATE "${this.o.schema}"."outbox_event" SET "attempts" = "attempts" + 1, "last_error" = $2 WHERE "id" = $1`,
                [row.id, message(error).slice(0, 500)],
              );
              throw error;
            }
            await sql.execute(
              db,
              `UPDATE "${this.o.schema}"."outbox_event" SET "published_at" = now(), "attempts" = "attempts" + 1, "last_error" = NULL WHERE "id" = $1`,
              [row.id],
            );
            published += 1;
          }
          if (rows.length < batch) return published;
        }
      } finally {
        await sql.execute(db, `SELECT pg_advisory_unlock(hashtext($1))`, [key]);
      }
    } finally {
      await runner.release();
    }
  }
}

export interface OutboxListenerOptions<E extends OutboxEnvelope> extends EventStreamOptions {
  dataSource: DataSource;
  schema: string;
  logger: Logger;
  /** The durable consumer's name, and the listener's key in the processed-event table. */
  name: string;
  /**
   * `transaction`: `handle` writes through `manager` in one transaction with the processed-event
   * row (exactly once). `effect`: `handle` acts outside any transaction (a network call); the
   * processed row is written after it succeeds, so a crash between the two repeats the act once.
   */
  mode: 'transaction' | 'effect';
  handle(event: E, manager: EntityManager | null): Promise<void>;
  /** First redelivery delay after a failure (doubled per try, at most 30 s). */
  retryMs?: number;
  /**
   * Where a listener starts the first time it runs (its durable consumer is created): `all` (the
   * default) takes every event the stream still holds; `new` only the events published from then on,
   * for a listener added to a running deployment whose past events are of no use (live updates).
   */
  from?: 'all' | 'new';
}

/**
 * A failure that will be the same on every try: an AppError the answer to a request would give as a
 * 4xx (the account is gone, the input is refused), except the ones that can pass (408, 409, 429). An
 * event failing so is set aside (logged as an error and marked processed) rather than retried: the
 * listener takes one event at a time, so retrying it forever would hold back every later event.
 * Anything else (UNAVAILABLE, a timeout, a bug) is retried until it succeeds.
 */
export function isPermanentFailure(error: unknown): boolean {
  if (!(error instanceof AppError)) return false;
  const status = statusOf(error.code);
  return status >= 400 && status < 500 && ![408, 409, 429].includes(status);
}

/**
 * A listener: a JetStream durable consumer with explicit acks and one event in flight at a time
 * (so events arrive in the order they were published). An event already processed is acked and
 * skipped; one whose handling fails is redelivered later (nak with a growing delay), unless the failure
 * is permanent (isPermanentFailure): then it is set aside.
 */
export class OutboxListener<E extends OutboxEnvelope = OutboxEnvelope> {
  private messages: ConsumerMessages | null = null;
  private loop: Promise<void> | null = null;

  constructor(private readonly o: OutboxListenerOptions<E>) {}

  async start(): Promise<void> {
    await ensureEventStream(this.o);
    const jsm = await jetstreamManager(this.o.nc);
    const stream = streamName(this.o);
    const config = {
      durable_name: this.o.name,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: this.o.from === 'new' ? DeliverPolicy.New : DeliverPolicy.All,
      // Every event of the service (one filter subject: NATS servers before 2.10 take no list);
      // a listener ignores the names it has nothing to do for.
      filter_subject: eventSubject(this.o.prefix, `${this.o.service}.>`),
      max_ack_pending: 1,
      ack_wait: 30 * 1_000_000_000,
    };
    try {
      await jsm.consumers.info(stream, this.o.name);
      await jsm.consumers.update(stream, this.o.name, { filter_subject: config.filter_subject, max_ack_pending: 1 });
    } catch {
      await jsm.consumers.add(stream, config).catch(async (error: unknown) => {
        // Another replica created it at the same moment.
        await jsm.consumers.info(stream, this.o.name).catch(() => {
          throw error;
        });
      });
    }
    const consumer = await jetstream(this.o.nc).consumers.get(stream, this.o.name);
    this.messages = await consumer.consume({ max_messages: 1 });
    const messages = this.messages;
    this.loop = (async () => {
      for await (const m of messages) await this.process(m);
    })();
  }

  async stop(): Promise<void> {
    await this.messages?.close();
    await this.loop?.catch(() => undefined);
    this.messages = null;
  }

  private async process(m: JsMsg): Promise<void> {
    let event: E;
    try {
      event = m.json<E>();
    } catch {
      this.o.logger.error({ listener: this.o.name, subject: m.subject }, 'outbox listener: an event that is not JSON was dropped');
      m.term();
      return;
    }
    try {
      if (this.o.mode === 'transaction') {
        await this.o.dataSource.transaction(async (manager) => {
          if (!(await this.claim(manager, event.id))) return;
          await this.o.handle(event, manager);
        });
      } else if (!(await this.processed(event.id))) {
        await this.o.handle(event, null);
        await this.claim(this.o.dataSource.manager, event.id);
      }
      await m.ackAck();
    } catch (error) {
      if (isPermanentFailure(error)) {
        this.o.logger.error(
          { listener: this.o.name, event: event.name, eventId: event.id, err: message(error) },
          'outbox listener: the event cannot be handled, set aside (not retried)',
        );
        try {
          await this.claim(this.o.dataSource.manager, event.id);
          m.term();
          return;
        } catch {
          // The mark did not land: redelivered below, and set aside on its next try.
        }
      }
      const tries = m.info.deliveryCount;
      const delay = Math.min(30_000, (this.o.retryMs ?? 500) * 2 ** Math.max(0, tries - 1));
      this.o.logger.warn(
        { listener: this.o.name, event: event.name, eventId: event.id, tries, err: message(error) },
        'outbox listener: handling failed (tried again)',
      );
      m.nak(delay);
    }
  }

  private async claim(manager: EntityManager, eventId: string): Promise<boolean> {
    const claimed = await sql.maybeOne<{ event_id: string }>(
      manager,
      `INSERT INTO "${this.o.schema}"."processed_event" ("listener", "event_id") VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING "event_id"`,
      [this.o.name, eventId],
    );
    return claimed !== undefined;
  }

  private async processed(eventId: string): Promise<boolean> {
    const row = await sql.maybeOne<{ one: number }>(
      this.o.dataSource,
      `SELECT 1 AS "one" FROM "${this.o.schema}"."processed_event" WHERE "listener" = $1 AND "event_id" = $2`,
      [this.o.name, eventId],
    );
    return row !== undefined;
  }
}
