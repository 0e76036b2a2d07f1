import { Module } from '@nestjs/common';
import type { CommerceConfig } from '../config.js';
import { COMMERCE_CONFIG } from '../core/core.module.js';
import { IdentityModule } from '../notify/identity.module.js';
import { PaymentsModule } from '../payments/payments.module.js';
import { ProductsModule } from '../products/products.module.js';
import { ServicesModule } from '../services/services.module.js';
import { LATE_REFUND_SETTINGS, LateRefunds, type LateRefundSettings } from './late-refunds.js';
import { OrdersController } from './orders.controller.js';
import { OrdersRepository } from './orders.repository.js';
import { ORDERS_SETTINGS, OrdersService, type OrdersSettings } from './orders.service.js';
import { SalesController } from './sales.controller.js';
import { SalesRepository } from './sales.repository.js';
import { SALES_CLOCK, SalesService, type SalesClock } from './sales.service.js';

/**
 * Orders, their payment sessions, receipts, replies, late payments, provider events and idempotency
 * keys, and the seller's overview (SalesService: earnings, order pages, the seen marker): exports
 * OrdersService. The payment request an order answers is the requests feature's
 * (RequestsService registers with OrdersService.useRequests).
 */
@Module({
  imports: [ServicesModule, ProductsModule, PaymentsModule, IdentityModule],
  controllers: [OrdersController, SalesController],
  providers: [
    OrdersRepository,
    OrdersService,
    LateRefunds,
    SalesRepository,
    SalesService,
    { provide: SALES_CLOCK, useValue: ((): Date => new Date()) satisfies SalesClock },
    {
      provide: ORDERS_SETTINGS,
      useFactory: (config: CommerceConfig): OrdersSettings => ({ publicUrl: config.PUBLIC_URL }),
      inject: [COMMERCE_CONFIG],
    },
    {
      provide: LATE_REFUND_SETTINGS,
      useFactory: (config: CommerceConfig): LateRefundSettings => ({ retrySeconds: config.LATE_REFUND_RETRY_SECONDS }),
      inject: [COMMERCE_CONFIG],
    },
  ],
  exports: [OrdersService],
})
export class OrdersModule {}
