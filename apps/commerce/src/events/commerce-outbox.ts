import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { liveOfCommerce, type CommerceDomainEvent } from '@tinkerdesk/contracts';
import { LivePublisher, RpcClient, type Logger } from '@tinkerdesk/nest-common';
import { ServiceOutbox, type ServiceOutboxSettings } from '@tinkerdesk/persistence';
import type { DataSource } from 'typeorm';
import { COMMERCE_LOGGER } from '../logger.token.js';
import { CommerceReactions } from './commerce-reactions.js';
import { COMMERCE_STREAM } from './commerce-events.js';

export const OUTBOX_SETTINGS = Symbol('OUTBOX_SETTINGS');

export type OutboxSettings = ServiceOutboxSettings;

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
        // The accounts each event concerns hear of it on the live stream (minimal {type, ids}; docs/api.md "Live events").
        { name: 'commerce-live', mode: 'effect', handle: (event) => live.publish(liveOfCommerce(event), event.id) },
      ],
    });
  }
}
