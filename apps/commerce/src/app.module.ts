import { Module, type DynamicModule } from '@nestjs/common';
import { PLATFORM_VERSION } from '@tinkerdesk/contracts';
import { queueRoot, type Logger } from '@tinkerdesk/nest-common';
import { IdempotencyModule, ServiceDatabaseModule, ServiceHealthModule } from '@tinkerdesk/persistence';
import type { CommerceConfig } from './config.js';
import { CommerceCoreModule } from './core/core.module.js';
import { COMMERCE_KEYS } from './database/idempotency-keys.js';
import { COMMERCE_LOGGER } from './logger.token.js';
import { dataSourceOptions } from './database/data-source.js';
import { EventsModule } from './events/events.module.js';
import { MethodsModule } from './methods/methods.module.js';
import { OrdersModule } from './orders/orders.module.js';
import { PlansModule } from './plans/plans.module.js';
import { ProductsModule } from './products/products.module.js';
import { RequestsModule } from './requests/requests.module.js';
import { SandboxModule } from './sandbox/sandbox.module.js';
import { ServicesModule } from './services/services.module.js';
import { TimelineModule } from './timeline/timeline.module.js';

/**
 * Commerce: the database, health and queue roots, the shared core (config, logger, NATS), and one
 * module per feature, each exporting only its service (docs/architecture.md, "Commerce's modules").
 */
@Module({})
export class AppModule {
  static register(config: CommerceConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceDatabaseModule.forRoot(dataSourceOptions(config.DATABASE_URL)),
        ServiceHealthModule.forService({ service: 'commerce', version: PLATFORM_VERSION }),
        queueRoot({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX, name: 'commerce-queues' }),
        CommerceCoreModule.register(config, logger),
        IdempotencyModule.forService(COMMERCE_KEYS, COMMERCE_LOGGER),
        ServicesModule,
        ProductsModule,
        OrdersModule,
        RequestsModule,
        SandboxModule,
        MethodsModule,
        PlansModule,
        TimelineModule,
        EventsModule,
      ],
    };
  }
}
