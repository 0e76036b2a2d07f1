import { BullModule, WorkerHost } from '@nestjs/bullmq';
import type { DynamicModule, OnModuleDestroy } from '@nestjs/common';

export interface QueueRootSettings {
  /** REDIS_URL of the service. */
  redisUrl: string;
  /** REDIS_PREFIX of the service: its queues' keys are `<prefix>:<queue>:*`, so each test run has its own. */
  prefix: string;
  /** The Redis connection name (CLIENT LIST), e.g. `identity-queues`. */
  name: string;
}

/**
 * `BullModule.forRootAsync` of a service: every queue and worker of the service on its Redis, under its
 * key prefix. Each queue and worker opens its own connection from these options and closes it itself.
 */
export function queueRoot(settings: QueueRootSettings): DynamicModule {
  return BullModule.forRootAsync({
    useFactory: () => ({
      connection: { url: settings.redisUrl, connectionName: settings.name, maxRetriesPerRequest: null },
      prefix: settings.prefix,
    }),
  });
}

/**
 * A `WorkerHost` whose worker stops first on shutdown (SIGTERM): it takes no new job and waits for the
 * running ones to finish. @nestjs/bullmq closes its workers in `onApplicationShutdown`, the same hook in
 * which the database (TypeORM) and NATS connections close, in no fixed order, so a running job could
 * lose them half-way; `onModuleDestroy` runs before every `onApplicationShutdown`, so the jobs finish
 * while what they use is still open. (Closing twice is harmless: BullMQ returns the same closing.)
 */
export abstract class DrainingWorkerHost extends WorkerHost implements OnModuleDestroy {
  async onModuleDestroy(): Promise<void> {
    await this.worker.close();
  }
}
