import { afterEach, expect } from '@jest/globals';

/**
 * The unit tests' guard of the rule "no network call while a transaction or row lock is open": fake
 * repositories count the transactions (and row locks) they have open in `depth`; fake payment
 * providers and the fake identity directory call `network()`, which fails inside one (and remembers
 * it, in case the service swallows the error: every test then fails after it).
 */
export const guard = { depth: 0, violations: [] as string[] };

export function network(what: string): void {
  if (guard.depth > 0) {
    guard.violations.push(what);
    throw new Error(`${what} was called inside a transaction`);
  }
}

/** Runs `work` as inside a transaction of a fake repository. */
export async function inside<T>(work: () => Promise<T>): Promise<T> {
  guard.depth += 1;
  try {
    return await work();
  } finally {
    guard.depth -= 1;
  }
}

export function guardEachTest(): void {
  afterEach(() => {
    expect(guard.violations).toEqual([]);
    guard.violations = [];
    guard.depth = 0;
  });
}
