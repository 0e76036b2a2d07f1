/**
 * Tells a parent process (npm start, the test platform) that this process serves, over the IPC
 * channel when there is one, so readiness never depends on the log level.
 */
export function announceReady(info: Record<string, unknown> = {}): void {
  if (typeof process.send === 'function') process.send({ type: 'ready', ...info });
}
