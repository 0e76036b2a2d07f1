import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { CommerceDomainEvent } from '@tinkerdesk/contracts';
import { RpcClient, type Logger } from '@tinkerdesk/nest-common';
import { OutboxListener, OutboxRelay } from '@tinkerdesk/persistence';
import type { DataSource } from 'typeorm';
import { COMMERCE_LOGGER } from '../logger.token.js';
import { CommerceReactions } from './commerce-reactions.js';
import { COMMERCE_STREAM } from './commerce-events.js';

export const OUTBOX_SETTINGS = Symbol('OUTBOX_SETTINGS');

export interface OutboxSettings {
  /** The deployment's NATS subject prefix. */
  prefix: string;
  /** The relay's safety-net poll (it is woken right after each commit that wrote events). */
  pollMs: number;
}

/**
 * Commerce's outbox at run time: the relay (committed events → JetStream) and the two listeners
 * that do what follows a change, once per event: the timeline entries and the emails.
 */
@Injectable()
export class CommerceOutbox implements OnApplicationBootstrap, OnModuleDestroy {
  readonly relay: OutboxRelay;
  private readonly listeners: OutboxListener[];

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(RpcClient) rpc: RpcClient,
    @Inject(CommerceReactions) reactions: CommerceReactions,
    @Inject(OUTBOX_SETTINGS) settings: OutboxSettings,
    @Inject(COMMERCE_LOGGER) logger: Logger,
  ) {
    const common = {
      dataSource,
      schema: 'commerce',
      nc: rpc.connection,
      prefix: settings.prefix,
      stream: COMMERCE_STREAM,
      service: 'commerce',
      logger,
    };
    this.relay = new OutboxRelay({ ...common, pollMs: settings.pollMs });
    this.listeners = [
      new OutboxListener<CommerceDomainEvent>({
        ...common,
        name: 'commerce-timeline',
        mode: 'transaction',
        handle: (event, manager) => reactions.toTimeline(event, manager),
      }),
      new OutboxListener<CommerceDomainEvent>({
        ...common,
        name: 'commerce-mail',
        mode: 'effect',
        handle: (event) => reactions.toMail(event),
      }),
    ];
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
