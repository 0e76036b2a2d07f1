/**
 * Reads until `done` holds (or the deadline passes, then answers the last read for the test's own
 * assertion to show): what listeners write after commit, such as timeline entries and emails,
 * appears within a moment of the action rather than with it.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
