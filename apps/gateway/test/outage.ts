import { expect } from '@jest/globals';
import {
  MixedLoad,
  startLoopbackPush,
  startLoopbackSmtp,
  summarize,
  TestPlatform,
  type LoadKind,
  type LoopbackPushService,
  type LoopbackSmtp,
  type RequestRecord,
} from '@tinkerdesk/testing';

/**
 * One outage under the mixed load, the same for every dependency (outage-postgres, outage-nats,
 * outage-redis): the whole platform on a dependency of the test's own, the load running, the dependency
 * stopped for OUTAGE_MS then started again, and afterwards the checks of what was acknowledged.
 */

/** The gateway's deadline for a call to a service in these tests (production: 1.5 s). */
export const RPC_TIMEOUT_MS = 2000;
/** No request may take longer than this during the outage (the deadline, a 2-core machine's slack). */
export const OUTAGE_ANSWER_BOUND_MS = RPC_TIMEOUT_MS + 2000;
const WARM_UP_MS = 4000;
const OUTAGE_MS = 10_000;
/** Every kind of work must succeed again within this after the dependency is back. */
export const RECOVERY_BOUND_MS = 15_000;
/**
 * How long the checks afterwards wait for acknowledged work to finish. A job a worker took just as the
 * dependency went (a Redis that ran the take but could not answer it) is taken up again once its lock
 * lapses: the conversion worker's lock is 30 s (CONVERSION_LOCK_MS) and its stall check half that, so such a
 * job may finish 45 s after the outage began; the checks wait up to a minute (they end as soon as all is found).
 */
const SETTLE_MS = 60_000;

export interface Dependency {
  name: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export interface OutageRun {
  platform: TestPlatform;
  smtp: LoopbackSmtp;
  /** The push service the shares' target terminal is subscribed at. */
  push: LoopbackPushService;
}

export async function startOutagePlatform(extraEnv: Record<string, string>): Promise<OutageRun> {
  const [smtp, push] = await Promise.all([startLoopbackSmtp(), startLoopbackPush()]);
  const platform = await TestPlatform.start(['identity', 'commerce', 'terminals', 'conversion', 'conversion-worker', 'gateway'], {
    RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
    RATE_LIMIT_FACTOR: '1000',
    CONVERSION_JOBS_PER_MINUTE: '10000',
    SMTP_URL: smtp.url,
    // A mail that met the outage is tried again soon after it, not 10 s later.
    MAIL_RETRY_DELAY_MS: '500',
    // The push service on loopback, and a push that met the outage tried again soon after it.
    PUSH_ALLOWED_HOSTS: 'localhost',
    PUSH_RETRY_DELAY_MS: '500',
    ...extraEnv,
  });
  return { platform, smtp, push };
}

const PROCESSES = ['gateway', 'identity', 'commerce', 'terminals', 'conversion', 'conversion-worker'] as const;

/** The first error lines each process logged (what a 500 or a lost item was), shortened. */
function errorLines(platform: TestPlatform): string[] {
  return PROCESSES.flatMap((name) =>
    platform
      .logs(name)
      .split('\n')
      .filter((line) => line.includes('"level":"error"'))
      .slice(0, 3)
      .map((line) => `${name}: ${line.slice(0, 600)}`),
  );
}

const success = (r: RequestRecord): boolean => r.status >= 200 && r.status < 300;

/** Runs the load across one outage of `dependency`, prints the figures and asserts the guarantees. */
export async function runOutage(run: OutageRun, dependency: Dependency, mix: Partial<Record<LoadKind, number>>): Promise<void> {
  const load = await MixedLoad.prepare(run.platform, { rate: 12, mix, smtp: run.smtp, push: run.push, requestTimeoutMs: 15_000 });
  load.start();
  let stoppedAt: number;
  let backAt: number;
  const firstSuccess = new Map<LoadKind, number>();
  try {
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS));
    stoppedAt = load.now();
    await dependency.stop();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    await dependency.start();
    backAt = load.now();
    const kinds = Object.keys(mix) as LoadKind[];
    const deadline = backAt + RECOVERY_BOUND_MS + 5000;
    while (load.now() < deadline && firstSuccess.size < kinds.length) {
      for (const kind of kinds) {
        const first = load.records.filter((r) => r.kind === kind && r.at >= backAt && success(r)).sort((a, b) => a.at - b.at)[0];
        if (first && !firstSuccess.has(kind)) firstSuccess.set(kind, first.at + first.ms - backAt);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // A few more seconds of load after everything works again.
    await new Promise((resolve) => setTimeout(resolve, 3000));
  } finally {
    await load.stop();
  }

  // Requests that started once the dependency was gone (a second for the processes to notice) until it was back.
  const during = load.between(stoppedAt + 1000, backAt);
  const failed = during.filter((r) => !success(r));
  const findings = await load.findings(SETTLE_MS);
  const recovery = Object.fromEntries([...firstSuccess].map(([kind, ms]) => [kind, Math.round(ms)]));
  const ack = load.acknowledged;
  console.log(
    [
      `${dependency.name} outage of ${OUTAGE_MS / 1000} s under a mixed load of 12 flows/s:`,
      `  before: ${MixedLoad.describe(load.between(0, stoppedAt))}`,
      `  during: ${MixedLoad.describe(during)}; refused ones: ${MixedLoad.describe(failed)}`,
      `  slowest during: ${JSON.stringify(
        [...during]
          .sort((a, b) => b.ms - a.ms)
          .slice(0, 3)
          .map((r) => ({ ...r, at: Math.round(r.at), ms: Math.round(r.ms) })),
      )}`,
      `  after:  ${MixedLoad.describe(load.between(backAt, Infinity))}`,
      `  first success after the return (ms, per kind): ${JSON.stringify(recovery)}`,
      `  acknowledged: ${ack.orders.length} orders, ${ack.payments.length} payments, ${ack.shares.length} shares, ${ack.jobs.length} jobs, ` +
        `${[...ack.mails.values()].reduce((a, b) => a + b, 0)} mails; ${load.skipped} flows skipped (too many in flight)`,
      `  pushes of the acknowledged shares (at least once): ${JSON.stringify(load.pushDelivery)}`,
      `  findings: ${JSON.stringify(findings)}`,
      ...errorLines(run.platform).map((line) => `  logged: ${line}`),
    ].join('\n'),
  );

  // Nothing acknowledged was lost or doubled.
  expect(findings).toEqual({
    lostOrders: [],
    extraOrders: 0,
    badPayments: [],
    doubleCharges: [],
    lostShares: [],
    lostPushes: [],
    unfinishedJobs: [],
    missingMails: [],
    unpublishedEvents: {},
  });
  // The pushes were checked (the share flow's target is subscribed): each acknowledged share's arrived.
  expect(load.pushDelivery).toMatchObject({ shares: ack.shares.length, delivered: ack.shares.length });
  // No hang and no 500 at any time: an answer is a success, a client error or 503 UNAVAILABLE.
  const wrong = load.records.filter((r) => r.status === 0 || (r.status >= 500 && !(r.status === 503 && r.error === 'UNAVAILABLE')));
  expect(wrong).toEqual([]);
  // Refusals during the outage came quickly.
  expect(summarize(during.map((r) => r.ms)).max).toBeLessThan(OUTAGE_ANSWER_BOUND_MS);
  // Every kind works again by itself, within seconds.
  for (const kind of Object.keys(mix) as LoadKind[]) {
    expect({ kind, recovered: (firstSuccess.get(kind) ?? Infinity) < RECOVERY_BOUND_MS }).toEqual({ kind, recovered: true });
  }
  // The outage was seen (the test tested something).
  expect(failed.length).toBeGreaterThan(0);
}

export async function closeOutage(run: OutageRun | undefined): Promise<void> {
  await run?.platform.close();
  await run?.smtp.close();
  await run?.push.close();
}

/** Every kind of work of the mixed load, equally weighted. */
export const FULL_MIX: Partial<Record<LoadKind, number>> = { signin: 1, storefront: 1, order: 1, share: 1, conversion: 1, mail: 1 };
