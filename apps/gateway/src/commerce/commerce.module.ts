import { Module } from '@nestjs/common';
import { OrdersController } from './orders.controller.js';
import { PaymentsController } from './payments.controller.js';
import { ServicesController } from './services.controller.js';
import { Viewers } from './viewer.js';
import { OptionalBearerGuard } from '../auth/bearer.guard.js';

/** Commerce calls (services, products, orders, payments): translated to the commerce service over NATS. */
@Module({ controllers: [ServicesController, OrdersController, PaymentsController], providers: [Viewers, OptionalBearerGuard] })
export class CommerceModule {}
