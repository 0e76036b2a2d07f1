import { Inject, Injectable, Module, type DynamicModule } from '@nestjs/common';
import { PeriodicTask, type Logger, type PeriodicSchedule, type SavedFileStorage } from '@tinkerdesk/nest-common';
import { CLOCK, LOGGER } from '../jobs/conversion-jobs.service.js';
import { SavedFilesController } from './saved-files.controller.js';
import { SavedFilesRepository } from './saved-files.repository.js';
import { SAVED_FILE_STORAGE, SAVED_FILES_SETTINGS, SavedFilesService, type SavedFilesSettings } from './saved-files.service.js';

/** How often the sweep runs (SavedFilesModuleDeps.sweepSeconds). */
const SWEEP_SECONDS = Symbol('SWEEP_SECONDS');

/** Drops unconfirmed files and leftover uploads now and then; every replica may (each removal is conditional and idempotent). */
@Injectable()
class AbandonedSweeper extends PeriodicTask {
  constructor(
    @Inject(SavedFilesService) private readonly files: SavedFilesService,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SWEEP_SECONDS) private readonly seconds: number,
  ) {
    super();
  }

  protected schedule(): PeriodicSchedule {
    return { everyMs: this.seconds * 1000, failure: 'saved files sweep failed', logger: this.logger };
  }

  protected run(): Promise<unknown> {
    return this.files.sweep();
  }
}

export interface SavedFilesModuleDeps {
  storage: SavedFileStorage;
  settings: SavedFilesSettings;
  logger: Logger;
  /** How often the sweep runs. */
  sweepSeconds: number;
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
        { provide: SWEEP_SECONDS, useValue: deps.sweepSeconds },
        { provide: LOGGER, useValue: deps.logger },
        { provide: CLOCK, useValue: () => new Date() },
      ],
    };
  }
}
