import { randomUUID } from 'node:crypto';
import {
  connect,
  createInbox,
  headers as natsHeaders,
  NoRespondersError,
  RequestError,
  TimeoutError,
  type Msg,
  type NatsConnection,
} from '@nats-io/transport-node';
import {
  AppError,
  isRpcErrorPayload,
  prefixed,
  REQUEST_ID_HEADER,
  type RpcRequest,
  type RpcResponse,
  type RpcSubject,
} from '@tinkerdesk/contracts';
import { currentRequestId } from './context.js';
import { NATS_RECONNECT } from './nats-reconnect.js';
import { answerBytes } from './rpc-reply.js';
import { coalesceNatsWrites } from './nats-writes.js';
import { ServiceBreaker } from './service-breaker.js';

export interface RpcClientOptions {
  natsUrl: string;
  prefix: string;
  timeoutMs: number;
  name: string;
  /**
   * How long after a probe's end the next call of a service that stopped answering goes through as a probe
   * (ServiceBreaker). 0 by default: one probe at a time, so a retry right after the service resumes is sent,
   * while the calls that arrive beside a waiting probe are refused at once.
   */
  probeMs?: number;
}

/** The reply a Nest microservice handler sends: `{ id, response, err, isDisposed }`. */
interface NestReply {
  id?: string;
  response?: unknown;
  err?: unknown;
  isDisposed?: boolean;
}

/**
 * A service's answer as the JSON text it sent (UTF-8), not parsed: what `RpcClient.passThrough`
 * resolves to, for a route that answers it unchanged (the gateway splices it into its HTTP body,
 * apps/gateway/src/http/json-body.ts). `value()` parses it, for whoever needs the value after all.
 */
export class ServiceJson<T> {
  /** `bytes` is JSON text, or empty for an answer with no value (undefined). */
  private constructor(readonly bytes: Buffer) {}

  /** The bytes of a reply, trusted to be the JSON text a service wrote (JSON.stringify). */
  static ofBytes<T>(bytes: Buffer): ServiceJson<T> {
    return new ServiceJson<T>(bytes);
  }

  static ofValue<T>(value: T): ServiceJson<T> {
    const text = value === undefined ? undefined : (JSON.stringify(value) as string | undefined);
    return new ServiceJson<T>(text === undefined ? Buffer.alloc(0) : Buffer.from(text));
  }

  /** True when the answer is a JSON object (its text starts with `{`). */
  get isObject(): boolean {
    return this.bytes[0] === 0x7b;
  }

  value(): T {
    return (this.bytes.length === 0 ? undefined : JSON.parse(this.bytes.toString('utf8'))) as T;
  }

  toJSON(): T {
    return this.value();
  }
}

/** A request waiting for its reply (see RpcClient.send). */
interface Pending {
  resolve(msg: Msg): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  service: string;
}

/** Cut off from NATS (disconnected, reconnecting or closed): the call did not, or may not, reach a service. */
const busUnreachable = (): AppError => new AppError('UNAVAILABLE', 'the message bus is not reachable');

/** No replica of the service takes the call (no responders), or it is refused unsent (ServiceBreaker): the same words. */
const notAvailable = (service: string): AppError => new AppError('UNAVAILABLE', `the ${service} service is not available`);

/** The service name of a subject, for error texts ("identity" of "identity.health.check"). */
function serviceOf(subject: string): string {
  return subject.split('.')[0] ?? subject;
}

/**
 * Request/reply over NATS, speaking the packet format of @nestjs/microservices' NATS transport.
 * Unlike Nest's ClientNats it relies on NATS's no-responders status, so a service with no running
 * replica is known at once (no responders → UNAVAILABLE) instead of after a timeout, and every call
 * has a deadline. The request id of the current HTTP request travels in a NATS header.
 *
 * Replies come back on one subscription of the client's own (`<inbox>.<token>`), as in the NATS
 * client's request(), but without its per-request objects: its `RequestOne` rejects its promise again
 * once answered, building a `RequestError` (an Error with its stack) for every request (1.8% of the
 * gateway's CPU under load), and adds a deferred and a timer object on top of ours. The reply subject
 * names the service (`<inbox>.<service>.<token>`), so even a late reply tells that its service answers.
 *
 * A service that let a call reach its deadline without answering anything meanwhile is unresponsive
 * (ServiceBreaker): one call at a time goes through as a probe, the others beside it are refused at once,
 * unsent, with the no-responders answer, until the service answers again (see docs/operations.md#an-unresponsive-service).
 */
export class RpcClient {
  /** False between a 'disconnect' and the next 'reconnect' status of the connection. */
  private linked = true;
  /** The subject prefix of this client's replies; each request adds its token. */
  private readonly inbox = `${createInbox()}.`;
  private readonly pending = new Map<string, Pending>();
  private sequence = 0;
  private readonly breaker: ServiceBreaker;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly options: RpcClientOptions,
  ) {
    this.breaker = new ServiceBreaker(options.probeMs ?? 0);
    void this.followStatus();
    this.nc.subscribe(`${this.inbox}>`, { callback: (error, msg) => this.settle(error, msg) });
    void this.nc.closed().then(() => this.failAll(busUnreachable()));
  }

  /** A reply (or a no-responders status) for a waiting request; late replies of timed-out requests are dropped. */
  private settle(error: Error | null, msg: Msg): void {
    if (error) {
      // The subscription itself failed (a permissions error): no reply can arrive any more.
      this.failAll(error);
      return;
    }
    const rest = msg.subject.slice(this.inbox.length);
    const dot = rest.lastIndexOf('.');
    const token = rest.slice(dot + 1);
    const noResponders = msg.data.length === 0 && msg.headers?.code === 503;
    // Any reply from the service, even one too late for its call, shows that it answers again.
    if (!noResponders) this.breaker.answered(rest.slice(0, dot), performance.now());
    const waiting = this.pending.get(token);
    if (!waiting) return;
    this.pending.delete(token);
    clearTimeout(waiting.timer);
    if (noResponders) {
      this.breaker.released(waiting.service, performance.now());
      waiting.reject(new NoRespondersError(msg.subject));
    } else waiting.resolve(msg);
  }

  private failAll(error: Error): void {
    for (const [token, waiting] of this.pending) {
      this.pending.delete(token);
      clearTimeout(waiting.timer);
      this.breaker.released(waiting.service, performance.now());
      waiting.reject(error);
    }
  }

  /** Publishes a request and resolves with its reply; rejects with NoRespondersError or TimeoutError. */
  private request(
    service: string,
    subject: string,
    payload: string,
    timeoutMs: number,
    headers: ReturnType<typeof natsHeaders>,
  ): Promise<Msg> {
    const token = (this.sequence++).toString(36);
    const sentAt = performance.now();
    return new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(token);
        // Only a call within the usual deadline says the service is unresponsive: one given longer (a
        // payment provider's, OIDC's) may be slow by itself. Its probe's end must still be told.
        if (timeoutMs <= this.options.timeoutMs) this.breaker.timedOut(service, sentAt, performance.now());
        else this.breaker.released(service, performance.now());
        reject(new TimeoutError());
      }, timeoutMs);
      this.pending.set(token, { resolve, reject, timer, service });
      try {
        this.nc.publish(subject, payload, { reply: `${this.inbox}${service}.${token}`, headers });
      } catch (error) {
        this.pending.delete(token);
        clearTimeout(timer);
        this.breaker.released(service, performance.now());
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /**
   * A client that is reconnecting is not closed, so `isClosed()` alone says nothing about whether
   * a request can reach a service: follow the connection's status events instead.
   */
  private async followStatus(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect') {
        this.linked = false;
        // The calls on their way lost it: their replies may never come. Each is answered now instead of
        // at its deadline (a payment's is 20 s); a retry under its Idempotency-Key answers the first outcome.
        this.failAll(busUnreachable());
      } else if (status.type === 'reconnect') this.linked = true;
    }
  }

  static async connect(options: RpcClientOptions): Promise<RpcClient> {
    const nc = await connect({
      servers: options.natsUrl,
      name: options.name,
      ...NATS_RECONNECT,
      // Without it every request builds an Error up front for its stack (about 5% of the gateway's CPU
      // under load); a failure still arrives as NoResponders/Timeout/RequestError, translated below.
      noAsyncTraces: true,
    });
    coalesceNatsWrites(nc);
    return new RpcClient(nc, options);
  }

  get connection(): NatsConnection {
    return this.nc;
  }

  /** Connected to a NATS server now (not closed, not between a disconnect and a reconnect). */
  isConnected(): boolean {
    return this.linked && !this.nc.isClosed();
  }

  /**
   * Sends a request and waits for its answer. Both are typed from the subject (RpcMap in
   * libs/contracts): `send(SUBJECTS.identity.userMe, { userId })` resolves to a Profile.
   */
  async send<S extends RpcSubject>(subject: S, data: RpcRequest<S>, timeoutMs = this.options.timeoutMs): Promise<RpcResponse<S>> {
    const { msg, service } = await this.exchange(subject, data, timeoutMs);
    return RpcClient.answerOf<S>(msg, service);
  }

  /**
   * Like `send`, but resolves to the answer's JSON text as the service wrote it, not parsed: for a
   * route that answers it unchanged (the gateway's reads), which then neither parses nor encodes it
   * again. An error answer throws exactly as with `send`; a reply not framed for it (rpc-reply.ts) is
   * parsed and encoded again, so the result is the same either way.
   */
  async passThrough<S extends RpcSubject>(
    subject: S,
    data: RpcRequest<S>,
    timeoutMs = this.options.timeoutMs,
  ): Promise<ServiceJson<RpcResponse<S>>> {
    const { msg, service, id } = await this.exchange(subject, data, timeoutMs);
    const bytes = answerBytes(msg.data, id);
    if (bytes) return ServiceJson.ofBytes(bytes);
    return ServiceJson.ofValue(RpcClient.answerOf<S>(msg, service));
  }

  /** Publishes the request in Nest's packet format and waits for the reply; every failure as an AppError. */
  private async exchange(subject: RpcSubject, data: unknown, timeoutMs: number): Promise<{ msg: Msg; service: string; id: string }> {
    const id = randomUUID();
    const hdrs = natsHeaders();
    hdrs.set(REQUEST_ID_HEADER, currentRequestId() ?? id);
    const service = serviceOf(subject);
    const target = prefixed(this.options.prefix, subject);
    // Cut off from NATS: the request would only wait in the client's buffer until its deadline (or the
    // reconnect), so answer at once; the caller may retry shortly.
    if (!this.isConnected()) throw busUnreachable();
    // A service that stopped answering: refused at once, the call not sent (so surely not processed).
    if (!this.breaker.admit(service, performance.now())) throw notAvailable(service);
    try {
      const msg = await this.request(service, target, JSON.stringify({ pattern: target, data, id }), timeoutMs, hdrs);
      return { msg, service, id };
    } catch (error) {
      throw RpcClient.translate(error, service, timeoutMs);
    }
  }

  /** The answer of a reply in Nest's packet format, or its error thrown (an AppError when the service sent one). */
  private static answerOf<S extends RpcSubject>(msg: Msg, service: string): RpcResponse<S> {
    let reply: NestReply;
    try {
      reply = msg.json<NestReply>();
    } catch (error) {
      throw new Error(`${service} service answered with something that is not JSON`, { cause: error });
    }
    if (reply.err !== undefined && reply.err !== null) {
      if (isRpcErrorPayload(reply.err)) throw AppError.fromPayload(reply.err);
      throw new Error(`${service} service failed: ${typeof reply.err === 'string' ? reply.err : JSON.stringify(reply.err)}`);
    }
    // The service's handler is typed from the same map (@Handles), and validated its input with it.
    return reply.response as RpcResponse<S>;
  }

  static translate(error: unknown, service: string, timeoutMs: number): Error {
    const noResponders =
      error instanceof NoRespondersError ||
      (error instanceof RequestError && error.isNoResponders()) ||
      (error instanceof Error && error.cause instanceof NoRespondersError);
    if (noResponders) return notAvailable(service);
    const timedOut = error instanceof TimeoutError || (error instanceof Error && error.cause instanceof TimeoutError);
    if (timedOut) return new AppError('UNAVAILABLE', `the ${service} service did not answer within ${timeoutMs} ms`);
    if (error instanceof Error && /closed|disconnect|connection/i.test(error.message)) {
      return busUnreachable();
    }
    return error instanceof Error ? error : new Error(String(error));
  }

  async close(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.drain();
  }
}
