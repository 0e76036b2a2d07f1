import { Module } from '@nestjs/common';
import type { CommerceConfig } from '../config.js';
import { COMMERCE_CONFIG } from '../core/core.module.js';
import { IdentityModule } from '../notify/identity.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { ORDERS_SETTINGS, type OrdersSettings } from '../orders/orders.service.js';
import { ProductsModule } from '../products/products.module.js';
import { ServicesModule } from '../services/services.module.js';
import { RequestsController } from './requests.controller.js';
import { RequestsRepository } from './requests.repository.js';
import { RequestsService } from './requests.service.js';

/** Payment requests (the `payment_request` table): exports RequestsService. */
@Module({
  imports: [OrdersModule, ServicesModule, ProductsModule, IdentityModule],
  controllers: [RequestsController],
  providers: [
    RequestsRepository,
    RequestsService,
    {
      provide: ORDERS_SETTINGS,
      useFactory: (config: CommerceConfig): OrdersSettings => ({ publicUrl: config.PUBLIC_URL }),
      inject: [COMMERCE_CONFIG],
    },
  ],
  exports: [RequestsService],
})
export class RequestsModule {}
