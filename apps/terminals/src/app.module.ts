import { Module, type DynamicModule } from '@nestjs/common';
import { PLATFORM_VERSION } from '@tinkerdesk/contracts';
import { queueRoot, type Logger } from '@tinkerdesk/nest-common';
import { IdempotencyModule, ServiceDatabaseModule, ServiceHealthModule } from '@tinkerdesk/persistence';
import type { TerminalsConfig } from './config.js';
import { dataSourceOptions } from './database/data-source.js';
import { TERMINALS_KEYS } from './database/idempotency-keys.js';
import { TERMINALS_LOGGER } from './logger.token.js';
import { PassesModule } from './passes/passes.module.js';
import { TerminalsModule } from './terminals/terminals.module.js';

/** The service's logger, visible to every feature module. */
@Module({})
class LoggerModule {
  static register(logger: Logger): DynamicModule {
    return {
      module: LoggerModule,
      global: true,
      providers: [{ provide: TERMINALS_LOGGER, useValue: logger }],
      exports: [TERMINALS_LOGGER],
    };
  }
}

/**
 * The terminals service: the database, health and queues, and its features (terminals with their
 * shares and push delivery, which imports Web Push; wallet passes). Each feature lists its own providers.
 */
@Module({})
export class AppModule {
  static register(config: TerminalsConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        LoggerModule.register(logger),
        ServiceDatabaseModule.forRoot(dataSourceOptions(config.DATABASE_URL)),
        ServiceHealthModule.forService({ service: 'terminals', version: PLATFORM_VERSION }),
        IdempotencyModule.forService(TERMINALS_KEYS, TERMINALS_LOGGER),
        queueRoot({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX, name: 'terminals-queues' }),
        TerminalsModule.register(config),
        PassesModule.register(config, logger),
      ],
    };
  }
}
