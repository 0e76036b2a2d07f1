import type { NatsConnection } from '@nats-io/transport-node';
import { SUBJECTS } from '@tinkerdesk/contracts';
import { subscribeEvent } from '@tinkerdesk/nest-common';

export interface Wait {
  /** Resolves when the job is announced finished, or when the time is up, or when cancelled. */
  done: Promise<void>;
  cancel(): void;
}

/**
 * Lets GET /v1/convert/jobs/{id}?wait=N hold the answer until the job finishes: the workers announce
 * every finished job (conversion.job.finished) and this gateway wakes whoever waits for it. One
 * subscription for all; at most `maxWaiting` requests wait at once (past it, they answer at once).
 */
export class JobWaiter {
  private readonly waiting = new Map<string, Set<() => void>>();
  private count = 0;

  constructor(private readonly maxWaiting = 2000) {}

  listen(nc: NatsConnection, prefix: string): void {
    subscribeEvent(nc, prefix, SUBJECTS.conversion.jobFinished, (event) => this.wake(event.id));
  }

  wake(id: string): void {
    for (const resolve of this.waiting.get(id) ?? []) resolve();
  }

  /** Starts waiting for `id` (before reading its state, so an announcement in between is not missed). */
  begin(id: string, ms: number): Wait | undefined {
    if (ms <= 0 || this.count >= this.maxWaiting) return undefined;
    let finish: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const set = this.waiting.get(id) ?? new Set<() => void>();
    this.waiting.set(id, set);
    this.count++;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      set.delete(end);
      if (set.size === 0) this.waiting.delete(id);
      this.count--;
      finish();
    };
    const timer = setTimeout(end, ms);
    set.add(end);
    return { done, cancel: end };
  }

  get size(): number {
    return this.count;
  }
}
