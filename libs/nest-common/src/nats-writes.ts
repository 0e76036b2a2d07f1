import type { NatsConnection } from '@nats-io/transport-node';

/** The part of the NATS client's protocol handler (nats-core 3) this relies on. */
interface Protocol {
  flushPending(): void;
  close(err?: Error): Promise<void>;
}

/**
 * Makes a NATS connection write what it has to send once per turn of the event loop instead of once
 * per message. The client gathers each message in a buffer and flushes it to the socket on the next
 * microtask, so every request (the gateway) and every reply (a service) that starts from its own socket
 * event costs a socket write of its own: under load, about a fifth of the gateway's CPU was `writeBuffer`
 * (docs/testing.md, "Where the uncached read's time goes"). Flushed in `setImmediate` instead, the
 * messages of every event handled in the same poll phase leave in one write; a lone message leaves in
 * the same turn of the loop, only after its I/O callbacks (microseconds).
 *
 * The order of what is written does not change (one buffer, drained whole), nor what a `flush()` means
 * (its PING goes out behind everything before it). Without the internals it relies on (another major
 * version of the client) the connection is left as it is.
 */
export function coalesceNatsWrites(nc: NatsConnection): boolean {
  const protocol = (nc as unknown as { protocol?: Partial<Protocol> }).protocol;
  if (!protocol || typeof protocol.flushPending !== 'function' || typeof protocol.close !== 'function') return false;
  const flushNow = protocol.flushPending.bind(protocol);
  const close = protocol.close.bind(protocol);
  let scheduled = false;
  const flush = () => {
    if (!scheduled) return;
    scheduled = false;
    flushNow();
  };
  protocol.flushPending = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };
  // A close (unlike a drain) does not flush what waits: what was published before it still goes out.
  protocol.close = (err?: Error) => {
    flush();
    return close(err);
  };
  return true;
}
