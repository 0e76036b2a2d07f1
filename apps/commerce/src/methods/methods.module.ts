import { Module } from '@nestjs/common';
import type { CommerceConfig } from '../config.js';
import { COMMERCE_CONFIG } from '../core/core.module.js';
import { IdentityModule } from '../notify/identity.module.js';
import { PaymentsModule } from '../payments/payments.module.js';
import { MethodsController } from './methods.controller.js';
import { MethodsRepository } from './methods.repository.js';
import { METHODS_SETTINGS, MethodsService, type MethodsSettings } from './methods.service.js';

/** Saved cards and the payers' customers at the providers (`payment_method`, `payment_customer`): exports MethodsService. */
@Module({
  imports: [PaymentsModule, IdentityModule],
  controllers: [MethodsController],
  providers: [
    MethodsRepository,
    MethodsService,
    {
      provide: METHODS_SETTINGS,
      useFactory: (config: CommerceConfig): MethodsSettings => ({
        publicUrl: config.PUBLIC_URL,
        stripeConfigured: Boolean(config.STRIPE_SECRET_KEY),
      }),
      inject: [COMMERCE_CONFIG],
    },
  ],
  exports: [MethodsService],
})
export class MethodsModule {}
