#!/usr/bin/env node
// The uncached read path, measured side by side in one run with the same tool (autocannon, bench/lib/load.mjs):
//   - GET /v1/users/{id}/services/{sid}/products, anonymous (the storefront's products): gateway → NATS →
//     commerce → PostgreSQL (the service, to check it is the user's, then its active products). Nothing
//     on this path is cached;
//   - a reference: a bare node:http server doing the same two PostgreSQL queries on the same database
//     and answering the same JSON (the floor a Node service on this machine can reach);
//   - GET /v1/fulfillment (the seller's order list, a page of 20, newest first) of a seller with 1,000
//     orders (a third paid with a receipt, a third fulfilled with a reply, a third pending), signed in:
//     goal a median within 2× of the storefront read's.
//   - the architecture's floor (bench/lib/floor.mjs): the same read through a bare Nest app → NATS → a
//     bare Nest microservice + pg (and three variants: Fastify's adapter, the NATS client without Nest's
//     transport, node:http with no Nest at all), each answer checked byte for byte against the reference's.
// Each gets a sequential run (2,000 requests one after another on a kept-alive connection: median
// latency) and a loaded run (50 connections: requests per second). Prints the figures and the ratios.
// Then the reference, the products read, the order list and the floors again in turn (--rounds=20 rounds
// of 100 sequential requests to each, the order rotating): the same drift of the shared machine for all.
// Starts its own platform (identity, commerce, gateway) on a throwaway database. Builds nothing: run
// `npm run build:server` first. Usage: node bench/storefront-read.mjs [--seconds=10] [--products=12]
// [--count=2000] [--rounds=20] [--no-floor] [--port=N] (the floors' HTTP halves on N, N+1…; any free port without it)
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import pg from 'pg';
import { TestPlatform } from '../libs/testing/dist/index.js';
import { checkSameAnswers, startFloors } from './lib/floor.mjs';
import { interleavedMedians, measure, pidsNamed, printCpu, printRows, ratios } from './lib/load.mjs';
import { openBenchShop } from './lib/shop.mjs';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const SECONDS = arg('seconds', 10);
const PRODUCTS = arg('products', 12);
const COUNT = arg('count', 2000);
const ROUNDS = arg('rounds', 20);
const FLOOR = !process.argv.includes('--no-floor');
const ORDERS = 1000;
const loadBefore = loadavg()[0];

const platform = await TestPlatform.start(['identity', 'commerce', 'gateway'], { LOG_LEVEL: 'warn', RATE_LIMIT_FACTOR: '1000' });
const { seller, serviceId, productId } = await openBenchShop(platform, { tag: 'store', products: PRODUCTS });

const pool = new pg.Pool({ connectionString: platform.env.DATABASE_URL, max: 10 });

// The seller's 1,000 orders, written straight into the database (placing them through the API would take minutes).
await pool.query(
  `WITH placed AS (
     INSERT INTO "commerce"."order" ("id", "service_id", "product_id", "seller_id", "email", "state", "provider", "account", "vendor",
                                     "items", "amount", "currency", "paid_at", "fulfilled_at", "fulfil_note", "created")
     SELECT gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, 'buyer' || i || '@example.com',
            (ARRAY['paid', 'fulfilled', 'pending'])[i % 3 + 1], 'sandbox', 'sandbox_bench', 'digital',
            jsonb_build_array(jsonb_build_object('productId', $2::text, 'name', 'Poster 1', 'description', '', 'unitPrice', 1250, 'quantity', 1, 'amount', 1250)),
            1250, 'USD',
            CASE WHEN i % 3 < 2 THEN now() - i * interval '1 minute' END,
            CASE WHEN i % 3 = 1 THEN now() - i * interval '1 minute' END,
            CASE WHEN i % 3 = 1 THEN 'https://example.com/download/' || i END,
            now() - i * interval '1 minute'
       FROM generate_series(1, $4::int) AS i
     RETURNING "id", "state", "email", "paid_at"
   ), receipts AS (
     INSERT INTO "commerce"."receipt" ("order_id", "number", "amount", "currency", "items", "email", "seller_name", "service_name", "paid_at")
     SELECT "id", 'R-BENCH-' || "id", 1250, 'USD', '[]', "email", 'Riso Corner', 'Print shop', "paid_at" FROM placed WHERE "paid_at" IS NOT NULL
   )
   INSERT INTO "commerce"."order_reply" ("id", "order_id", "author_id", "author_role", "note")
   SELECT gen_random_uuid(), "id", $3::uuid, 'seller', 'Shipped today.' FROM placed WHERE "state" = 'fulfilled'`,
  [serviceId, productId, seller.guid, ORDERS],
);
// What autovacuum does within a minute of such a batch (PostgreSQL vacuums and analyzes a table after
// inserts too): the planner's statistics and the visibility map. Without the statistics it takes the
// seller's 1,000 orders for 4, reads them all and sorts them for a page of 20; without the map the count
// reads every order's row instead of the index. Left to autovacuum, either arrives at some point during
// the runs and changes the plan midway.
for (const table of ['order', 'receipt', 'order_reply']) await pool.query(`VACUUM ANALYZE "commerce"."${table}"`);

// The reference, in a process of its own (bench/lib/storefront-reference.mjs): the same two queries, the same answer.
const referenceProcess = fork(new URL('./lib/storefront-reference.mjs', import.meta.url), [], {
  env: { ...process.env, DATABASE_URL: platform.env.DATABASE_URL },
});
const { port } = await new Promise((resolve) => referenceProcess.once('message', resolve));
const referenceUrl = `http://127.0.0.1:${port}`;

const path = `/v1/users/${seller.guid}/services/${serviceId}/products`;
const [ours, theirs] = await Promise.all([
  fetch(`${platform.url}${path}`).then((r) => r.json()),
  fetch(`${referenceUrl}${path}`).then((r) => r.json()),
]);
if (JSON.stringify(ours) !== JSON.stringify(theirs))
  throw new Error(`the reference answers differently:\n${JSON.stringify(ours)}\n${JSON.stringify(theirs)}`);
// The floors, each answering the reference's bytes.
const floors = FLOOR
  ? await startFloors({
      natsUrl: platform.env.NATS_URL,
      databaseUrl: platform.env.DATABASE_URL,
      prefix: platform.env.NATS_PREFIX,
      port: arg('port', 0),
    })
  : [];
// The read, and the same service asked for under another user (404, the same error body).
await checkSameAnswers(floors, referenceUrl, [path, path.replace(seller.guid, crypto.randomUUID())]);
const list = await platform.call('GET', '/v1/fulfillment?limit=20', undefined, seller.token);
if (list.status !== 200 || list.body.total !== ORDERS || list.body.orders.length !== 20)
  throw new Error(`unexpected order list: ${list.status}`);

// Where the CPU of each loaded run goes: the servers of the path, the NATS server and PostgreSQL (the machine's).
const postgres = () => pidsNamed('postgres');
const referenceCpu = { reference: [referenceProcess.pid], postgres };
const platformCpu = {
  gateway: [platform.pidOf('gateway')],
  commerce: [platform.pidOf('commerce')],
  identity: [platform.pidOf('identity')],
  'nats-server': () => pidsNamed('nats-server'),
  postgres,
};
const anonymous = { seconds: SECONDS, count: COUNT };
const results = [];
results.push(await measure('reference: node:http + pg, same two queries', `${referenceUrl}${path}`, { ...anonymous, cpu: referenceCpu }));
const floorResults = [];
for (const floor of floors) {
  const cpu = {
    'HTTP half': [floor.pids.http],
    'service half': [floor.pids.service],
    'nats-server': () => pidsNamed('nats-server'),
    postgres,
  };
  floorResults.push(await measure(floor.name, `${floor.url}${path}`, { ...anonymous, cpu }));
}
results.push(
  await measure(`platform: GET ${path.replace(seller.guid, '{id}').replace(serviceId, '{sid}')}`, `${platform.url}${path}`, {
    ...anonymous,
    cpu: platformCpu,
  }),
);
results.push(
  await measure(`platform: GET /v1/fulfillment (page of 20 of ${ORDERS})`, `${platform.url}/v1/fulfillment?limit=20`, {
    seconds: SECONDS,
    count: COUNT,
    headers: { authorization: `Bearer ${seller.token}` },
    cpu: platformCpu,
  }),
);

// The three sequential medians again, measured in turn (bench/lib/load.mjs, interleavedMedians): the
// blocks above each take the machine as it was in their own seconds; these rounds share its drift.
const turns = await interleavedMedians(
  [
    { url: `${referenceUrl}${path}` },
    { url: `${platform.url}${path}` },
    { url: `${platform.url}/v1/fulfillment?limit=20`, headers: { authorization: `Bearer ${seller.token}` } },
    ...floors.map((floor) => ({ url: `${floor.url}${path}` })),
  ],
  { rounds: ROUNDS, perRound: 100 },
);
if (turns.bad > 0) throw new Error(`${turns.bad} non-2xx answers in the rounds in turn`);

referenceProcess.disconnect();
for (const floor of floors) floor.close();
await pool.end();
await platform.close();

const [ref, products, orders] = results;
const rows = [ref, ...floorResults, products, orders];
await printRows(`Uncached read path (${PRODUCTS} products; ${ORDERS} orders)`, SECONDS, rows);
console.log(`load average before ${loadBefore.toFixed(2)}, after ${loadavg()[0].toFixed(2)}`);
console.log(`products / reference: ${ratios(products, ref)}`);
for (const floor of floorResults) console.log(`${floor.name} / reference: ${ratios(floor, ref)}`);
if (floorResults.length > 0) {
  const [nest] = floorResults;
  const cpuTotal = (r) => Object.entries(r.cpu).reduce((sum, [group, us]) => (group.startsWith('load generator') ? sum : sum + us), 0);
  console.log(
    `products / ${nest.name}: latency ${(products.p50 / nest.p50).toFixed(2)}× (+${(products.p50 - nest.p50).toFixed(2)} ms),` +
      ` throughput ${(products.rps / nest.rps).toFixed(2)}×, CPU per request (servers, NATS, PostgreSQL) ${cpuTotal(products).toFixed(0)}` +
      ` against ${cpuTotal(nest).toFixed(0)} µs (+${(cpuTotal(products) - cpuTotal(nest)).toFixed(0)})`,
  );
}
printCpu(rows);
console.log(`order list / products: latency ${(orders.p50 / products.p50).toFixed(2)}× (goal ≤ 2)`);
const [refTurn, productsTurn, ordersTurn] = turns.p50.map((x) => `${x.toFixed(2)} ms`);
console.log(
  `in turn (${ROUNDS} rounds of 100 sequential requests to each): reference ${refTurn}, products ${productsTurn}, order list ${ordersTurn}; ` +
    `products / reference ${(turns.p50[1] / turns.p50[0]).toFixed(2)}× (goal ≤ 1.5; the rounds' median ${turns.ratio(1, 0).toFixed(2)}×), ` +
    `order list / products ${(turns.p50[2] / turns.p50[1]).toFixed(2)}× (goal ≤ 2; the rounds' median ${turns.ratio(2, 1).toFixed(2)}×)`,
);
floors.forEach((floor, k) =>
  console.log(
    `  in turn, ${floor.name}: ${turns.p50[3 + k].toFixed(2)} ms, ${(turns.p50[3 + k] / turns.p50[0]).toFixed(2)}× the reference ` +
      `(the rounds' median ${turns.ratio(3 + k, 0).toFixed(2)}×); the products read ${(turns.p50[1] / turns.p50[3 + k]).toFixed(2)}× it`,
  ),
);
