import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import type { CommerceConfig } from '../config.js';
import { COMMERCE_CONFIG } from '../core/core.module.js';
import { MethodsModule } from '../methods/methods.module.js';
import { IdentityModule } from '../notify/identity.module.js';
import { PaymentsModule } from '../payments/payments.module.js';
import { ProductsModule } from '../products/products.module.js';
import { ServicesModule } from '../services/services.module.js';
import { CLOCK, systemClock } from './clock.js';
import { PLAN_QUEUE, PlanProcessor, PlanScheduler, SCHEDULER_SETTINGS, type SchedulerSettings } from './plan-scheduler.js';
import { PlansController } from './plans.controller.js';
import { PlansRepository } from './plans.repository.js';
import { PLANS_SETTINGS, PlansService, type PlansSettings } from './plans.service.js';

/** Plans, their charges and their scheduler on BullMQ (`plan`, `plan_charge`): exports PlansService. */
@Module({
  imports: [BullModule.registerQueue({ name: PLAN_QUEUE }), MethodsModule, ServicesModule, ProductsModule, PaymentsModule, IdentityModule],
  controllers: [PlansController],
  providers: [
    PlansRepository,
    PlansService,
    PlanScheduler,
    PlanProcessor,
    { provide: CLOCK, useValue: systemClock },
    {
      provide: PLANS_SETTINGS,
      useFactory: (config: CommerceConfig): PlansSettings => ({ publicUrl: config.PUBLIC_URL }),
      inject: [COMMERCE_CONFIG],
    },
    {
      provide: SCHEDULER_SETTINGS,
      useFactory: (config: CommerceConfig): SchedulerSettings => ({
        sweepSeconds: config.PLAN_SWEEP_SECONDS,
        concurrency: config.PLAN_CONCURRENCY,
      }),
      inject: [COMMERCE_CONFIG],
    },
  ],
  exports: [PlansService],
})
export class PlansModule {}
