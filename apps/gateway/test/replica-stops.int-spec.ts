import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LiveStreamReader, newAccount, openShop, testPicture, TestPlatform, type Shop, type TestAccount } from '@tinkerdesk/testing';
import { jsonRequest, SteadyLoad, type LoadOp, type LoadReport } from './steady-load.js';

/**
 * Replicas stopped and killed under a steady load (issue 32, "Faults survived"): two gateways, two of
 * identity, commerce and conversion, two conversion workers, 50 requests in flight (profile and
 * storefront reads, order lists, orders placed, conversions). A replica stopped with SIGTERM leaves its
 * queue group and answers what it holds, a gateway stopped with SIGTERM finishes every request it took:
 * 0 failed requests. A replica and a worker SIGKILLed: every request still answers within the deadline
 * (200 or 503 UNAVAILABLE), every acknowledged order exists once, every acknowledged job ends with its reason.
 */
const RPC_TIMEOUT_MS = 5000;
/** The longest any request may take: the gateway's deadline and the slack of two busy cores. */
const DEADLINE_MS = RPC_TIMEOUT_MS + 3000;
const CONCURRENCY = 50;

let platform: TestPlatform;
let shop: Shop;
let buyer: TestAccount;
let picture: Buffer;

beforeAll(async () => {
  platform = await TestPlatform.start(
    ['identity', 'commerce', 'conversion', 'conversion-worker', 'gateway'],
    {
      RATE_LIMIT_FACTOR: '100000',
      CONVERSION_JOBS_PER_MINUTE: '100000',
      // Every read reaches identity: the gateways remember no session and no profile.
      SESSION_CACHE_TTL_MS: '0',
      PROFILE_CACHE_TTL_MS: '0',
      RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
      LIVE_HEARTBEAT_MS: '500',
      LOG_LEVEL: 'warn',
    },
    { replicas: 2 },
  );
  shop = await openShop(platform, {
    tag: 'replica-seller',
    service: { name: 'Replica shop', displayName: 'Replica shop', provider: 'sandbox', vendor: 'digital', account: 'sandbox_replicas' },
    product: { name: 'Print', price: 900 },
  });
  buyer = await newAccount(platform, 'replica-buyer');
  picture = await testPicture(32, 24);
}, 180_000);

afterAll(async () => {
  await platform?.close();
});

/** The mixed load of this file; `orders` and `jobs` collect what was acknowledged. */
function mixedLoad(acknowledged: { orders: string[]; jobs: string[] }, conversions = false): SteadyLoad {
  const ops: LoadOp[] = [
    { name: 'profile', send: jsonRequest('GET', '/v1/users/me', buyer.token) },
    { name: 'storefront', send: jsonRequest('GET', `/v1/users/${shop.seller.guid}/services/${shop.serviceId}`) },
    {
      name: 'order',
      send: jsonRequest('POST', `/v1/users/${shop.seller.guid}/services/${shop.serviceId}/order`, buyer.token, {
        product: shop.productId,
        email: buyer.email,
      }),
      answered: ({ status, body }) => {
        if (status === 201) acknowledged.orders.push((body.order as { id: string }).id);
      },
    },
    { name: 'my orders', send: jsonRequest('GET', '/v1/orders?limit=5', buyer.token) },
  ];
  if (conversions)
    ops.push({
      name: 'conversion',
      send: (base, signal) => {
        const form = new FormData();
        form.set('file', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'small.png');
        form.set('to', 'webp');
        return fetch(`${base}/v1/convert/upload`, {
          method: 'POST',
          body: form,
          signal,
          headers: { authorization: `Bearer ${buyer.token}` },
        });
      },
      answered: ({ status, body }) => {
        if (status === 202) acknowledged.jobs.push((body.job as { id: string }).id);
      },
    });
  return new SteadyLoad(() => platform.urls, ops, { concurrency: CONCURRENCY, deadlineMs: DEADLINE_MS });
}

function print(title: string, report: LoadReport, extra: Record<string, unknown> = {}): void {
  const { failures, ...figures } = report;
  console.log(
    `${title}: ${JSON.stringify({ ...figures, failures: failures.length, ...extra })}${failures.length ? `\n${JSON.stringify(failures.slice(0, 5))}` : ''}`,
  );
}

/** Every acknowledged order is in the database exactly once. */
async function expectOrdersOnce(ids: string[]): Promise<void> {
  expect(new Set(ids).size).toBe(ids.length);
  const rows = await platform.query<{ id: string }>(`SELECT "id" FROM "commerce"."order" WHERE "id" = ANY($1::uuid[])`, [ids]);
  expect(rows.length).toBe(ids.length);
}

/** Stops one replica with a signal while the load runs; how long it took to exit and how. */
async function stopUnderLoad(load: SteadyLoad, name: Parameters<TestPlatform['stopProcess']>[0], signal: NodeJS.Signals, replica: number) {
  await load.more(300);
  const begun = Date.now();
  const how = await platform.stopProcess(name, signal, replica);
  const exitMs = Date.now() - begun;
  await load.more(300);
  return { ...how, exitMs };
}

describe('one of two replicas stopped under load', () => {
  it('a commerce replica, then an identity replica, stopped with SIGTERM: 0 failed requests, every order once', async () => {
    const acknowledged = { orders: [] as string[], jobs: [] as string[] };
    const load = mixedLoad(acknowledged).start();
    const commerce = await stopUnderLoad(load, 'commerce', 'SIGTERM', 1);
    const identity = await stopUnderLoad(load, 'identity', 'SIGTERM', 1);
    const report = await load.stop();
    print('SIGTERM to one of two commerce and identity replicas', report, { commerceExit: commerce, identityExit: identity });
    expect(report.failures).toEqual([]);
    expect(Object.keys(report.statuses).filter((s) => !['200', '201'].includes(s))).toEqual([]);
    expect(report.requests).toBeGreaterThan(600);
    // Each left cleanly (exit 0), within its grace period.
    expect([commerce.code, identity.code]).toEqual([0, 0]);
    expect(Math.max(commerce.exitMs, identity.exitMs)).toBeLessThan(8000);
    await expectOrdersOnce(acknowledged.orders);
    await Promise.all([platform.startProcess('commerce', { replica: 1 }), platform.startProcess('identity', { replica: 1 })]);
  }, 180_000);

  it('a gateway stopped with SIGTERM while requests are in flight: every request it took finishes, its live streams end', async () => {
    const acknowledged = { orders: [] as string[], jobs: [] as string[] };
    const opened = await LiveStreamReader.open(platform.urlOf(1), buyer.token);
    expect(opened.status).toBe(200);
    const live = opened.stream!;
    const load = mixedLoad(acknowledged).start();
    const gateway = await stopUnderLoad(load, 'gateway', 'SIGTERM', 1);
    const report = await load.stop();
    print('SIGTERM to one of two gateways', report, { gatewayExit: gateway });
    expect(report.failures).toEqual([]);
    expect(Object.keys(report.statuses).filter((s) => !['200', '201'].includes(s))).toEqual([]);
    expect(gateway.code).toBe(0);
    expect(gateway.exitMs).toBeLessThan(8000);
    // The stream was told why it ended (its client reconnects, to the other gateway, after its retry hint).
    await live.until(() => live.ended);
    expect(live.frames.at(-1)).toEqual({ event: 'end', data: JSON.stringify({ reason: 'server shutting down' }) });
    expect(platform.logs('gateway', 1)).not.toMatch(/were cut/);
    await expectOrdersOnce(acknowledged.orders);
    await platform.startProcess('gateway', { replica: 1 });
  }, 180_000);
});

describe('one of two replicas killed under load', () => {
  it('a commerce replica and a conversion worker SIGKILLed: answers within the deadline, orders once, every job ends', async () => {
    const acknowledged = { orders: [] as string[], jobs: [] as string[] };
    const load = mixedLoad(acknowledged, true).start();
    await load.more(300);
    await Promise.all([platform.stopProcess('commerce', 'SIGKILL', 1), platform.stopProcess('conversion-worker', 'SIGKILL', 1)]);
    await load.more(500);
    const report = await load.stop();
    // During the blip a request given to the dead replica is answered 503 UNAVAILABLE at the deadline, never later.
    print('SIGKILL to one of two commerce replicas and one of two workers', report);
    expect(report.failures).toEqual([]);
    expect(Object.keys(report.statuses).filter((s) => !['200', '201', '202', '503'].includes(s))).toEqual([]);
    expect(report.maxMs).toBeLessThan(DEADLINE_MS);
    await expectOrdersOnce(acknowledged.orders);
    expect(acknowledged.jobs.length).toBeGreaterThan(10);
    // Every acknowledged job ends: done, or failed with its reason (a job the killed worker held is taken up again).
    const ends = await Promise.all(acknowledged.jobs.map((id) => finished(id)));
    const failed = ends.filter((j) => j.state !== 'completed');
    console.log(`jobs acknowledged: ${ends.length}, completed: ${ends.length - failed.length}, failed: ${failed.length}`);
    expect(failed.filter((j) => j.state !== 'failed' || !j.error)).toEqual([]);
    await Promise.all([platform.startProcess('commerce', { replica: 1 }), platform.startProcess('conversion-worker', { replica: 1 })]);
  }, 240_000);
});

async function finished(id: string): Promise<{ id: string; state: string; error?: string }> {
  const until = Date.now() + 120_000;
  for (;;) {
    const { body } = await platform.call('GET', `/v1/convert/jobs/${id}`, undefined, buyer.token);
    const job = body.job as { state: string; error?: string } | undefined;
    if (job && !['queued', 'active'].includes(job.state)) return { id, ...job };
    if (Date.now() > until) throw new Error(`job ${id} did not end: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
