import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';

export interface PeriodicSchedule {
  /** How often it runs. */
  everyMs: number;
  /** Whether it runs once right at start too (else first after `everyMs`). */
  atStart?: boolean;
  /** What a failed run is logged as (a warning; the next run tries again), e.g. `expiry sweep failed`. */
  failure: string;
  logger: { warn(obj: object, msg: string): void };
}

/**
 * Work every replica of a service repeats on a timer (sweeps of expired or abandoned rows), the same
 * way everywhere: started once the application has bootstrapped, never two runs at once (a run that
 * is due while the last one still goes is skipped), a failure logged, the timer stopped first on
 * shutdown (`onModuleDestroy`, while the database is still open) and never keeping the process alive.
 */
export abstract class PeriodicTask implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  /** When and how it runs (read at start: the subclass's injected settings are there by then). */
  protected abstract schedule(): PeriodicSchedule;

  /** One run. */
  protected abstract run(): Promise<unknown>;

  onApplicationBootstrap(): void {
    const schedule = this.schedule();
    if (schedule.atStart) this.tick(schedule);
    this.timer = setInterval(() => this.tick(schedule), schedule.everyMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  private tick(schedule: PeriodicSchedule): void {
    if (this.running) return;
    this.running = true;
    void this.run()
      .catch((error: unknown) => schedule.logger.warn({ err: error instanceof Error ? error.message : String(error) }, schedule.failure))
      .finally(() => (this.running = false));
  }
}
