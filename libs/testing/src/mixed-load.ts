import { randomBytes } from 'node:crypto';
import { testPicture } from './images.js';
import type { TestPlatform } from './platform.js';
import type { LoopbackPushService } from './push-service.js';
import { newAccount, openShop, type Shop, type TestAccount } from './shop.js';
import type { LoopbackSmtp } from './smtp-server.js';

/** The kinds of work the mixed load does, each a user's flow through the real gateway. */
export type LoadKind = 'signin' | 'storefront' | 'order' | 'share' | 'conversion' | 'mail';

export interface MixedLoadOptions {
  /** Flows started per second (a steady rate, whatever the answers). */
  rate: number;
  /** Relative weight of each kind; a kind left out is not run. */
  mix: Partial<Record<LoadKind, number>>;
  /** A request not answered within this is recorded as status 0 (a hang). Default 10 s. */
  requestTimeoutMs?: number;
  /** Flows in flight at most: past it a start is skipped and counted (the load never piles up). Default 50. */
  maxInFlight?: number;
  /** The SMTP server the platform sends through (SMTP_URL); required for `mail`. */
  smtp?: LoopbackSmtp;
  /** The price of the shop's product, in cents. Default 990. */
  price?: number;
  /**
   * A push service the share flow's target terminal subscribes at (the platform needs
   * PUSH_ALLOWED_HOSTS=localhost): then every acknowledged share's push must arrive there. Without it
   * the target has no subscription and shares are kept without a push.
   */
  push?: LoopbackPushService;
}

/** One HTTP request of a flow: when it started (ms since the load started), how long it took, its answer. */
export interface RequestRecord {
  kind: LoadKind;
  step: string;
  at: number;
  ms: number;
  /** 0 when no answer came (network error or the client's timeout). */
  status: number;
  /** The envelope's `error` code of a failure (or the network error's message). */
  error?: string;
}

/** What the platform acknowledged (a 2xx answer that said it was done or taken). */
export interface Acknowledged {
  orders: string[];
  /** Orders whose sandbox card payment was answered 200. */
  payments: string[];
  /** Order creations tried (answered or not): no more orders than this may exist. */
  orderAttempts: number;
  shares: string[];
  jobs: string[];
  /** Password reset mails asked for, per address. */
  mails: Map<string, number>;
}

/** What the checks after the load found wrong; every list empty means nothing was lost or doubled. */
export interface LoadFindings {
  lostOrders: string[];
  /** Orders beyond the creations tried (a creation made twice). */
  extraOrders: number;
  /** Acknowledged payments whose order is not paid with exactly one charge of the price. */
  badPayments: Array<{ orderId: string; state: string; charged: number }>;
  /** Any order of the shop charged more than its price. */
  doubleCharges: Array<{ orderId: string; charged: number }>;
  lostShares: string[];
  /** Acknowledged shares whose push never reached the push service (with `push`), with the share's push state. */
  lostPushes: Array<{ shareId: string; push: string; error: string | null }>;
  /** Acknowledged jobs that did not end completed, or failed without a reason. */
  unfinishedJobs: Array<{ id: string; state: string; error: string | null }>;
  /** Addresses that received fewer reset mails than were asked for. */
  missingMails: Array<{ email: string; asked: number; received: number }>;
  /** Outbox events never published, per service schema. */
  unpublishedEvents: Record<string, number>;
}

/** The pushes of the acknowledged shares at the push service (with `push`): delivery is at least once. */
export interface PushDelivery {
  shares: number;
  /** Shares whose push arrived at least once. */
  delivered: number;
  /** Messages beyond the first for the same share (allowed: at least once; the page shows a share once). */
  duplicates: number;
}

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** p50/p99/max of the durations (ms, rounded); zeros when there are none. */
export function summarize(ms: number[]): LatencySummary {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: Math.round(sorted[sorted.length - 1] ?? 0) };
}

const CARD = { number: '4242424242424242', expiry: '12 / 34', cvc: '123' };
const MAIL_ACCOUNTS = 8;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * A steady mixed load through the real gateway: sign-ins, storefront reads, orders paid with the sandbox
 * card, shares between terminals (pushed to a push service when `push` is given), small image
 * conversions and password-reset mails. Every request's
 * outcome and latency is recorded, and everything the platform acknowledged, so that `findings()` can
 * check afterwards that nothing acknowledged was lost or doubled. Fault tests run it across an outage;
 * a soak benchmark runs it for minutes (rate, duration and mix are the caller's).
 */
export class MixedLoad {
  readonly records: RequestRecord[] = [];
  readonly acknowledged: Acknowledged = { orders: [], payments: [], orderAttempts: 0, shares: [], jobs: [], mails: new Map() };
  /** Flows not started because `maxInFlight` were still running. */
  skipped = 0;
  /** What `findings()` counted at the push service (with `push`). */
  pushDelivery: PushDelivery | undefined;
  private startedAt = 0;
  private inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private sequence = 0;
  private readonly kinds: LoadKind[];

  private constructor(
    private readonly platform: TestPlatform,
    private readonly options: MixedLoadOptions,
    private readonly shop: Shop,
    private readonly buyer: TestAccount & { password: string },
    private readonly terminal: { owner: TestAccount; targetId: string; clientHash: string | undefined },
    private readonly mailAccounts: string[],
    private readonly picture: Buffer,
  ) {
    // A weighted wheel: each kind appears as often as its weight.
    this.kinds = (Object.entries(options.mix) as Array<[LoadKind, number]>).flatMap(([kind, weight]) => Array<LoadKind>(weight).fill(kind));
    if (this.kinds.length === 0) throw new Error('the mix names no kind of work');
    if (options.mix.mail && !options.smtp) throw new Error('mail in the mix needs the SMTP server (options.smtp)');
  }

  /** Makes the accounts, the shop and the terminal the load uses (through the gateway, before any fault). */
  static async prepare(platform: TestPlatform, options: MixedLoadOptions): Promise<MixedLoad> {
    const tag = `load${randomBytes(2).toString('hex')}`;
    const password = `${tag} buyer password`;
    const [shop, buyer, owner] = await Promise.all([
      openShop(platform, {
        tag: `${tag}-seller`,
        service: { name: 'Load shop', displayName: 'Load shop', provider: 'sandbox', vendor: 'digital', account: `sandbox_${tag}` },
        product: { name: 'Load print', price: options.price ?? 990 },
      }),
      newAccount(platform, `${tag}-buyer`, password),
      newAccount(platform, `${tag}-terminals`),
    ]);
    const terminal = await platform.call(
      'POST',
      '/v1/terminals',
      { label: 'Load target', send: true, receive: true, active: true, platform: 'Browser (desktop)', capabilities: [], remote: false },
      owner.token,
    );
    const targetId = (terminal.body.terminal as { id: string } | undefined)?.id;
    if (!targetId) throw new Error(`could not register a terminal: ${JSON.stringify(terminal.body)}`);
    let clientHash: string | undefined;
    if (options.push) {
      const { endpoint, keys, clientHash: hash } = await options.push.subscribe();
      const saved = await platform.call(
        'POST',
        `/v1/terminals/${targetId}/subscription`,
        { endpoint, expirationTime: null, keys },
        owner.token,
      );
      if (saved.status !== 200) throw new Error(`could not subscribe the terminal to push: ${JSON.stringify(saved.body)}`);
      clientHash = hash;
    }
    const mailAccounts = options.mix.mail
      ? (await Promise.all(Array.from({ length: MAIL_ACCOUNTS }, (_, i) => newAccount(platform, `${tag}-mail${i}`)))).map((a) => a.email)
      : [];
    return new MixedLoad(
      platform,
      options,
      shop,
      { ...buyer, password },
      { owner, targetId, clientHash },
      mailAccounts,
      await testPicture(32, 24),
    );
  }

  /** Milliseconds since the load started (the clock of `RequestRecord.at`). */
  now(): number {
    return performance.now() - this.startedAt;
  }

  /** Starts flows at the steady rate until `stop()`. */
  start(): void {
    this.startedAt = performance.now();
    const every = 1000 / this.options.rate;
    this.timer = setInterval(() => this.launch(), every);
  }

  /** Stops starting flows and waits for those in flight to end. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all([...this.inFlight]);
  }

  /** Runs for `ms`, then stops (a soak: start, wait, stop). */
  async runFor(ms: number): Promise<void> {
    this.start();
    await new Promise((resolve) => setTimeout(resolve, ms));
    await this.stop();
  }

  private launch(): void {
    if (this.inFlight.size >= (this.options.maxInFlight ?? 50)) {
      this.skipped++;
      return;
    }
    const n = this.sequence++;
    const kind = this.kinds[n % this.kinds.length] as LoadKind;
    const flow = this.flow(kind, n).catch(() => undefined);
    this.inFlight.add(flow);
    void flow.finally(() => this.inFlight.delete(flow));
  }

  /** One request, timed and recorded; answers the status and the parsed body ({} when none). */
  private async request(
    kind: LoadKind,
    step: string,
    method: string,
    path: string,
    init: { json?: unknown; form?: FormData; token?: string } = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const at = this.now();
    const headers: Record<string, string> = {};
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const body = init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined);
    let status = 0;
    let parsed: Record<string, unknown> = {};
    let error: string | undefined;
    try {
      const res = await fetch(`${this.platform.url}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal: AbortSignal.timeout(this.options.requestTimeoutMs ?? 10_000),
      });
      const text = await res.text();
      status = res.status;
      parsed = res.headers.get('content-type')?.includes('application/json') && text ? (JSON.parse(text) as Record<string, unknown>) : {};
      if (status >= 400) error = typeof parsed.error === 'string' ? parsed.error : `HTTP ${status}`;
    } catch (cause) {
      error = cause instanceof Error ? cause.name : String(cause);
    }
    this.records.push({ kind, step, at, ms: this.now() - at, status, ...(error !== undefined ? { error } : {}) });
    return { status, body: parsed };
  }

  private async flow(kind: LoadKind, n: number): Promise<void> {
    const { guid: seller } = this.shop.seller;
    switch (kind) {
      case 'signin':
        await this.request(kind, 'signin', 'POST', `/v1/users/${encodeURIComponent(this.buyer.email)}/signin`, {
          json: { password: this.buyer.password },
        });
        return;
      case 'storefront':
        await this.request(kind, 'page', 'GET', `/v1/users/${seller}/services/${this.shop.serviceId}`);
        return;
      case 'order': {
        this.acknowledged.orderAttempts++;
        const placed = await this.request(kind, 'create', 'POST', `/v1/users/${seller}/services/${this.shop.serviceId}/order`, {
          json: { product: this.shop.productId, email: `load-buyer-${n}@example.com`, share: false },
          token: this.buyer.token,
        });
        const orderId = (placed.body.order as { id?: string } | undefined)?.id;
        if (placed.status >= 300 || !orderId) return;
        this.acknowledged.orders.push(orderId);
        const started = await this.request(kind, 'pay', 'POST', `/v1/orders/${orderId}/pay`, { token: this.buyer.token });
        const sessionId = started.body.sessionId;
        if (started.status !== 200 || typeof sessionId !== 'string') return;
        const paid = await this.request(kind, 'card', 'POST', `/v1/sandbox/sessions/${sessionId}/pay`, { json: CARD });
        if (paid.status === 200) this.acknowledged.payments.push(orderId);
        return;
      }
      case 'share': {
        const shared = await this.request(kind, 'share', 'POST', `/v1/terminals/${this.terminal.targetId}/share`, {
          json: { contentType: 'text/plain', content: `load share ${n}`, description: '' },
          token: this.terminal.owner.token,
        });
        const id = (shared.body.share as { id?: string } | undefined)?.id;
        if (shared.status === 200 && id) this.acknowledged.shares.push(id);
        return;
      }
      case 'conversion': {
        const form = new FormData();
        form.set('file', new Blob([new Uint8Array(this.picture)], { type: 'image/png' }), `load-${n}.png`);
        form.set('to', 'webp');
        const created = await this.request(kind, 'upload', 'POST', '/v1/convert/upload', { form, token: this.buyer.token });
        const id = (created.body.job as { id?: string } | undefined)?.id;
        if (created.status === 202 && id) this.acknowledged.jobs.push(id);
        return;
      }
      case 'mail': {
        const email = this.mailAccounts[n % this.mailAccounts.length] as string;
        const asked = await this.request(kind, 'reset', 'POST', '/v1/account/resetpassword/setup', { json: { email } });
        if (asked.status === 200) this.acknowledged.mails.set(email, (this.acknowledged.mails.get(email) ?? 0) + 1);
        return;
      }
    }
  }

  /**
   * Checks what was acknowledged against the database, the sandbox processor's own records and the SMTP
   * server's inbox, waiting up to `settleMs` for what finishes after the answer (jobs, mails, the outbox).
   */
  async findings(settleMs = 30_000): Promise<LoadFindings> {
    const { platform, acknowledged: ack } = this;
    const price = this.options.price ?? 990;
    const orders = await platform.query<{ id: string; state: string; charged: number }>(
      `SELECT o."id", o."state",
              coalesce((SELECT sum(s."amount") FROM "commerce"."sandbox_session" s WHERE s."order_id" = o."id" AND s."payment_intent" IS NOT NULL), 0)::int AS charged
         FROM "commerce"."order" o WHERE o."service_id" = $1`,
      [this.shop.serviceId],
    );
    const byId = new Map(orders.map((o) => [o.id, o]));
    const paymentsSettled = await until(
      async () => {
        const rows = await platform.query<{ id: string; state: string }>(
          `SELECT "id", "state" FROM "commerce"."order" WHERE "id" = ANY($1)`,
          [ack.payments],
        );
        return rows;
      },
      (rows) => rows.every((r) => r.state === 'paid'),
      settleMs,
    );
    const paidState = new Map(paymentsSettled.map((r) => [r.id, r.state]));
    const shares = await platform.query<{ id: string }>(`SELECT "id" FROM "terminals"."share" WHERE "id" = ANY($1)`, [ack.shares]);
    const jobs = await until(
      () =>
        platform.query<{ id: string; state: string; error: string | null }>(
          `SELECT "id", "state", "error" FROM "conversion"."job" WHERE "id" = ANY($1)`,
          [ack.jobs],
        ),
      (rows) => rows.length === ack.jobs.length && rows.every((r) => r.state === 'completed' || (r.state === 'failed' && !!r.error)),
      settleMs,
    );
    const received = (email: string): number =>
      this.options.smtp?.inbox.filter((m) => m.to.includes(email.toLowerCase()) && /\/reset\//.test(m.text)).length ?? 0;
    await until(
      () => Promise.resolve([...ack.mails].every(([email, asked]) => received(email) >= asked)),
      (done) => done,
      settleMs,
    );
    const pushed = await this.pushesPerShare(settleMs);
    const unpublished = await until(
      () =>
        Promise.all(
          ['commerce', 'identity', 'terminals'].map(async (schema) => {
            const rows = await platform.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM "${schema}"."outbox_event" WHERE "published_at" IS NULL`,
            );
            return [schema, rows[0]?.n ?? 0] as const;
          }),
        ),
      (counts) => counts.every(([, n]) => n === 0),
      settleMs,
    );
    const sharesFound = new Set(shares.map((s) => s.id));
    const notPushed = pushed ? ack.shares.filter((id) => !pushed.has(id)) : [];
    const pushStates = await platform.query<{ id: string; push: string; push_error: string | null }>(
      `SELECT "id", "push", "push_error" FROM "terminals"."share" WHERE "id" = ANY($1)`,
      [notPushed],
    );
    const pushState = new Map(pushStates.map((s) => [s.id, s]));
    const jobsFound = new Map(jobs.map((j) => [j.id, j]));
    return {
      lostOrders: ack.orders.filter((id) => !byId.has(id)),
      extraOrders: Math.max(0, orders.length - ack.orderAttempts),
      badPayments: ack.payments
        .map((id) => ({ orderId: id, state: paidState.get(id) ?? 'missing', charged: byId.get(id)?.charged ?? 0 }))
        .filter((p) => p.state !== 'paid' || p.charged !== price),
      doubleCharges: orders.filter((o) => o.charged > price).map((o) => ({ orderId: o.id, charged: o.charged })),
      lostShares: ack.shares.filter((id) => !sharesFound.has(id)),
      lostPushes: notPushed.map((id) => ({
        shareId: id,
        push: pushState.get(id)?.push ?? 'missing',
        error: pushState.get(id)?.push_error ?? null,
      })),
      unfinishedJobs: ack.jobs
        .map((id) => jobsFound.get(id) ?? { id, state: 'missing', error: null })
        .filter((j) => !(j.state === 'completed' || (j.state === 'failed' && !!j.error))),
      missingMails: [...ack.mails]
        .map(([email, asked]) => ({ email, asked, received: received(email) }))
        .filter((m) => m.received < m.asked),
      unpublishedEvents: Object.fromEntries(unpublished.filter(([, n]) => n > 0)),
    };
  }

  /**
   * With `push`: how many times the push service received each share's push (by the `shareId` of the
   * decrypted message), waiting up to `settleMs` for every acknowledged share's; sets `pushDelivery`.
   */
  private async pushesPerShare(settleMs: number): Promise<Map<string, number> | undefined> {
    const { push } = this.options;
    const { clientHash } = this.terminal;
    if (!push || !clientHash) return undefined;
    const count = async (): Promise<Map<string, number>> => {
      const perShare = new Map<string, number>();
      for (const message of await push.messages(clientHash)) {
        const { shareId } = JSON.parse(message) as { shareId?: string };
        if (shareId) perShare.set(shareId, (perShare.get(shareId) ?? 0) + 1);
      }
      return perShare;
    };
    const shares = this.acknowledged.shares;
    const perShare = await until(count, (got) => shares.every((id) => got.has(id)), settleMs);
    const delivered = shares.filter((id) => perShare.has(id));
    this.pushDelivery = {
      shares: shares.length,
      delivered: delivered.length,
      duplicates: delivered.reduce((sum, id) => sum + (perShare.get(id) ?? 1) - 1, 0),
    };
    return perShare;
  }

  /** The requests started between two moments of the load's clock. */
  between(from: number, to: number): RequestRecord[] {
    return this.records.filter((r) => r.at >= from && r.at < to);
  }

  /** A one-line account of a set of requests: count per status and the latency summary. */
  static describe(records: RequestRecord[]): string {
    const statuses = new Map<number, number>();
    for (const r of records) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    const { count, p50, p99, max } = summarize(records.map((r) => r.ms));
    const byStatus = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, c]) => `${s}×${c}`)
      .join(' ');
    return `${count} requests (${byStatus}) p50 ${p50} ms p99 ${p99} ms max ${max} ms`;
  }
}
