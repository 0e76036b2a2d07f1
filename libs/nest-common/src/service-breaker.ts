/**
 * Which services have stopped answering, as one RpcClient sees them (a circuit breaker per service).
 *
 * A request that reaches its deadline while the service has answered nothing since the request was sent
 * marks the service unresponsive (a process stopped with SIGSTOP, hung in a loop, or whose replies are
 * lost). From then on its calls are refused at once, never sent, instead of each waiting out the
 * deadline: under load a pile of such calls is what pushed answers past 2 s. One call at a time goes
 * through as a probe (`probeMs` after the previous probe's end: RpcClient's default 0, so a retry sent
 * right after the service resumed goes through); any reply from the service (the probe's, or a late reply to a call that timed
 * out) marks it answering again at once. A deadline reached while the service answered other calls
 * meanwhile (one slow call) changes nothing; RpcClient tells only of calls within its usual deadline.
 *
 * Pure bookkeeping on the times it is given (milliseconds of a monotonic clock), so it is unit-tested
 * without NATS (service-breaker.spec.ts).
 */
export class ServiceBreaker {
  /** The last time each service answered anything. */
  private readonly lastAnswer = new Map<string, number>();
  /** Services marked unresponsive: when the next probe may go, and whether one is on its way. */
  private readonly open = new Map<string, { probeAt: number; probing: boolean }>();

  constructor(private readonly probeMs: number) {}

  /** Whether a call to `service` may be sent now (true for the one probe of an unresponsive service). */
  admit(service: string, now: number): boolean {
    const state = this.open.get(service);
    if (!state) return true;
    if (state.probing || now < state.probeAt) return false;
    state.probing = true;
    return true;
  }

  /** A reply came from `service` (an answer or an error it sent; not NATS's no-responders status). */
  answered(service: string, now: number): void {
    this.lastAnswer.set(service, now);
    this.open.delete(service);
  }

  /** A call sent at `sentAt` reached its deadline: the service is unresponsive unless it answered since. */
  timedOut(service: string, sentAt: number, now: number): void {
    const last = this.lastAnswer.get(service);
    if (last !== undefined && last >= sentAt) return;
    this.open.set(service, { probeAt: now + this.probeMs, probing: false });
  }

  /** A call of an unresponsive service ended otherwise (no responders, a send that failed): the next probe after `probeMs`. */
  released(service: string, now: number): void {
    const state = this.open.get(service);
    if (state?.probing) this.open.set(service, { probeAt: now + this.probeMs, probing: false });
  }

  /** Whether `service` is marked unresponsive now. */
  isOpen(service: string): boolean {
    return this.open.has(service);
  }
}
