/**
 * A steady stream of requests through the gateways for the replica tests: `concurrency` requests in flight
 * at all times, each the next of `ops` in turn, sent to the gateways in turn. A connection refused (a
 * gateway that stopped listening: the request never reached it) is sent again to another gateway, as a
 * load balancer does, and counted as `refused`; any other network error, and an answer later than
 * `deadlineMs`, is a failure.
 */
export interface LoadAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface LoadOp {
  name: string;
  send(base: string, signal: AbortSignal): Promise<Response>;
  /** Told of each answer (e.g. to keep the ids of what was acknowledged). */
  answered?(answer: LoadAnswer): void;
}

export interface LoadReport {
  requests: number;
  /** Answers by status, e.g. { 200: 812, 201: 203 }. */
  statuses: Record<number, number>;
  /** Network errors and deadlines passed, with the gateway and the operation. */
  failures: Array<{ op: string; base: string; error: string }>;
  /** Requests a gateway refused at connect (sent again to another). */
  refused: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Requests per second over the run. */
  rate: number;
}

export class SteadyLoad {
  private running = false;
  private loops: Array<Promise<void>> = [];
  private next = 0;
  private started = 0;
  private readonly durations: number[] = [];
  private report: Omit<LoadReport, 'p50Ms' | 'p99Ms' | 'maxMs' | 'rate'> = { requests: 0, statuses: {}, failures: [], refused: 0 };

  constructor(
    private readonly gateways: () => string[],
    private readonly ops: LoadOp[],
    private readonly options: { concurrency: number; deadlineMs: number },
  ) {}

  start(): this {
    this.running = true;
    this.started = Date.now();
    this.loops = Array.from({ length: this.options.concurrency }, () => this.loop());
    return this;
  }

  /** Requests answered so far. */
  get answered(): number {
    return this.report.requests;
  }

  /** Waits until `n` more requests have been answered. */
  async more(n: number): Promise<void> {
    const target = this.report.requests + n;
    while (this.report.requests < target && this.running) await new Promise((r) => setTimeout(r, 20));
  }

  /** Stops sending, waits for the requests in flight and reports. */
  async stop(): Promise<LoadReport> {
    this.running = false;
    await Promise.all(this.loops);
    const sorted = [...this.durations].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    const seconds = (Date.now() - this.started) / 1000;
    return { ...this.report, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted.at(-1) ?? 0, rate: Math.round(this.report.requests / seconds) };
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const op = this.ops[this.next % this.ops.length]!;
      const turn = this.next++;
      await this.once(op, turn);
    }
  }

  private async once(op: LoadOp, turn: number): Promise<void> {
    const begun = Date.now();
    const tried = new Set<string>();
    for (;;) {
      const gateways = this.gateways().filter((g) => !tried.has(g));
      const base = gateways[turn % Math.max(1, gateways.length)];
      if (!base) {
        this.report.failures.push({ op: op.name, base: '-', error: 'every gateway refused the connection' });
        return;
      }
      tried.add(base);
      try {
        const res = await op.send(base, AbortSignal.timeout(this.options.deadlineMs));
        const text = await res.text();
        const body = (res.headers.get('content-type')?.includes('application/json') && text ? JSON.parse(text) : {}) as Record<
          string,
          unknown
        >;
        this.durations.push(Date.now() - begun);
        this.report.requests += 1;
        this.report.statuses[res.status] = (this.report.statuses[res.status] ?? 0) + 1;
        op.answered?.({ status: res.status, body });
        return;
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code;
        if (code === 'ECONNREFUSED') {
          this.report.refused += 1;
          continue;
        }
        const name = (error as Error).name;
        this.report.failures.push({
          op: op.name,
          base,
          error:
            name === 'TimeoutError' ? `no answer within ${this.options.deadlineMs} ms` : `${name}: ${code ?? (error as Error).message}`,
        });
        return;
      }
    }
  }
}

/** A JSON request (with a bearer token) as a load operation's `send`. */
export function jsonRequest(method: string, path: string, token?: string, body?: unknown) {
  return (base: string, signal: AbortSignal): Promise<Response> =>
    fetch(`${base}${path}`, {
      method,
      signal,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}
