import type { NatsConnection } from '@nats-io/transport-node';
import { SUBJECTS, type ConversionJobView } from '@tinkerdesk/contracts';
import { subscribeEvent } from '@tinkerdesk/nest-common';

export interface Wait {
  /**
   * Resolves when the job is announced finished (with the job as its worker recorded it, when the
   * announcement carried it), or when the time is up, or when cancelled (undefined then).
   */
  done: Promise<ConversionJobView | undefined>;
  cancel(): void;
}

/**
 * Lets GET /v1/convert/jobs/{id}?wait=N hold the answer until the job finishes: the workers announce
 * every finished job (conversion.job.finished) and this gateway wakes whoever waits for it. One
 * subscription for all; at most `maxWaiting` requests wait at once (past it, they answer at once).
 */
export class JobWaiter {
  private readonly waiting = new Map<string, Set<(job?: ConversionJobView) => void>>();
  private count = 0;

  constructor(private readonly maxWaiting = 2000) {}

  listen(nc: NatsConnection, prefix: string): void {
    subscribeEvent(nc, prefix, SUBJECTS.conversion.jobFinished, (event) => this.wake(event.id, event.job));
  }

  /** Ends every wait for `id`; `job`, the job as it finished, is what they resolve with. */
  wake(id: string, job?: ConversionJobView): void {
    for (const resolve of this.waiting.get(id) ?? []) resolve(job);
  }

  /** Starts waiting for `id` (before reading its state, so an announcement in between is not missed). */
  begin(id: string, ms: number): Wait | undefined {
    if (ms <= 0 || this.count >= this.maxWaiting) return undefined;
    let finish: (job?: ConversionJobView) => void = () => undefined;
    const done = new Promise<ConversionJobView | undefined>((resolve) => (finish = resolve));
    const set = this.waiting.get(id) ?? new Set<(job?: ConversionJobView) => void>();
    this.waiting.set(id, set);
    this.count++;
    let ended = false;
    const end = (job?: ConversionJobView) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      set.delete(end);
      if (set.size === 0) this.waiting.delete(id);
      this.count--;
      finish(job);
    };
    const timer = setTimeout(() => end(), ms);
    set.add(end);
    return { done, cancel: () => end() };
  }

  get size(): number {
    return this.count;
  }
}
