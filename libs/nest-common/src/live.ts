import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { liveStreamName, liveSubject, type LiveEventFor } from '@tinkerdesk/contracts';

/** How long the live stream keeps an event (a reconnect with Last-Event-ID within it gets what it missed). */
export const LIVE_KEEP_MS = 60 * 60 * 1000;
/** The most events the stream keeps per user (older ones go first). */
export const LIVE_KEEP_PER_USER = 500;

/**
 * Creates the live stream when it is missing: every user's live events (`live.user.<id>`), kept an
 * hour and at most LIVE_KEEP_PER_USER per user. Services publish to it, the gateway reads it.
 */
export async function ensureLiveStream(nc: NatsConnection, prefix: string): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const name = liveStreamName(prefix);
  try {
    await jsm.streams.info(name);
  } catch {
    try {
      await jsm.streams.add({
        name,
        subjects: [liveSubject(prefix, '*')],
        max_age: LIVE_KEEP_MS * 1_000_000,
        max_msgs_per_subject: LIVE_KEEP_PER_USER,
        duplicate_window: 2 * 60 * 1_000_000_000,
      });
    } catch (error) {
      await jsm.streams.info(name).catch(() => {
        throw error;
      });
    }
  }
}

/**
 * Publishes live events, one message per account of each audience, on that account's subject. `key`
 * (the domain event's id, ...) makes the message id, so publishing the same event again (an outbox
 * redelivery) is dropped by the stream.
 */
export class LivePublisher {
  private ready: Promise<void> | null = null;

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
  ) {}

  async publish(event: LiveEventFor | null, key?: string): Promise<void> {
    if (!event || event.audience.length === 0) return;
    this.ready ??= ensureLiveStream(this.nc, this.prefix).catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    await this.ready;
    const js = jetstream(this.nc);
    const data = JSON.stringify({ type: event.type, ids: event.ids });
    for (const userId of event.audience)
      await js.publish(liveSubject(this.prefix, userId), data, { ...(key ? { msgID: `${key}:${userId}` } : {}), timeout: 5000 });
  }
}
