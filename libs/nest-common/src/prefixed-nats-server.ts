import { randomUUID } from 'node:crypto';
import { NatsContext, ServerNats } from '@nestjs/microservices';
import type { NatsOptions } from '@nestjs/microservices';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { REQUEST_ID_HEADER } from '@tinkerdesk/contracts';
import { finalize, isObservable } from 'rxjs';
import { requestContext } from './context.js';
import { epochMs } from './phase-clock.js';
import { ReplySerializer } from './rpc-reply.js';
import { coalesceNatsWrites } from './nats-writes.js';

const JSON_WORDS = new Set(['true', 'false', 'null']);

type NatsMessage = Parameters<ServerNats['handleMessage']>[1];
type Packet = { response?: unknown; err?: unknown; isDisposed?: boolean };

/**
 * Nest's NATS server, with every subject under a deployment prefix (NATS_PREFIX) so environments
 * and test runs that share one NATS never see each other's messages, replies framed for the gateway's
 * pass-through (`ReplySerializer`), each message handled in the request context of the request id the
 * gateway sent (so every log line of the service carries it), a lean reply for a handler's value (see
 * `dispatch`), and a close that loses no request: see `close`.
 */
export class PrefixedNatsServer extends ServerNats {
  /** The messages this replica took and has not answered yet (an event: not handled yet). */
  private readonly inFlight = new Set<Promise<void>>();
  /** How each taken request tells `inFlight` it was answered (its last reply packet went out). */
  private readonly finishers = new WeakMap<NatsMessage, () => void>();
  /** The connection and the queue subscriptions (Nest keeps its own private). */
  private connection: NatsConnection | undefined;
  private queueSubscriptions: Subscription[] = [];

  constructor(
    private readonly prefix: string,
    options: NonNullable<NatsOptions['options']>,
    /** How long `close` waits for the requests in hand before it closes the connection anyway. */
    private readonly drainTimeoutMs = 10_000,
  ) {
    super(options);
    // A handler's answer goes last in its reply, so the gateway can pass its bytes through (rpc-reply.ts).
    this.serializer = new ReplySerializer(this.serializer);
  }

  /**
   * The route of a subscribed subject. Nest first tries `JSON.parse` on it (for object patterns), which
   * throws, and so builds an Error with its stack, for every message on a plain subject like ours (1% of
   * a service's CPU under load). A subject that starts with a letter is no JSON (but these three words).
   */
  override getRouteFromPattern(pattern: string): string {
    if (!/^[A-Za-z_]/.test(pattern) || JSON_WORDS.has(pattern)) return super.getRouteFromPattern(pattern);
    return this.normalizePattern(pattern);
  }

  override normalizePattern(pattern: Parameters<ServerNats['normalizePattern']>[0]): string {
    const route = super.normalizePattern(pattern);
    if (!this.prefix || route.startsWith(`${this.prefix}.`)) return route;
    return `${this.prefix}.${route}`;
  }

  override async createNatsClient(): Promise<NatsConnection> {
    this.connection = (await super.createNatsClient()) as NatsConnection;
    coalesceNatsWrites(this.connection);
    return this.connection;
  }

  /** Nest's subscriptions, each one also kept here, so `close` can drain them. */
  override bindEvents(client: NatsConnection): void {
    const recording = Object.create(client) as NatsConnection;
    recording.subscribe = (subject, options) => {
      const subscription = client.subscribe(subject, options);
      this.queueSubscriptions.push(subscription);
      return subscription;
    };
    super.bindEvents(recording);
  }

  /** Counted from the moment the message arrives (synchronously) until it is answered or, for an event, handled. */
  override async handleMessage(channel: string, natsMsg: NatsMessage): Promise<void> {
    const receivedAt = epochMs();
    let finish: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.inFlight.add(done);
    void done.then(() => this.inFlight.delete(done));
    this.finishers.set(natsMsg, finish);
    // What a global interceptor did before, here once per message without Nest's interceptor pipeline.
    const requestId = natsMsg.headers?.get(REQUEST_ID_HEADER) || randomUUID();
    try {
      await requestContext.run({ requestId, receivedAt }, () => this.dispatch(channel, natsMsg));
    } finally {
      // An event has no reply: handled once its handler settled. A request ends with its last reply packet.
      if (!natsMsg.reply) finish();
    }
  }

  /**
   * Nest's `handleMessage` for a request, but for what follows the handler. Nest makes every answer an
   * RxJS stream (`transformToObservable`, then `send`: catchError, finalize, a subscription and a
   * `process.nextTick`) to reply `{ response, isDisposed: true }`. The handler here is Nest's whole
   * pipeline (guards, pipes with the validation, the handler, the exception filters), which, with no
   * interceptor, settles with the handler's value or, when it failed, with the filter's error stream:
   * a value is replied at once with the same packet; a stream (an error, an interceptor's answer, a
   * handler's Observable) goes through Nest's `send` as before. Events, requests without a handler and
   * messages without a reply subject are Nest's own path.
   */
  private async dispatch(channel: string, natsMsg: NatsMessage): Promise<void> {
    const handler = natsMsg.reply ? this.getHandlerByPattern(channel) : null;
    if (!handler) return super.handleMessage(channel, natsMsg);
    const natsCtx = new NatsContext([natsMsg.subject, natsMsg.headers]);
    const message = await this.deserializer.deserialize(natsMsg, { channel, replyTo: natsMsg.reply });
    const id = 'id' in message ? message.id : undefined;
    if (id === undefined) return this.handleEvent(channel, message, natsCtx);
    const publish = this.getPublisher(natsMsg, id, natsCtx);
    return this.runWithProcessingHooks(natsCtx, async (runEndHook) => {
      const result: unknown = await handler(message.data, natsCtx);
      if (isObservable(result) || result instanceof Promise) {
        this.send(this.transformToObservable(result).pipe(finalize(runEndHook)), (packet) => void publish(packet));
        return;
      }
      runEndHook();
      try {
        publish({ response: result, isDisposed: true });
      } catch (error) {
        // As Nest's send: a reply that cannot be published is logged, not thrown at the transport.
        this.logger.error(error);
      }
    });
  }

  override getPublisher(natsMsg: NatsMessage, id: string, ctx: Parameters<ServerNats['getPublisher']>[2]): (response: Packet) => unknown {
    const publish = super.getPublisher(natsMsg, id, ctx) as (response: Packet) => unknown;
    const finish = this.finishers.get(natsMsg);
    return (packet) => {
      try {
        return publish(packet);
      } finally {
        if (packet.isDisposed || packet.err !== undefined) finish?.();
      }
    };
  }

  /**
   * Waits until the NATS server has every subscription of this replica (a round trip after the SUBs).
   * Nest's `listen` resolves once the subscriptions are queued on the client, not when the server has
   * them: a replica that says it is ready before this could have a request to it answered "no responders".
   */
  async subscribed(): Promise<void> {
    await this.connection?.flush();
  }

  /** Requests taken and not answered yet (tests, logs). */
  get pending(): number {
    return this.inFlight.size;
  }

  /**
   * Leaves every queue group first (each subscription drains: NATS sends new requests to the other
   * replicas, and what was already delivered here is still handled), then waits for the requests in hand
   * to be answered (at most `drainTimeoutMs`), then flushes the replies and closes the connection. The
   * app's destroy hooks (database pools, Redis, workers) run after this, so the requests finish with
   * everything they use still open.
   */
  override async close(): Promise<void> {
    const nc = this.connection;
    if (!nc) return;
    this.connection = undefined;
    const subscriptions = this.queueSubscriptions.splice(0);
    await Promise.all(subscriptions.map((s) => s.drain().catch(() => undefined)));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.inFlight]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.drainTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    // Replies are published on the next tick of their handler's end: let them go out, then drain the connection.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await nc.drain().catch(() => undefined);
    await super.close().catch(() => undefined);
  }
}
