import { DeliverPolicy, jetstream, type ConsumerMessages } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { AppError, liveStreamName, liveSubject, SUBJECTS, type SessionRevokedEvent } from '@tinkerdesk/contracts';
import { ensureLiveStream, subscribeEvent, type Logger, type RpcClient } from '@tinkerdesk/nest-common';
import type { LiveSlot, LiveSlots } from './live-slots.js';

/** What a live stream writes to: the HTTP response, seen as a byte sink. */
export interface LiveSink {
  write(chunk: string): boolean;
  /** Bytes written but not yet taken by the client (Node's `writableLength`). */
  readonly writableLength: number;
  end(): void;
  /** Closes the connection at once, dropping what is still unread. */
  destroy(): void;
}

export interface LiveLimits {
  heartbeatMs: number;
  /** Bytes a client may leave unread before its stream is dropped. */
  bufferBytes: number;
  /** How often the session behind an open stream is checked again (an expired session ends it). */
  recheckMs: number;
  /** How long opening a stream (JetStream) may take before it is answered 503 UNAVAILABLE. */
  openTimeoutMs: number;
}

interface OpenStream {
  userId: string;
  sessionId: string;
  /** Ends the stream: with `event: end` and its reason when there is one; `drop` closes the connection without waiting for the reader. */
  close(reason: string, drop?: boolean): void;
  /** Resolves once its slot is given back. */
  released: Promise<void>;
}

/** `Last-Event-ID` as a stream sequence: a positive integer, else undefined (the stream starts with what comes next). */
export function lastEventSeq(header: string | undefined): number | undefined {
  if (!header || !/^\d{1,15}$/.test(header.trim())) return undefined;
  const seq = Number(header.trim());
  return seq > 0 ? seq : undefined;
}

/** One Server-Sent Events frame. */
export const sseFrame = (id: number, type: string, data: string) => `id: ${id}\nevent: ${type}\ndata: ${data}\n\n`;

/**
 * The open live streams of this gateway replica (GET /v1/events/stream; docs/api.md "Live events").
 * Each reads the user's own subject of the live JetStream stream with an ordered consumer, from the
 * sequence after `Last-Event-ID` (any replica can resume it: the id is the stream's sequence) or
 * from what comes next. Bounded: LIVE_STREAMS_PER_USER per user across every replica (LiveSlots,
 * in Redis), LIVE_BUFFER_BYTES unread per connection (a slow reader is dropped, its client
 * reconnects with Last-Event-ID). A revoked session (identity.session.revoked) ends its streams at
 * once, an expired one at the next recheck. JetStream not answering within `openTimeoutMs` is 503
 * UNAVAILABLE, in the envelope: nothing is written before the stream can be read.
 */
export class LiveStreams {
  private readonly open = new Set<OpenStream>();
  private ready: Promise<void> | null = null;

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    private readonly rpc: Pick<RpcClient, 'send'>,
    private readonly slots: Pick<LiveSlots, 'take' | 'close'>,
    private readonly limits: LiveLimits,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  /** Hears identity's revocations: every stream of the session (or of the user) ends. */
  listen(): void {
    subscribeEvent(this.nc, this.prefix, SUBJECTS.identity.sessionRevoked, (event: SessionRevokedEvent) => {
      for (const s of this.open)
        if ('sessionId' in event ? s.sessionId === event.sessionId : s.userId === event.userId) s.close('session ended');
    });
  }

  /** Streams open on this replica (all of them, or one account's). */
  count(userId?: string): number {
    let n = 0;
    for (const s of this.open) if (userId === undefined || s.userId === userId) n += 1;
    return n;
  }

  /**
   * Streams the user's events to `sink` until the client leaves, the session ends or the reader falls
   * behind. `begin` runs once the stream can be read (the response's headers go then): a refusal or a
   * failure before it is thrown, so it is answered in the envelope.
   */
  async stream(
    session: { userId: string; sessionId: string; token: string },
    sink: LiveSink,
    options: { after: number | undefined; closed: Promise<void>; begin: () => void },
  ): Promise<void> {
    const { after, closed } = options;
    // Refused (429, or 503 without Redis) before anything is written: the usual envelope.
    const slot: LiveSlot = await this.slots.take(session.userId);
    let ended = false;
    let messages: ConsumerMessages | undefined;
    const timers: NodeJS.Timeout[] = [];
    // Known to this replica from now: a revocation or a shutdown while it opens ends it too.
    const entry: OpenStream = {
      userId: session.userId,
      sessionId: session.sessionId,
      released: Promise.resolve(),
      close: (reason, drop = false) => {
        if (ended) return;
        ended = true;
        this.open.delete(entry);
        entry.released = slot.release();
        for (const t of timers) clearInterval(t);
        void messages?.close();
        if (!began) return;
        try {
          // A reader that does not read would hold the connection, and what it left unread, for ever.
          if (drop) return sink.destroy();
          if (reason) sink.write(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
          sink.end();
        } catch {
          // the client is gone already
        }
      },
    };
    let began = false;
    this.open.add(entry);
    const opening = this.consume(session.userId, after);
    try {
      messages = await this.within(this.limits.openTimeoutMs, opening);
    } catch (error) {
      entry.close('');
      // Opened after all, too late: let it go.
      opening.then(
        (late) => late.close(),
        () => undefined,
      );
      if (error instanceof AppError) throw error;
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'live stream: opening failed');
      throw new AppError('UNAVAILABLE', 'live events are not available right now: try again in a moment');
    }
    if (ended) {
      // The client left while the stream was being opened.
      await messages.close();
      return;
    }
    options.begin();
    began = true;
    void closed.then(() => entry.close(''));
    const send = (chunk: string) => {
      if (ended) return;
      sink.write(chunk);
      if (sink.writableLength > this.limits.bufferBytes) entry.close('', true);
    };
    timers.push(
      setInterval(() => {
        send(': keep-alive\n\n');
        slot.renew();
      }, this.limits.heartbeatMs),
    );
    timers.push(
      setInterval(() => {
        this.rpc.send(SUBJECTS.identity.sessionVerify, { token: session.token }).catch((error: unknown) => {
          if (error instanceof AppError && error.code === 'INVALID_TOKEN') entry.close('session ended');
        });
      }, this.limits.recheckMs),
    );
    for (const t of timers) t.unref();
    send(`retry: 2000\n: live events of this account\n\n`);
    try {
      for await (const m of messages) {
        if (ended) break;
        let type = 'message';
        try {
          type = (m.json<{ type: string }>().type ?? 'message').replace(/[^\w.-]/g, '');
        } catch {
          continue;
        }
        send(sseFrame(m.seq, type, m.string()));
      }
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'live stream: reading failed');
    } finally {
      entry.close('');
    }
  }

  /** The user's subject of the live stream, read from after `after` (or from what comes next). */
  private async consume(userId: string, after: number | undefined): Promise<ConsumerMessages> {
    this.ready ??= ensureLiveStream(this.nc, this.prefix).catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    await this.ready;
    try {
      const consumer = await jetstream(this.nc, { timeout: this.limits.openTimeoutMs }).consumers.get(liveStreamName(this.prefix), {
        // One subject as a string (filter_subject): a list needs NATS 2.10.
        filter_subjects: liveSubject(this.prefix, userId),
        ...(after !== undefined
          ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: after + 1 }
          : { deliver_policy: DeliverPolicy.New }),
      });
      return await consumer.consume();
    } catch (error) {
      // The stream may have gone (JetStream restarted without its storage): make sure of it again next time.
      this.ready = null;
      throw error;
    }
  }

  /** `work`, or a failure once `ms` have passed (a NATS that is away queues requests rather than failing them). */
  private async within<T>(ms: number, work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        work,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`JetStream did not answer within ${ms} ms`)), ms);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends every open stream and gives their slots back (shutdown). */
  async closeAll(): Promise<void> {
    const streams = [...this.open];
    for (const s of streams) s.close('server shutting down');
    await Promise.all(streams.map((s) => s.released));
    await this.slots.close();
  }
}
