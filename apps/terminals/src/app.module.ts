import { Module, type DynamicModule } from '@nestjs/common';
import { PLATFORM_VERSION } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import { ServiceDatabaseModule, ServiceHealthModule } from '@tinkerdesk/persistence';
import type { TerminalsConfig } from './config.js';
import { dataSourceOptions } from './database/data-source.js';
import { TERMINALS_LOGGER } from './logger.token.js';
import { PUSH_QUEUE_SETTINGS, PushQueue } from './push/push-queue.js';
import { PushSender } from './push/push-sender.js';
import { TerminalsController } from './terminals/terminals.controller.js';
import { TerminalsRepository } from './terminals/terminals.repository.js';
import { TerminalsService } from './terminals/terminals.service.js';

@Module({})
export class AppModule {
  static register(config: TerminalsConfig, logger: Logger): DynamicModule {
    const allowedHosts = new Set(
      config.PUSH_ALLOWED_HOSTS.split(/[\s,]+/)
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    );
    return {
      module: AppModule,
      imports: [
        ServiceDatabaseModule.forRoot(dataSourceOptions(config.DATABASE_URL)),
        ServiceHealthModule.forService({ service: 'terminals', version: PLATFORM_VERSION }),
      ],
      controllers: [TerminalsController],
      providers: [
        { provide: TERMINALS_LOGGER, useValue: logger },
        {
          provide: PushSender,
          useValue: new PushSender({
            publicKey: config.VAPID_PUBLIC_KEY,
            privateKey: config.VAPID_PRIVATE_KEY,
            subject: config.VAPID_SUBJECT,
            ttlSeconds: config.PUSH_TTL_SECONDS,
            timeoutMs: config.PUSH_TIMEOUT_MS,
            allowedHosts,
          }),
        },
        {
          provide: PUSH_QUEUE_SETTINGS,
          useValue: {
            redisUrl: config.REDIS_URL,
            prefix: config.REDIS_PREFIX,
            attempts: config.PUSH_ATTEMPTS,
            retryDelayMs: config.PUSH_RETRY_DELAY_MS,
            ttlSeconds: config.PUSH_TTL_SECONDS,
          },
        },
        PushQueue,
        TerminalsRepository,
        TerminalsService,
      ],
    };
  }
}
