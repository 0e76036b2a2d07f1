import { Module } from '@nestjs/common';
import type { CommerceConfig } from '../config.js';
import { COMMERCE_CONFIG } from '../core/core.module.js';
import { IdentityModule } from '../notify/identity.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { ORDERS_SETTINGS, type OrdersSettings } from '../orders/orders.service.js';
import { TimelineModule } from '../timeline/timeline.module.js';
import { CommerceOutbox, IdentityEventsListener, OUTBOX_SETTINGS, type OutboxSettings } from './commerce-outbox.js';
import { CommerceReactions } from './commerce-reactions.js';
import { PendingMailRepository } from './pending-mail.repository.js';

/**
 * Commerce's outbox at run time: the relay and the listeners (timeline entries, emails) with the
 * emails that hold a secret (`pending_mail`), and the listener of identity's events (guest orders
 * given to the account that verifies their address). Exports nothing: the features record events with
 * recordCommerceEvents in their own transactions.
 */
@Module({
  imports: [TimelineModule, IdentityModule, OrdersModule],
  providers: [
    CommerceReactions,
    CommerceOutbox,
    IdentityEventsListener,
    PendingMailRepository,
    {
      provide: OUTBOX_SETTINGS,
      useFactory: (config: CommerceConfig): OutboxSettings => ({
        prefix: config.NATS_PREFIX,
        pollMs: config.OUTBOX_POLL_MS,
        retentionDays: config.OUTBOX_RETENTION_DAYS,
        retentionSweepSeconds: config.RETENTION_SWEEP_SECONDS,
      }),
      inject: [COMMERCE_CONFIG],
    },
    {
      provide: ORDERS_SETTINGS,
      useFactory: (config: CommerceConfig): OrdersSettings => ({ publicUrl: config.PUBLIC_URL }),
      inject: [COMMERCE_CONFIG],
    },
  ],
})
export class EventsModule {}
