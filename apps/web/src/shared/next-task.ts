/**
 * Resolves in a new task, so that the work after it runs apart from the work before (a long task holds
 * up input; Lighthouse's Total Blocking Time). A message to itself rather than a timer: timers of a tab
 * in the background are slowed down to one a second.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
