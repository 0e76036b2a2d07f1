import { BullModule } from '@nestjs/bullmq';
import { Module, type DynamicModule } from '@nestjs/common';
import { PLATFORM_VERSION } from '@tinkerdesk/contracts';
import { queueRoot, type Logger } from '@tinkerdesk/nest-common';
import { ServiceDatabaseModule, ServiceHealthModule } from '@tinkerdesk/persistence';
import type { TerminalsConfig } from './config.js';
import { dataSourceOptions } from './database/data-source.js';
import { TERMINALS_LOGGER } from './logger.token.js';
import { PUSH_QUEUE, PUSH_QUEUE_SETTINGS, PushProcessor, PushQueue } from './push/push-queue.js';
import { PushSender } from './push/push-sender.js';
import { TerminalsController } from './terminals/terminals.controller.js';
import { TerminalsRepository } from './terminals/terminals.repository.js';
import { TerminalsService } from './terminals/terminals.service.js';
import { IMAGE_SWEEP_SETTINGS, ImageSweep } from './passes/image-sweep.js';
import { PassesController } from './passes/passes.controller.js';
import { PassesRepository } from './passes/passes.repository.js';
import { PASSES_PUBLIC_URL, PassesService } from './passes/passes.service.js';
import { loadWalletCredentials } from './passes/wallet-credentials.js';
import { Wallets, WALLETS } from './passes/wallets.js';

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
        queueRoot({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX, name: 'terminals-queues' }),
        BullModule.registerQueue({ name: PUSH_QUEUE }),
      ],
      controllers: [TerminalsController, PassesController],
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
            attempts: config.PUSH_ATTEMPTS,
            retryDelayMs: config.PUSH_RETRY_DELAY_MS,
            ttlSeconds: config.PUSH_TTL_SECONDS,
          },
        },
        PushQueue,
        PushProcessor,
        TerminalsRepository,
        TerminalsService,
        // Wallet passes (issue 19).
        {
          provide: WALLETS,
          useValue: new Wallets({
            credentials: loadWalletCredentials(config),
            publicUrl: config.PUBLIC_URL,
            organizationName: config.APPLE_ORGANIZATION_NAME,
          }),
        },
        { provide: PASSES_PUBLIC_URL, useValue: config.PUBLIC_URL },
        { provide: IMAGE_SWEEP_SETTINGS, useValue: { intervalMs: config.PASS_IMAGE_SWEEP_SECONDS * 1000, graceSeconds: 3600 } },
        PassesRepository,
        PassesService,
        ImageSweep,
      ],
    };
  }
}
