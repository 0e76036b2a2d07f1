/** What time it is for plans: the system's clock, or in the scheduler's tests one they move. */
export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol('CLOCK');

export const systemClock: Clock = { now: () => new Date() };
