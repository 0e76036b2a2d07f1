import { BullModule } from '@nestjs/bullmq';
import { Module, type DynamicModule } from '@nestjs/common';
import { RpcClient } from '@tinkerdesk/nest-common';
import type { TerminalsConfig } from '../config.js';
import { outboxDataSource } from '../database/outbox-data-source.js';
import { TERMINALS_OUTBOX_SETTINGS, TerminalsOutbox } from '../events/terminals-outbox.js';
import { PushModule } from '../push/push.module.js';
import { PUSH_QUEUE, PUSH_QUEUE_SETTINGS, PushProcessor, PushQueue } from './push-queue.js';
import { TerminalsController } from './terminals.controller.js';
import { TerminalsRepository } from './terminals.repository.js';
import { TerminalsService } from './terminals.service.js';

/**
 * Terminals and their shares: registration, inboxes, and the push delivery of each share (queued by
 * the outbox's push listener after the share commits, delivered by the push queue's processor).
 */
@Module({})
export class TerminalsModule {
  static register(config: TerminalsConfig): DynamicModule {
    return {
      module: TerminalsModule,
      imports: [PushModule.register(config), BullModule.registerQueue({ name: PUSH_QUEUE })],
      controllers: [TerminalsController],
      providers: [
        {
          provide: PUSH_QUEUE_SETTINGS,
          useValue: { attempts: config.PUSH_ATTEMPTS, retryDelayMs: config.PUSH_RETRY_DELAY_MS, ttlSeconds: config.PUSH_TTL_SECONDS },
        },
        {
          // The outbox's own NATS connection (its relay publishes to JetStream, its listener consumes).
          provide: RpcClient,
          useFactory: () =>
            RpcClient.connect({
              natsUrl: config.NATS_URL,
              prefix: config.NATS_PREFIX,
              timeoutMs: 5000,
              name: `terminals-outbox-${process.pid}`,
            }),
        },
        {
          provide: TERMINALS_OUTBOX_SETTINGS,
          useValue: {
            prefix: config.NATS_PREFIX,
            pollMs: config.OUTBOX_POLL_MS,
            retentionDays: config.OUTBOX_RETENTION_DAYS,
            retentionSweepSeconds: config.RETENTION_SWEEP_SECONDS,
          },
        },
        PushQueue,
        PushProcessor,
        outboxDataSource,
        TerminalsOutbox,
        TerminalsRepository,
        TerminalsService,
      ],
      exports: [TerminalsService],
    };
  }
}
