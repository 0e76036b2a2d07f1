import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@tinkerdesk/nest-common';
import type { DataSource } from 'typeorm';
import { OutboxListener, OutboxRelay, type OutboxEnvelope, type OutboxListenerOptions } from './outbox.js';

/** A service's outbox settings, from its configuration. */
export interface ServiceOutboxSettings {
  /** The deployment's NATS subject prefix (NATS_PREFIX). */
  prefix: string;
  /** The relay's safety-net poll (OUTBOX_POLL_MS; it is woken right after each commit that wrote events). */
  pollMs: number;
}

/** One listener of a service's outbox: its durable name, its mode and what it does (OutboxListenerOptions). */
export type ServiceOutboxListener<E extends OutboxEnvelope> = Pick<OutboxListenerOptions<E>, 'name' | 'mode' | 'handle' | 'retryMs' | 'from'>;

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
}

/**
 * A service's outbox at run time, the same for every service: the relay (committed events → the
 * service's stream) and its listeners, started once the application has bootstrapped and stopped
 * first on shutdown (`onModuleDestroy`, before the database and NATS connections close). A service
 * extends it with its listeners (commerce-outbox.ts, terminals-outbox.ts).
 */
export class ServiceOutbox<E extends OutboxEnvelope = OutboxEnvelope> implements OnApplicationBootstrap, OnModuleDestroy {
  readonly relay: OutboxRelay;
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
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.relay.start();
    for (const listener of this.listeners) await listener.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
    for (const listener of this.listeners) await listener.stop();
  }
}
