#!/usr/bin/env node
// Where a lone products read's time goes, hop by hop (docs/testing.md, "Where the uncached read's time goes"):
// the median of `count` sequential requests of each part of the path, measured from this process, so that
// each hop is the difference between two rows:
//   - the reference (bench/lib/storefront-reference.mjs: node:http + pg) through HTTP, and its two
//     statements alone (one after the other, as it makes them, on a pool of this process);
//   - the two statements side by side, as commerce makes them (the service's check beside the products);
//   - a NATS round trip to an echo responder in a process of its own (bench/lib/nats-echo.mjs), with the
//     writes flushed per message and coalesced per turn of the event loop (coalesceNatsWrites) on both
//     ends: a lone request must not wait for coalescing;
//   - commerce asked directly over NATS (RpcClient.passThrough, as the gateway asks it);
//   - a gateway-only route (GET /v1/health/live: HTTP, Nest's pipeline, no NATS);
//   - the whole products read through the gateway;
//   - the architecture's floor (bench/lib/floor.mjs: a bare Nest app → NATS → a bare Nest microservice +
//     pg, and its variants), each whole read through HTTP, and the floor's Nest microservice and its bare
//     responder asked directly over NATS, so the platform's gateway and commerce can each be set against
//     the floor's halves.
// Starts its own platform (identity, commerce, gateway) on a throwaway database. Builds nothing: run
// `npm run build:server` first. Usage: node bench/read-hops.mjs [--count=2000] [--products=12] [--no-floor]
// [--port=N] (the floors' HTTP halves on N, N+1…; any free port without it)
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { RpcClient } from '../libs/nest-common/dist/index.js';
import { coalesceNatsWrites } from '../libs/nest-common/dist/nats-writes.js';
import { TestPlatform } from '../libs/testing/dist/index.js';
import { checkSameAnswers, FLOORS, startFloors } from './lib/floor.mjs';
import { PRODUCTS_SQL, SERVICE_SQL } from './lib/products-read.mjs';
import { openBenchShop } from './lib/shop.mjs';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const COUNT = arg('count', 2000);
const PRODUCTS = arg('products', 12);
const FLOOR = !process.argv.includes('--no-floor');
const loadBefore = loadavg()[0];

const platform = await TestPlatform.start(['identity', 'commerce', 'gateway'], { LOG_LEVEL: 'warn', RATE_LIMIT_FACTOR: '1000' });
const { seller, serviceId } = await openBenchShop(platform, { tag: 'hops', products: PRODUCTS });

const referenceProcess = fork(new URL('./lib/storefront-reference.mjs', import.meta.url), [], {
  env: { ...process.env, DATABASE_URL: platform.env.DATABASE_URL },
});
const { port } = await new Promise((resolve) => referenceProcess.once('message', resolve));
const path = `/v1/users/${seller.guid}/services/${serviceId}/products`;

/** Median (and p90) of `count` sequential runs of `once`, after a tenth as many to warm up. */
async function median(once, count = COUNT) {
  for (let i = 0; i < Math.ceil(count / 10); i++) await once();
  const times = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await once();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], p90: times[Math.floor(times.length * 0.9)] };
}
const get = (url) => async () => {
  const res = await fetch(url);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
};

// The reference's statements, as storefront-reference.mjs makes them.
const pool = new pg.Pool({ connectionString: platform.env.DATABASE_URL, max: 10 });
const serviceCheck = () => pool.query(SERVICE_SQL, [serviceId]);
const productRows = () => pool.query(PRODUCTS_SQL, [serviceId]);

// NATS round trips to an echo responder in another process, each end flushing per message or coalescing.
const natsUrl = platform.env.NATS_URL;
const echoSubject = `${platform.env.NATS_PREFIX}.bench.echo`;
const payload = JSON.stringify({ pattern: echoSubject, data: { userId: seller.guid, serviceId }, id: crypto.randomUUID() });
async function echoRoundTrip(coalesce) {
  const echo = fork(new URL('./lib/nats-echo.mjs', import.meta.url), [], {
    env: { ...process.env, NATS_URL: natsUrl, SUBJECT: echoSubject, COALESCE: coalesce ? '1' : '0' },
  });
  await new Promise((resolve) => echo.once('message', resolve));
  const nc = await connect({ servers: natsUrl, noAsyncTraces: true });
  if (coalesce) coalesceNatsWrites(nc);
  const result = await median(() => nc.request(echoSubject, payload, { timeout: 5000 }));
  await nc.close();
  echo.disconnect();
  return result;
}

const rpc = await RpcClient.connect({ natsUrl, prefix: platform.env.NATS_PREFIX, timeoutMs: 5000, name: 'read-hops' });
const direct = () => rpc.passThrough('commerce.product.list', { userId: seller.guid, serviceId });

const rows = [];
const row = async (name, once) => rows.push({ name, ...(await median(once)) });
await row('reference through HTTP (node:http + pg)', get(`http://127.0.0.1:${port}${path}`));
await row('  its two statements, one after the other (pg)', async () => {
  await serviceCheck();
  await productRows();
});
await row('the two statements side by side (as commerce makes them)', () => Promise.all([serviceCheck(), productRows()]));
rows.push({ name: 'NATS round trip to an echo process, flushed per message', ...(await echoRoundTrip(false)) });
rows.push({ name: 'NATS round trip to an echo process, coalesced (both ends)', ...(await echoRoundTrip(true)) });
await row('commerce over NATS (RpcClient.passThrough, as the gateway)', direct);
await row('gateway only: GET /v1/health/live', get(`${platform.url}/v1/health/live`));
await row('platform: the products read through the gateway', get(`${platform.url}${path}`));

// The floors: each whole read, then their service halves asked over NATS as their HTTP halves ask them
// (Nest's packet to the microservice; the bare responder's own JSON), from a connection like theirs.
const floors = FLOOR
  ? await startFloors({ natsUrl, databaseUrl: platform.env.DATABASE_URL, prefix: platform.env.NATS_PREFIX, port: arg('port', 0) })
  : [];
await checkSameAnswers(floors, `http://127.0.0.1:${port}`, [path]);
for (const floor of floors) await row(`${floor.name}`, get(`${floor.url}${path}`));
if (floors.length > 0) {
  const nc = await connect({ servers: natsUrl, noAsyncTraces: true });
  const data = { userId: seller.guid, serviceId };
  const subjectOf = (key) => floors.find((f) => f.key === key).subject;
  const nestSubject = subjectOf('nest');
  await row("floor: its Nest microservice over NATS (Nest's packet)", () =>
    nc.request(nestSubject, JSON.stringify({ pattern: nestSubject, data, id: crypto.randomUUID() }), { timeout: 5000 }),
  );
  const bareSubject = subjectOf('bare');
  await row('floor: its bare responder over NATS', () => nc.request(bareSubject, JSON.stringify(data), { timeout: 5000 }));
  await nc.close();
}
for (const floor of floors) floor.close();
await row("reference through HTTP, again (the machine's drift)", get(`http://127.0.0.1:${port}${path}`));

await rpc.close();
referenceProcess.disconnect();
await pool.end();
await platform.close();

console.log(`Where a lone products read's time goes (${PRODUCTS} products; median and p90 of ${COUNT} sequential requests, ms)`);
console.log(`load average before ${loadBefore.toFixed(2)}, after ${loadavg()[0].toFixed(2)}`);
for (const r of rows) console.log(`${r.name.padEnd(62)} p50 ${r.p50.toFixed(3).padStart(7)}   p90 ${r.p90.toFixed(3).padStart(7)}`);
const by = (prefix) => rows.find((r) => r.name.startsWith(prefix)).p50;
const reference = by('reference'),
  sequential = by('  its two'),
  parallel = by('the two'),
  echo = by('NATS round trip to an echo process, coalesced');
const commerce = by('commerce over'),
  gatewayOnly = by('gateway only'),
  whole = by('platform');
console.log('Derived (medians subtracted):');
console.log(`  reference: HTTP in and out ${(reference - sequential).toFixed(3)}, statements ${sequential.toFixed(3)}`);
console.log(
  `  platform: gateway (HTTP in/out, routing, validation, publish, reply) ${(whole - commerce).toFixed(3)}` +
    ` [gateway-only route ${gatewayOnly.toFixed(3)}], NATS round trip ${echo.toFixed(3)},` +
    ` commerce's own (receive, validation, handler, views, reply) ${(commerce - echo - parallel).toFixed(3)}, statements ${parallel.toFixed(3)}`,
);
console.log(`  whole ${whole.toFixed(3)} against the reference's ${reference.toFixed(3)}: ${(whole / reference).toFixed(2)}×`);
if (floors.length > 0) {
  const flushed = by('NATS round trip to an echo process, flushed');
  const nestService = by('floor: its Nest microservice'),
    bareService = by('floor: its bare responder');
  const [nest, , , bare] = FLOORS.map((f) => by(f.name));
  console.log('The floor (no code of the platform; NATS not coalesced, so its hop is the echo flushed per message):');
  console.log(
    `  Nest → ClientNats → Nest microservice: whole ${nest.toFixed(3)} (${(nest / reference).toFixed(2)}× the reference):` +
      ` HTTP half (HTTP in/out, Nest, ClientNats) ${(nest - nestService).toFixed(3)}, NATS round trip ${flushed.toFixed(3)},` +
      ` the microservice's own (ServerNats, Nest's pipeline, JSON) ${(nestService - flushed - parallel).toFixed(3)}, statements ${parallel.toFixed(3)}`,
  );
  console.log(
    `  node:http → NATS → bare responder: whole ${bare.toFixed(3)} (${(bare / reference).toFixed(2)}× the reference):` +
      ` HTTP half ${(bare - bareService).toFixed(3)}, NATS round trip ${flushed.toFixed(3)},` +
      ` the responder's own ${(bareService - flushed - parallel).toFixed(3)}, statements ${parallel.toFixed(3)}`,
  );
  console.log(
    `  the platform over the Nest floor: whole +${(whole - nest).toFixed(3)} (${(whole / nest).toFixed(2)}×),` +
      ` gateway over the HTTP half +${(whole - commerce - (nest - nestService)).toFixed(3)},` +
      ` commerce over the microservice +${(commerce - nestService).toFixed(3)}`,
  );
}
