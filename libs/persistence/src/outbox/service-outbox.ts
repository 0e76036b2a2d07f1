import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@tinkerdesk/nest-common';
import type { DataSource } from 'typeorm';
import { outboxRetentionRules, RetentionSweeper, type RetentionRule } from '../retention/retention.js';
import { OutboxListener, OutboxRelay, type OutboxEnvelope, type OutboxListenerOptions } from './outbox.js';

/** A service's outbox settings, from its configuration. */
export interface ServiceOutboxSettings {
  /** The deployment's NATS subject prefix (NATS_PREFIX). */
  prefix: string;
  /** The relay's safety-net poll (OUTBOX_POLL_MS; it is woken right after each commit that wrote events). */
  pollMs: number;
  /**
   * OUTBOX_RETENTION_DAYS: published outbox events and processed-event rows older than this are
   * deleted (docs/operations.md, "What the platform deletes").
   */
  retentionDays: number;
  /** RETENTION_SWEEP_SECONDS: how often each replica tries the retention sweep (one sweeps at a time); 0: never. */
  retentionSweepSeconds: number;
}

/** One listener of a service's outbox: its durable name, its mode and what it does (OutboxListenerOptions). */
export type ServiceOutboxListener<E extends OutboxEnvelope> = Pick<
  OutboxListenerOptions<E>,
  'name' | 'mode' | 'handle' | 'retryMs' | 'from'
>;

export interface ServiceOutboxOptions<E extends OutboxEnvelope> {
  dataSource: DataSource;
  /** The service's schema (it holds the outbox tables) and name (its events are `evt.<service>.>`). */
  service: string;
  /** The stream's name without prefix, e.g. COMMERCE_EVENTS. */
  stream: string;
  nc: NatsConnection;
  settings: ServiceOutboxSettings;
  logger: Logger;
  listeners: Array<ServiceOutboxListener<E>>;
  /** The service's other retention rules (its repositories write them), swept with the outbox's. */
  retentionRules?: RetentionRule[];
}

/**
 * A service's outbox at run time, the same for every service: the relay (committed events → the
 * service's stream), its listeners and the retention sweep (the outbox's old rows and the service's
 * own rules), started once the application has bootstrapped and stopped
 * first on shutdown (`onModuleDestroy`, before the database and NATS connections close). A service
 * extends it with its listeners (commerce-outbox.ts, terminals-outbox.ts).
 */
export class ServiceOutbox<E extends OutboxEnvelope = OutboxEnvelope> implements OnApplicationBootstrap, OnModuleDestroy {
  readonly relay: OutboxRelay;
  /** Deletes the outbox's old rows and whatever else the service registered (retention.ts). */
  readonly retention: RetentionSweeper;
  private readonly listeners: Array<OutboxListener<E>>;

  constructor(o: ServiceOutboxOptions<E>) {
    const common = {
      dataSource: o.dataSource,
      schema: o.service,
      nc: o.nc,
      prefix: o.settings.prefix,
      stream: o.stream,
      service: o.service,
      logger: o.logger,
    };
    this.relay = new OutboxRelay({ ...common, pollMs: o.settings.pollMs });
    this.listeners = o.listeners.map((listener) => new OutboxListener<E>({ ...common, ...listener }));
    this.retention = new RetentionSweeper({
      dataSource: o.dataSource,
      service: o.service,
      rules: [...outboxRetentionRules(o.service, o.settings.retentionDays), ...(o.retentionRules ?? [])],
      everyMs: o.settings.retentionSweepSeconds * 1000,
      logger: o.logger,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.relay.start();
    for (const listener of this.listeners) await listener.start();
    this.retention.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.retention.stop();
    await this.relay.stop();
    for (const listener of this.listeners) await listener.stop();
  }
}
