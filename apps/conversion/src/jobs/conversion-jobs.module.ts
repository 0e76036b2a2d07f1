import { BullModule } from '@nestjs/bullmq';
import { Inject, Injectable, Module, type DynamicModule } from '@nestjs/common';
import { CONVERSION_QUEUE } from '@tinkerdesk/contracts';
import { PeriodicTask, type ConversionFiles, type Logger, type PeriodicSchedule } from '@tinkerdesk/nest-common';
import type { Redis } from 'ioredis';
import { ConversionJobsController } from './conversion-jobs.controller.js';
import { ConversionJobsRepository } from './conversion-jobs.repository.js';
import {
  CLOCK,
  CONVERSION_FILES,
  CONVERSION_SETTINGS,
  ConversionJobsService,
  ENGINES,
  LOGGER,
  type ConversionSettings,
} from './conversion-jobs.service.js';
import { EngineRegistry } from '../engines/engine-registry.js';
import { CONVERSION_LIMITS, ConversionLimits, type ConversionLimitSettings } from './conversion-limits.js';

/** How often the listener looks for results whose time is up. */
const EXPIRY_SWEEP_MS = 5 * 60_000;

/** Frees expired results now and then (and once at start); every replica may sweep (deleting is idempotent). */
@Injectable()
class ExpirySweeper extends PeriodicTask {
  constructor(
    @Inject(ConversionJobsService) private readonly jobs: ConversionJobsService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super();
  }

  protected schedule(): PeriodicSchedule {
    return { everyMs: EXPIRY_SWEEP_MS, atStart: true, failure: 'expiry sweep failed', logger: this.logger };
  }

  protected run(): Promise<unknown> {
    return this.jobs.expireDue();
  }
}

export interface JobsModuleDeps {
  redis: Redis;
  files: () => Promise<ConversionFiles>;
  logger: Logger;
  settings: ConversionSettings & ConversionLimitSettings & { redisPrefix: string };
}

/** Conversion jobs: NATS handlers, the rules, the repository, the queue's producer side, and the expiry sweep. */
@Module({})
export class ConversionJobsModule {
  static register(deps: JobsModuleDeps): DynamicModule {
    return {
      module: ConversionJobsModule,
      imports: [BullModule.registerQueue({ name: CONVERSION_QUEUE })],
      controllers: [ConversionJobsController],
      providers: [
        ConversionJobsRepository,
        ConversionJobsService,
        ExpirySweeper,
        { provide: ENGINES, useValue: new EngineRegistry(deps.redis, deps.settings.redisPrefix) },
        { provide: CONVERSION_FILES, useFactory: deps.files },
        { provide: CONVERSION_LIMITS, useValue: new ConversionLimits(deps.redis, deps.settings.redisPrefix, deps.settings) },
        { provide: CONVERSION_SETTINGS, useValue: deps.settings },
        { provide: LOGGER, useValue: deps.logger },
        { provide: CLOCK, useValue: () => new Date() },
      ],
    };
  }
}
