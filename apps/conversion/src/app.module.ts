import { Module, type DynamicModule, type OnApplicationShutdown, Inject } from '@nestjs/common';
import { CONVERSION_QUEUE, PLATFORM_VERSION } from '@tinkerdesk/contracts';
import { createRedis, pingRedis, type Logger } from '@tinkerdesk/nest-common';
import { ServiceDatabaseModule, ServiceHealthModule } from '@tinkerdesk/persistence';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { dataSourceOptions } from './database/data-source.js';
import { ConversionJobsController } from './jobs/conversion-jobs.controller.js';
import { CONVERSION_QUEUE_TOKEN, ConversionJobsService, LOGGER } from './jobs/conversion-jobs.service.js';

interface ListenerConfig {
  DATABASE_URL: string;
  REDIS_URL: string;
  REDIS_PREFIX: string;
}

const REDIS = Symbol('REDIS');

@Module({})
export class AppModule implements OnApplicationShutdown {
  constructor(
    @Inject(CONVERSION_QUEUE_TOKEN) private readonly queue: Queue,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  static register(config: ListenerConfig, logger: Logger): DynamicModule {
    const redis = createRedis(config.REDIS_URL, 'conversion-listener', { forBullmq: true });
    redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis connection error'));
    const queue = new Queue(CONVERSION_QUEUE, { connection: redis, prefix: config.REDIS_PREFIX });
    queue.on('error', (err: Error) => logger.warn({ err: err.message }, 'queue error'));
    return {
      module: AppModule,
      imports: [
        ServiceDatabaseModule.forRoot(dataSourceOptions(config.DATABASE_URL)),
        ServiceHealthModule.forService(
          { service: 'conversion', version: PLATFORM_VERSION },
          {
            redis: () => pingRedis(redis),
          },
        ),
      ],
      controllers: [ConversionJobsController],
      providers: [
        ConversionJobsService,
        { provide: CONVERSION_QUEUE_TOKEN, useValue: queue },
        { provide: REDIS, useValue: redis },
        { provide: LOGGER, useValue: logger },
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    this.redis.disconnect();
  }
}
