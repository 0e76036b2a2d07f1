import { BullModule } from '@nestjs/bullmq';
import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { PLATFORM_VERSION } from '@tinkerdesk/contracts';
import { queueRoot, RpcClient, type Logger } from '@tinkerdesk/nest-common';
import { ServiceDatabaseModule, ServiceHealthModule } from '@tinkerdesk/persistence';
import type { CommerceConfig } from './config.js';
import { dataSourceOptions } from './database/data-source.js';
import { COMMERCE_LOGGER } from './logger.token.js';
import { CommerceOutbox, OUTBOX_SETTINGS } from './events/commerce-outbox.js';
import { CommerceReactions } from './events/commerce-reactions.js';
import { IdentityDirectory } from './notify/identity-directory.js';
import { OrdersController } from './orders/orders.controller.js';
import { OrdersRepository } from './orders/orders.repository.js';
import { LateRefunds, LATE_REFUND_SETTINGS } from './orders/late-refunds.js';
import { ORDERS_SETTINGS, OrdersService } from './orders/orders.service.js';
import { PAYMENT_PROVIDERS_TOKEN, type PaymentProviders } from './payments/payment-provider.js';
import { StripePaymentProvider } from './payments/stripe.provider.js';
import { ProductImagesController } from './products/product-images.controller.js';
import { ProductImagesRepository } from './products/product-images.repository.js';
import { ProductImagesService } from './products/product-images.service.js';
import { ProductsController } from './products/products.controller.js';
import { ProductsRepository } from './products/products.repository.js';
import { ProductsService } from './products/products.service.js';
import { StorefrontService } from './products/storefront.service.js';
import { SandboxController } from './sandbox/sandbox.controller.js';
import { SANDBOX_SETTINGS, SandboxPaymentProvider } from './sandbox/sandbox.provider.js';
import { SandboxRepository } from './sandbox/sandbox.repository.js';
import { SandboxService } from './sandbox/sandbox.service.js';
import { ProviderServicesController } from './services/provider-services.controller.js';
import { ProviderServicesRepository } from './services/provider-services.repository.js';
import { ProviderServicesService } from './services/provider-services.service.js';
import { RequestsController } from './requests/requests.controller.js';
import { RequestsRepository } from './requests/requests.repository.js';
import { RequestsService } from './requests/requests.service.js';
import { TimelineController } from './timeline/timeline.controller.js';
import { TimelineRepository } from './timeline/timeline.repository.js';
import { TimelineService } from './timeline/timeline.service.js';
import { MethodsController } from './methods/methods.controller.js';
import { MethodsRepository } from './methods/methods.repository.js';
import { METHODS_SETTINGS, MethodsService } from './methods/methods.service.js';
import { CLOCK, systemClock } from './plans/clock.js';
import { PLAN_QUEUE, PlanProcessor, PlanScheduler, SCHEDULER_SETTINGS } from './plans/plan-scheduler.js';
import { PlansController } from './plans/plans.controller.js';
import { PlansRepository } from './plans/plans.repository.js';
import { PLANS_SETTINGS, PlansService } from './plans/plans.service.js';

@Module({})
export class AppModule implements OnApplicationShutdown {
  constructor(@Inject(RpcClient) private readonly rpc: RpcClient) {}

  static register(config: CommerceConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceDatabaseModule.forRoot(dataSourceOptions(config.DATABASE_URL)),
        ServiceHealthModule.forService({ service: 'commerce', version: PLATFORM_VERSION }),
        queueRoot({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX, name: 'commerce-queues' }),
        BullModule.registerQueue({ name: PLAN_QUEUE }),
      ],
      controllers: [
        ProviderServicesController,
        ProductsController,
        ProductImagesController,
        OrdersController,
        SandboxController,
        RequestsController,
        TimelineController,
        MethodsController,
        PlansController,
      ],
      providers: [
        { provide: COMMERCE_LOGGER, useValue: logger },
        {
          // Commerce's own connection for asking identity (names, addresses, mail).
          provide: RpcClient,
          useFactory: () =>
            RpcClient.connect({
              natsUrl: config.NATS_URL,
              prefix: config.NATS_PREFIX,
              timeoutMs: 5000,
              name: `commerce-client-${process.pid}`,
            }),
        },
        {
          provide: StripePaymentProvider,
          useFactory: () =>
            new StripePaymentProvider(
              {
                secretKey: config.STRIPE_SECRET_KEY,
                webhookSecret: config.STRIPE_WEBHOOK_SECRET,
                apiUrl: config.STRIPE_API_URL,
                timeoutMs: config.STRIPE_TIMEOUT_MS,
              },
              logger,
            ),
        },
        { provide: SANDBOX_SETTINGS, useValue: { publicUrl: config.PUBLIC_URL, sessionMinutes: config.SANDBOX_SESSION_MINUTES } },
        { provide: ORDERS_SETTINGS, useValue: { publicUrl: config.PUBLIC_URL } },
        { provide: LATE_REFUND_SETTINGS, useValue: { retrySeconds: config.LATE_REFUND_RETRY_SECONDS } },
        { provide: PLANS_SETTINGS, useValue: { publicUrl: config.PUBLIC_URL } },
        { provide: METHODS_SETTINGS, useValue: { publicUrl: config.PUBLIC_URL, stripeConfigured: Boolean(config.STRIPE_SECRET_KEY) } },
        {
          provide: SCHEDULER_SETTINGS,
          useValue: {
            sweepSeconds: config.PLAN_SWEEP_SECONDS,
            concurrency: config.PLAN_CONCURRENCY,
          },
        },
        { provide: CLOCK, useValue: systemClock },
        { provide: OUTBOX_SETTINGS, useValue: { prefix: config.NATS_PREFIX, pollMs: config.OUTBOX_POLL_MS } },
        CommerceReactions,
        CommerceOutbox,
        {
          provide: PAYMENT_PROVIDERS_TOKEN,
          useFactory: (stripe: StripePaymentProvider, sandbox: SandboxPaymentProvider): PaymentProviders => ({ stripe, sandbox }),
          inject: [StripePaymentProvider, SandboxPaymentProvider],
        },
        IdentityDirectory,
        ProviderServicesRepository,
        ProviderServicesService,
        ProductsRepository,
        ProductsService,
        ProductImagesRepository,
        ProductImagesService,
        StorefrontService,
        OrdersRepository,
        OrdersService,
        LateRefunds,
        SandboxRepository,
        SandboxPaymentProvider,
        SandboxService,
        RequestsRepository,
        RequestsService,
        TimelineRepository,
        TimelineService,
        MethodsRepository,
        MethodsService,
        PlansRepository,
        PlansService,
        PlanScheduler,
        PlanProcessor,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rpc.close();
  }
}
