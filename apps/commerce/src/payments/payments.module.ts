import { Module } from '@nestjs/common';
import type { Logger } from '@tinkerdesk/nest-common';
import type { CommerceConfig } from '../config.js';
import { COMMERCE_CONFIG } from '../core/core.module.js';
import { COMMERCE_LOGGER } from '../logger.token.js';
import { SandboxProviderModule } from '../sandbox/sandbox-provider.module.js';
import { SandboxPaymentProvider } from '../sandbox/sandbox.provider.js';
import { PAYMENT_PROVIDERS_TOKEN, type PaymentProviders } from './payment-provider.js';
import { StripePaymentProvider } from './stripe.provider.js';

/** The payment providers by id (PAYMENT_PROVIDERS_TOKEN), and Stripe itself (its webhooks are verified by the orders controller). */
@Module({
  imports: [SandboxProviderModule],
  providers: [
    {
      provide: StripePaymentProvider,
      useFactory: (config: CommerceConfig, logger: Logger) =>
        new StripePaymentProvider(
          {
            secretKey: config.STRIPE_SECRET_KEY,
            webhookSecret: config.STRIPE_WEBHOOK_SECRET,
            apiUrl: config.STRIPE_API_URL,
            timeoutMs: config.STRIPE_TIMEOUT_MS,
          },
          logger,
        ),
      inject: [COMMERCE_CONFIG, COMMERCE_LOGGER],
    },
    {
      provide: PAYMENT_PROVIDERS_TOKEN,
      useFactory: (stripe: StripePaymentProvider, sandbox: SandboxPaymentProvider): PaymentProviders => ({ stripe, sandbox }),
      inject: [StripePaymentProvider, SandboxPaymentProvider],
    },
  ],
  exports: [PAYMENT_PROVIDERS_TOKEN, StripePaymentProvider],
})
export class PaymentsModule {}
