import type { NatsConnection } from '@nats-io/transport-node';

/**
 * Answers the gateway remembers for a short time and forgets at once when told (an event from the
 * service that owns them). While the gateway is cut off from NATS it could miss such an event, so it
 * forgets everything and remembers nothing until it is connected again. Bounded: the oldest entries go
 * first. A time to live of 0 turns it off.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  private connected = true;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    if (this.ttlMs === 0 || !this.connected) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    if (this.ttlMs === 0 || !this.connected) return;
    this.entries.delete(key);
    this.entries.set(key, { value, until: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }

  /** Not connected: forget everything (an event may be missed) and remember nothing until connected again. */
  setConnected(connected: boolean): void {
    this.connected = connected;
    if (!connected) this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Caches that must remember nothing while the gateway could miss an event (disconnected from NATS). */
export function forgetWhileDisconnected(nc: NatsConnection, caches: { setConnected(connected: boolean): void }[]): void {
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') caches.forEach((c) => c.setConnected(false));
      else if (status.type === 'reconnect') caches.forEach((c) => c.setConnected(true));
    }
  })();
}
