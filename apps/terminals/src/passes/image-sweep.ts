import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from '@tinkerdesk/nest-common';
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
export class ImageSweep implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(PassesRepository) private readonly passes: PassesRepository,
    @Inject(IMAGE_SWEEP_SETTINGS) private readonly settings: ImageSweepSettings,
    @Inject(TERMINALS_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), this.settings.intervalMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

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
