import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  IDENTITY_DOMAIN_EVENTS,
  IDENTITY_EVENTS_STREAM,
  liveOfCommerce,
  type CommerceDomainEvent,
  type IdentityDomainEvent,
} from '@tinkerdesk/contracts';
import { LivePublisher, RpcClient, type Logger } from '@tinkerdesk/nest-common';
import { OutboxListener, ServiceOutbox, type ServiceOutboxSettings, type TransactionManager } from '@tinkerdesk/persistence';
import type { DataSource } from 'typeorm';
import { COMMERCE_LOGGER } from '../logger.token.js';
import { OrdersService } from '../orders/orders.service.js';
import { CommerceReactions } from './commerce-reactions.js';
import { COMMERCE_STREAM } from './commerce-events.js';

export const OUTBOX_SETTINGS = Symbol('OUTBOX_SETTINGS');

export type OutboxSettings = ServiceOutboxSettings;

/**
 * What commerce does when identity says an account verified an address: the orders placed signed out
 * with it become the account's (in the listener's transaction, once per event; claiming twice changes nothing).
 */
export async function claimOrders(
  event: IdentityDomainEvent,
  manager: TransactionManager | null,
  orders: Pick<OrdersService, 'claimByEmail'>,
) {
  if (event.name !== IDENTITY_DOMAIN_EVENTS.emailVerified || !manager) return;
  await orders.claimByEmail(manager, event.payload.userId, event.payload.email);
}

/**
 * Commerce's outbox at run time: the relay (committed events → JetStream) and the two listeners
 * that do what follows a change, once per event: the timeline entries and the emails.
 */
@Injectable()
export class CommerceOutbox extends ServiceOutbox<CommerceDomainEvent> {
  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(RpcClient) rpc: RpcClient,
    @Inject(CommerceReactions) reactions: CommerceReactions,
    @Inject(OUTBOX_SETTINGS) settings: OutboxSettings,
    @Inject(COMMERCE_LOGGER) logger: Logger,
  ) {
    const live = new LivePublisher(rpc.connection, settings.prefix);
    super({
      dataSource,
      service: 'commerce',
      stream: COMMERCE_STREAM,
      nc: rpc.connection,
      settings,
      logger,
      listeners: [
        { name: 'commerce-timeline', mode: 'transaction', handle: (event, manager) => reactions.toTimeline(event, manager) },
        { name: 'commerce-mail', mode: 'effect', handle: (event) => reactions.toMail(event) },
        // The accounts each event concerns hear of it on the live stream (minimal {type, ids}; docs/api.md "Live events"),
        // from the events published after this listener first ran: older ones are of no use to an open page.
        { name: 'commerce-live', mode: 'effect', from: 'new', handle: (event) => live.publish(liveOfCommerce(event), event.id) },
      ],
    });
  }
}

/**
 * A listener of identity's stream (IDENTITY_EVENTS), its processed events kept in commerce's schema:
 * `commerce-order-claims` gives guest orders to the account that verifies their address. Started once
 * the application has bootstrapped, stopped first on shutdown, like the outbox's own listeners.
 */
@Injectable()
export class IdentityEventsListener implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly listener: OutboxListener<IdentityDomainEvent>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(RpcClient) rpc: RpcClient,
    @Inject(OrdersService) orders: OrdersService,
    @Inject(OUTBOX_SETTINGS) settings: OutboxSettings,
    @Inject(COMMERCE_LOGGER) logger: Logger,
  ) {
    this.listener = new OutboxListener<IdentityDomainEvent>({
      dataSource,
      schema: 'commerce',
      nc: rpc.connection,
      prefix: settings.prefix,
      stream: IDENTITY_EVENTS_STREAM,
      service: 'identity',
      logger,
      name: 'commerce-order-claims',
      mode: 'transaction',
      handle: (event, manager) => claimOrders(event, manager, orders),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.listener.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.listener.stop();
  }
}
