import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { liveOfTerminals, TERMINALS_EVENTS, type TerminalsDomainEvent } from '@tinkerdesk/contracts';
import { LivePublisher, RpcClient, type Logger } from '@tinkerdesk/nest-common';
import { ServiceOutbox, type ServiceOutboxOptions, type ServiceOutboxSettings } from '@tinkerdesk/persistence';
import { OUTBOX_DATA_SOURCE } from '../database/outbox-data-source.js';
import { TERMINALS_LOGGER } from '../logger.token.js';
import { PushQueue } from '../terminals/push-queue.js';
import { TERMINALS_STREAM } from './terminals-events.js';

export const TERMINALS_OUTBOX_SETTINGS = Symbol('TERMINALS_OUTBOX_SETTINGS');

export type TerminalsOutboxSettings = ServiceOutboxSettings;

/** The push listener's reaction: a created share with a push to make is queued for delivery. */
export async function queuePush(event: TerminalsDomainEvent, queue: Pick<PushQueue, 'enqueue'>): Promise<void> {
  if (event.name !== TERMINALS_EVENTS.shareCreated || !event.payload.push) return;
  // The job id is the share id: queued again after a crash, it is still one delivery.
  await queue.enqueue({ shareId: event.payload.share.id, terminalId: event.payload.share.terminalId, message: event.payload.push });
}

/**
 * The outbox of terminals at run time: the relay (committed events → the TERMINALS_EVENTS stream)
 * and the push listener, which queues each created share's push delivery after its commit (`effect`
 * mode: the queue is Redis, a network call outside any transaction). Its NATS connection is its own:
 * it closes once everything has stopped.
 */
@Injectable()
export class TerminalsOutbox extends ServiceOutbox<TerminalsDomainEvent> implements OnApplicationShutdown {
  constructor(
    @Inject(OUTBOX_DATA_SOURCE) dataSource: ServiceOutboxOptions<TerminalsDomainEvent>['dataSource'],
    @Inject(RpcClient) private readonly nats: RpcClient,
    @Inject(PushQueue) queue: PushQueue,
    @Inject(TERMINALS_OUTBOX_SETTINGS) settings: TerminalsOutboxSettings,
    @Inject(TERMINALS_LOGGER) logger: Logger,
  ) {
    const live = new LivePublisher(nats.connection, settings.prefix);
    super({
      dataSource,
      service: 'terminals',
      stream: TERMINALS_STREAM,
      nc: nats.connection,
      settings,
      logger,
      listeners: [
        { name: 'terminals-push', mode: 'effect', handle: (event) => queuePush(event, queue) },
        // The owner's open pages hear of a share arriving (docs/api.md "Live events").
        { name: 'terminals-live', mode: 'effect', from: 'new', handle: (event) => live.publish(liveOfTerminals(event), event.id) },
      ],
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.nats.close();
  }
}
