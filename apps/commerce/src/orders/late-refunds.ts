import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from '@tinkerdesk/nest-common';
import { COMMERCE_LOGGER } from '../logger.token.js';
import { OrdersService } from './orders.service.js';

export const LATE_REFUND_SETTINGS = Symbol('LATE_REFUND_SETTINGS');

export interface LateRefundSettings {
  /** How often this replica looks for late payments whose refund is still to make. */
  retrySeconds: number;
}

/**
 * The retry of automatic refunds: a late payment is refunded right after it is recorded; when the
 * provider refused or could not be reached (or the replica stopped), this finishes it later. Replicas
 * lease their rows (OrdersRepository.leaseLateRefunds), and the provider's idempotency key makes a
 * second try refund nothing twice.
 */
@Injectable()
export class LateRefunds implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    @Inject(OrdersService) private readonly orders: OrdersService,
    @Inject(LATE_REFUND_SETTINGS) private readonly settings: LateRefundSettings,
    @Inject(COMMERCE_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running = this.orders
        .retryLateRefunds(this.settings.retrySeconds)
        .catch((error: unknown) =>
          this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'late refunds: retry failed (tried again)'),
        );
    }, this.settings.retrySeconds * 1000);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
