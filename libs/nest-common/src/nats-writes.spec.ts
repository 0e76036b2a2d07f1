import { describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { coalesceNatsWrites } from './nats-writes.js';

/** A stand-in for the client's protocol handler: records each flush of its outbound buffer. */
function fakeConnection() {
  const flushed: string[][] = [];
  const protocol = {
    outbound: [] as string[],
    flushPending(this: { outbound: string[] }) {
      if (this.outbound.length > 0) flushed.push(this.outbound.splice(0));
    },
    closed: false,
    async close(this: { closed: boolean }) {
      this.closed = true;
    },
  };
  const send = (message: string) => {
    protocol.outbound.push(message);
    queueMicrotask(() => protocol.flushPending());
  };
  return { nc: { protocol } as unknown as NatsConnection, send, flushed };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('coalesceNatsWrites', () => {
  it('writes the messages of one turn of the event loop at once, in their order', async () => {
    const { nc, send, flushed } = fakeConnection();
    expect(coalesceNatsWrites(nc)).toBe(true);
    send('PUB a');
    await Promise.resolve();
    send('PUB b');
    send('PUB d');
    await Promise.resolve();
    expect(flushed).toEqual([]);
    await turn();
    expect(flushed).toEqual([['PUB a', 'PUB b', 'PUB d']]);
    // A message of a later turn (here a timer's: whether a 0 ms timer runs before or after the first
    // turn's setImmediate depends on the clock, so it is sent once that turn is over) is a write of its own.
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        send('PUB c');
        resolve();
      }, 0),
    );
    expect(flushed).toEqual([['PUB a', 'PUB b', 'PUB d']]);
    await turn();
    expect(flushed).toEqual([['PUB a', 'PUB b', 'PUB d'], ['PUB c']]);
  });

  it('without coalescing, each message of its own microtask is its own write (what it changes)', async () => {
    const { send, flushed } = fakeConnection();
    send('PUB a');
    await Promise.resolve();
    send('PUB b');
    await turn();
    expect(flushed).toEqual([['PUB a'], ['PUB b']]);
  });

  it('writes what waits before a close', async () => {
    const { nc, send, flushed } = fakeConnection();
    coalesceNatsWrites(nc);
    send('PUB last');
    await Promise.resolve();
    await (nc as unknown as { protocol: { close(): Promise<void> } }).protocol.close();
    expect(flushed).toEqual([['PUB last']]);
    await turn();
    expect(flushed).toEqual([['PUB last']]);
  });

  it('leaves a connection it does not recognise as it is', () => {
    expect(coalesceNatsWrites({} as NatsConnection)).toBe(false);
    expect(coalesceNatsWrites({ protocol: {} } as unknown as NatsConnection)).toBe(false);
  });
});
