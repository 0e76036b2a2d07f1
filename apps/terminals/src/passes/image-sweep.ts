import { Inject, Injectable } from '@nestjs/common';
import { PeriodicTask, type Logger, type PeriodicSchedule } from '@tinkerdesk/nest-common';
import { TERMINALS_LOGGER } from '../logger.token.js';
import { PassesRepository } from './passes.repository.js';

export const IMAGE_SWEEP_SETTINGS = Symbol('IMAGE_SWEEP_SETTINGS');

export interface ImageSweepSettings {
  /** How often the sweep runs. */
  intervalMs: number;
  /** Images no pass references go once they were stored this long ago (a save references its images within seconds). */
  graceSeconds: number;
}

/**
 * Removes pass images that no pass references, an hour after they were stored: images whose save never
 * came (the page was closed, the save was refused). Every replica sweeps; the deletes do not collide.
 */
@Injectable()
export class ImageSweep extends PeriodicTask {
  constructor(
    @Inject(PassesRepository) private readonly passes: PassesRepository,
    @Inject(IMAGE_SWEEP_SETTINGS) private readonly settings: ImageSweepSettings,
    @Inject(TERMINALS_LOGGER) private readonly logger: Logger,
  ) {
    super();
  }

  protected schedule(): PeriodicSchedule {
    return { everyMs: this.settings.intervalMs, failure: 'pass image sweep failed', logger: this.logger };
  }

  protected run(): Promise<number> {
    return this.sweep();
  }

  /** One sweep: answers how many images went (0 when it failed: logged). */
  async sweep(): Promise<number> {
    try {
      const removed = await this.passes.sweepImages(this.settings.graceSeconds);
      if (removed > 0) this.logger.info({ removed }, 'unreferenced pass images removed');
      return removed;
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'pass image sweep failed');
      return 0;
    }
  }
}
