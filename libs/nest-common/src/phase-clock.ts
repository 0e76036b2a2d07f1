/** A clock of phases: milliseconds each took since the one before (to 0.1 ms), for a log line. */
export interface PhaseClock {
  mark(phase: string): void;
  readonly ms: Record<string, number>;
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
    mark(phase) {
      const now = performance.now();
      ms[phase] = Math.round((now - last) * 10) / 10;
      last = now;
    },
  };
}
