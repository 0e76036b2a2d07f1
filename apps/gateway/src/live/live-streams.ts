import { DeliverPolicy, jetstream, type ConsumerMessages } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { AppError, liveStreamName, liveSubject, SUBJECTS, type SessionRevokedEvent } from '@tinkerdesk/contracts';
import { ensureLiveStream, subscribeEvent, type Logger, type RpcClient } from '@tinkerdesk/nest-common';

/** What a live stream writes to: the HTTP response, seen as a byte sink. */
export interface LiveSink {
  write(chunk: string): boolean;
  /** Bytes written but not yet taken by the client (Node's `writableLength`). */
  readonly writableLength: number;
  end(): void;
}

export interface LiveLimits {
  /** Streams one user may hold open on this gateway replica. */
  perUser: number;
  heartbeatMs: number;
  /** Bytes a client may leave unread before its stream is dropped. */
  bufferBytes: number;
  /** How often the session behind an open stream is checked again (an expired session ends it). */
  recheckMs: number;
}

interface OpenStream {
  userId: string;
  sessionId: string;
  close(reason: string): void;
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
 * from what comes next. Bounded: LIVE_STREAMS_PER_USER per user, LIVE_BUFFER_BYTES unread per
 * connection (a slow reader is dropped, its client reconnects with Last-Event-ID). A revoked
 * session (identity.session.revoked) ends its streams at once, an expired one at the next recheck.
 */
export class LiveStreams {
  private readonly open = new Set<OpenStream>();
  private ready: Promise<void> | null = null;

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    private readonly rpc: Pick<RpcClient, 'send'>,
    private readonly limits: LiveLimits,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  /** Hears identity's revocations: every stream of the session (or of the user) ends. */
  listen(): void {
    subscribeEvent(this.nc, this.prefix, SUBJECTS.identity.sessionRevoked, (event: SessionRevokedEvent) => {
      for (const s of this.open) if ('sessionId' in event ? s.sessionId === event.sessionId : s.userId === event.userId) s.close('session ended');
    });
  }

  count(userId: string): number {
    let n = 0;
    for (const s of this.open) if (s.userId === userId) n += 1;
    return n;
  }

  /** Refuses (429 RATE_LIMITED) a stream past the user's limit; call before anything is written. */
  admit(userId: string): void {
    if (this.count(userId) >= this.limits.perUser)
      throw AppError.rateLimited(
        `at most ${this.limits.perUser} live streams may be open at once for an account: close one (another tab?) first`,
        this.limits.heartbeatMs / 1000,
      );
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
    this.admit(session.userId);
    let ended = false;
    let messages: ConsumerMessages | undefined;
    const timers: NodeJS.Timeout[] = [];
    // Counted from now, so that requests arriving together cannot pass the limit between them.
    const entry: OpenStream = {
      userId: session.userId,
      sessionId: session.sessionId,
      close: (reason) => {
        if (ended) return;
        ended = true;
        this.open.delete(entry);
        for (const t of timers) clearInterval(t);
        void messages?.close();
        if (!began) return;
        try {
          if (reason) sink.write(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
          sink.end();
        } catch {
          // the client is gone already
        }
      },
    };
    let began = false;
    this.open.add(entry);
    try {
      this.ready ??= ensureLiveStream(this.nc, this.prefix).catch((error: unknown) => {
        this.ready = null;
        throw error;
      });
      await this.ready;
      const consumer = await jetstream(this.nc).consumers.get(liveStreamName(this.prefix), {
        // One subject as a string (filter_subject): a list needs NATS 2.10.
        filter_subjects: liveSubject(this.prefix, session.userId),
        ...(after !== undefined ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: after + 1 } : { deliver_policy: DeliverPolicy.New }),
      });
      messages = await consumer.consume();
    } catch (error) {
      entry.close('');
      throw error;
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
      if (sink.writableLength > this.limits.bufferBytes) entry.close('');
    };
    timers.push(setInterval(() => send(': keep-alive\n\n'), this.limits.heartbeatMs));
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

  /** Ends every open stream (shutdown). */
  closeAll(): void {
    for (const s of [...this.open]) s.close('server shutting down');
  }
}
