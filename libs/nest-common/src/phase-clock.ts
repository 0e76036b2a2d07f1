/** A clock of phases: milliseconds each took since the one before (to 0.1 ms), for a log line. */
export interface PhaseClock {
  mark(phase: string): void;
  readonly ms: Record<string, number>;
  /** When the clock started, in epoch milliseconds (to 0.01): lines of different processes line up by it. */
  readonly at: number;
}

/** Now in epoch milliseconds to 0.01 ms (performance.now on the process's time origin), comparable across processes. */
export function epochMs(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 100) / 100;
}

/**
 * Starts a phase clock: where a request's or a job's time goes, phase by phase (the conversion
 * worker's `ms` and the gateway's conversion answers log these; `bench/conversion.mjs --phases` prints
 * their medians).
 */
export function phaseClock(): PhaseClock {
  let last = performance.now();
  const ms: Record<string, number> = {};
  return {
    ms,
    at: Math.round((performance.timeOrigin + last) * 100) / 100,
    mark(phase) {
      const now = performance.now();
      ms[phase] = Math.round((now - last) * 10) / 10;
      last = now;
    },
  };
}
