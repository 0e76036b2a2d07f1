import { Inject, Injectable, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger, SavedFileStorage } from '@tinkerdesk/nest-common';
import { CLOCK, LOGGER } from '../jobs/conversion-jobs.service.js';
import { SavedFilesController } from './saved-files.controller.js';
import { SavedFilesRepository } from './saved-files.repository.js';
import { SAVED_FILE_STORAGE, SAVED_FILES_SETTINGS, SavedFilesService, type SavedFilesSettings } from './saved-files.service.js';

const SWEEP_MS = 10 * 60_000;

/** Drops pending files whose upload never came, now and then; every replica may (deleting is idempotent). */
@Injectable()
class AbandonedSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(SavedFilesService) private readonly files: SavedFilesService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const sweep = () => void this.files.dropAbandoned().catch((err: unknown) => this.logger.warn({ err }, 'saved files sweep failed'));
    this.timer = setInterval(sweep, SWEEP_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}

export interface SavedFilesModuleDeps {
  storage: SavedFileStorage;
  settings: SavedFilesSettings;
  logger: Logger;
}

/** Saved files: NATS handlers, the rules, the repository, the storage (S3 or the site's own) and the sweep. */
@Module({})
export class SavedFilesModule {
  static register(deps: SavedFilesModuleDeps): DynamicModule {
    return {
      module: SavedFilesModule,
      controllers: [SavedFilesController],
      providers: [
        SavedFilesRepository,
        SavedFilesService,
        AbandonedSweeper,
        { provide: SAVED_FILE_STORAGE, useValue: deps.storage },
        { provide: SAVED_FILES_SETTINGS, useValue: deps.settings },
        { provide: LOGGER, useValue: deps.logger },
        { provide: CLOCK, useValue: () => new Date() },
      ],
    };
  }
}
