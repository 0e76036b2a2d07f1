import { Module, type DynamicModule, type OnApplicationShutdown, Inject } from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { CONVERSION_BUCKET, PLATFORM_VERSION } from '@tinkerdesk/contracts';
import {
  createRedis,
  NATS_RECONNECT,
  openConversionFiles,
  pingRedis,
  queueRoot,
  savedFileStorage,
  type ConfigOf,
  type Logger,
} from '@tinkerdesk/nest-common';
import { IdempotencyModule, ServiceDatabaseModule, ServiceHealthModule } from '@tinkerdesk/persistence';
import type { Redis } from 'ioredis';
import type { schema } from './config.js';
import { dataSourceOptions } from './database/data-source.js';
import { CONVERSION_KEYS } from './database/idempotency-keys.js';
import { SavedFilesModule } from './files/saved-files.module.js';
import { ConversionJobsModule } from './jobs/conversion-jobs.module.js';

const RESOURCES = Symbol('RESOURCES');

interface Resources {
  redis: Redis;
  nats: Promise<NatsConnection>;
}

@Module({})
export class AppModule implements OnApplicationShutdown {
  constructor(@Inject(RESOURCES) private readonly resources: Resources) {}

  static register(config: ConfigOf<typeof schema>, logger: Logger): DynamicModule {
    const redis = createRedis(config.REDIS_URL, 'conversion-listener', { forBullmq: true });
    redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis connection error'));
    // The listener deletes the files of cancelled, deleted and expired jobs: its own NATS connection to the object store.
    const nats = connect({ servers: config.NATS_URL, name: `conversion-files-${process.pid}`, ...NATS_RECONNECT });
    nats.catch(() => undefined);
    return {
      module: AppModule,
      imports: [
        ServiceDatabaseModule.forRoot(dataSourceOptions(config.DATABASE_URL)),
        ServiceHealthModule.forService({ service: 'conversion', version: PLATFORM_VERSION }, { redis: () => pingRedis(redis) }),
        queueRoot({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX, name: 'conversion-queues' }),
        IdempotencyModule.forService(CONVERSION_KEYS, logger),
        ConversionJobsModule.register({
          redis,
          logger,
          files: async () => openConversionFiles(await nats, redis, CONVERSION_BUCKET, config),
          settings: {
            queueLimit: config.CONVERSION_QUEUE_LIMIT,
            attempts: config.CONVERSION_ATTEMPTS,
            resultTtlHours: config.CONVERSION_RESULT_TTL_HOURS,
            jobsPerMinute: config.CONVERSION_JOBS_PER_MINUTE,
            bytesPerDay: config.CONVERSION_BYTES_PER_DAY,
            redisPrefix: config.REDIS_PREFIX,
          },
        }),
        SavedFilesModule.register({
          storage: savedFileStorage(config, () => nats),
          logger,
          settings: {
            maxBytes: config.FILES_MAX_BYTES,
            quotaBytes: config.FILES_QUOTA_BYTES,
            urlTtlSeconds: config.FILES_URL_TTL_SECONDS,
            uploadTtlSeconds: config.FILES_UPLOAD_TTL_SECONDS,
            pendingSeconds: config.FILES_PENDING_SECONDS,
          },
          sweepSeconds: config.FILES_SWEEP_SECONDS,
        }),
      ],
      providers: [{ provide: RESOURCES, useValue: { redis, nats } satisfies Resources }],
    };
  }

  /** The queue closes itself (BullModule). */
  async onApplicationShutdown(): Promise<void> {
    this.resources.redis.disconnect();
    await (await this.resources.nats.catch(() => undefined))?.drain();
  }
}
