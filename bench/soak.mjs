#!/usr/bin/env node
// The soak: a steady mixed load (libs/testing's MixedLoad: sign-ins, storefront reads, orders paid with the
// sandbox card, shares, small image conversions, password-reset mails) through the real gateway for
// minutes, against the whole platform (identity, commerce, terminals, conversion, a conversion worker,
// gateway) on a throwaway database, its own Redis prefix and NATS prefix, mails to the SMTP server of
// libs/testing. Builds nothing: run `npm run build:server` first.
// Usage: node bench/soak.mjs [--minutes=10] [--rate=8] [--warmup=1]
//
// Prints one line a minute (requests started in it, 5xx, p50/p99, the resident memory of every process),
// then the checks, each PASS or FAIL; the exit code is 1 when any fails:
//   - memory flat: after the warm-up (the first --warmup minutes: V8 heaps, pools, caches, JIT fill up),
//     "flat" means each process's RSS at the end is at most RSS_GROWTH (25 %) or RSS_SLACK_MB (40 MB),
//     whichever is larger, above its RSS at the end of the warm-up. At 8 flows/s a 10-minute run makes
//     ~6,500 requests after ~650 in the warm-up: a process that kept 10 kB per request (a cache or a
//     listener never let go) would gain ~60 MB and fail; one that keeps less than ~5 kB per request hides
//     in the noise of a garbage-collected heap, which breathes by 100 MB between collections (commerce:
//     168 to 278 MB in the run of 2026-11-26). Read the per-minute lines too: flat is a sawtooth whose
//     troughs do not rise;
//   - p99 stable: every minute after the warm-up has a p99 of at most P99_FACTOR (3×) the first such
//     minute's (or of P99_FLOOR_MS, 250 ms, for runs so fast that 3× of a few ms means nothing);
//   - 0 answers 5xx and 0 without an answer (status 0: a hang past the client's 10 s or a cut connection);
//   - Redis: the keys under the run's prefix (SCAN), by family (ids replaced by *), with and without a
//     time to live, at the end of the warm-up and at the end. A family that grows must either carry a TTL
//     on every key (it expires as documented) or be BullMQ job records, at most one per job the load
//     made (the conversion queue keeps its last 1,000 + 1,000, identity a keyed mail's job for an hour);
//   - database rows per table of every service schema at the end of the warm-up and at the end, set
//     against what the load made after the warm-up (orders, payments, shares, jobs, sign-ins, mails).
//     A table that grows must be one the load writes to (EXPECTED below, with rows per flow) and grow by
//     at most that; anything else is a pile-up;
//   - the MixedLoad's findings: nothing acknowledged lost or doubled (orders, payments, shares, jobs, mails).
// What expires, and when (docs/configuration.md, docs/operations.md): see TTL_NOTES, printed at the end.
import { readFileSync, writeFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { MixedLoad, startLoopbackSmtp, summarize, TestPlatform } from '../libs/testing/dist/index.js';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const MINUTES = arg('minutes', 10);
const RATE = arg('rate', 8);
const WARMUP = arg('warmup', 1);
if (!(MINUTES > WARMUP && WARMUP >= 0 && RATE > 0)) throw new Error('--minutes must be more than --warmup, --rate positive');

const RSS_GROWTH = 0.25;
const RSS_SLACK_MB = 40;
const P99_FACTOR = 3;
const P99_FLOOR_MS = 250;
const MINUTE = 60_000;
const PROCESSES = ['gateway', 'identity', 'commerce', 'terminals', 'conversion', 'conversion-worker'];
const MIX = { signin: 2, storefront: 3, order: 2, share: 2, conversion: 1, mail: 1 };

/**
 * The tables the load writes to, and at most how many rows one flow of a kind adds (a signed-in order
 * is one order, its payment a sandbox session, each with outbox events; a share one row plus its
 * events; ...). `per` names the counters of `made()` below. Outbox and processed events, sessions, known
 * devices and action tokens are deleted by the retention sweep only after days (docs/operations.md#what-the-platform-deletes):
 * within a soak they grow with every flow that makes one.
 */
const EXPECTED = {
  'identity.session': { per: ['signins'], rows: 1 },
  // A sign-in without the device cookie (the load keeps none) records the device (sign-in-limiter's known devices).
  'identity.known_device': { per: ['signins'], rows: 1 },
  // A reset link's token.
  'identity.action_token': { per: ['mails'], rows: 1 },
  // The idempotency key of each mail another service sends (the order's receipt and the seller's notice) and of each reset.
  'identity.mail_key': { per: ['orderAttempts', 'mails'], rows: 2 },
  'identity.outbox_event': { per: ['signins', 'mails'], rows: 2 },
  'commerce.order': { per: ['orderAttempts'], rows: 1 },
  'commerce.payment_session': { per: ['orderAttempts'], rows: 1 },
  'commerce.sandbox_session': { per: ['orderAttempts'], rows: 1 },
  'commerce.provider_event': { per: ['orderAttempts'], rows: 1 },
  'commerce.receipt': { per: ['payments'], rows: 1 },
  'commerce.timeline_event': { per: ['orderAttempts'], rows: 4 },
  'commerce.outbox_event': { per: ['orderAttempts'], rows: 4 },
  // Inbox deduplication: every event a service consumed once.
  'commerce.processed_event': { per: ['orderAttempts', 'shares', 'signins', 'mails', 'jobs'], rows: 6 },
  'terminals.share': { per: ['shares'], rows: 1 },
  'terminals.outbox_event': { per: ['shares', 'orderAttempts'], rows: 2 },
  'terminals.processed_event': { per: ['shares', 'orderAttempts'], rows: 2 },
  'conversion.job': { per: ['jobs'], rows: 1 },
  'conversion.outbox_event': { per: ['jobs'], rows: 3 },
};

const TTL_NOTES = [
  'sessions: 30 days (identity, a constant: SESSION_DAYS), their rows deleted SESSION_RETENTION_DAYS (7) after they end or expire: a 10-minute soak cannot show one end',
  'outbox and processed events, action tokens: deleted OUTBOX_RETENTION_DAYS / ACTION_TOKEN_RETENTION_DAYS (7) after use by the retention sweep (tested with short periods in retention.repository.medium-spec.ts)',
  'gateway session/profile caches: SESSION_CACHE_TTL_MS / PROFILE_CACHE_TTL_MS (30 s, in memory)',
  'rate-limit counters: fixed windows of seconds to an hour (<prefix>:rl:*, each key with its window as TTL)',
  'mail idempotency keys: MAIL_KEY_RETENTION_DAYS (7, at least 1): no shortened variant fits in a soak',
  'conversion results and their files: CONVERSION_RESULT_TTL_HOURS (24, at least 1; swept every 5 minutes): no shortened variant fits in a soak',
  'BullMQ conversion jobs: the last 1,000 completed and 1,000 failed are kept (removeOnComplete/removeOnFail count)',
];

/** Resident memory of a process in MB (VmRSS of /proc/<pid>/status); NaN when it is gone. */
function rssMb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return line ? Number(line[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

const smtp = await startLoopbackSmtp();
const platform = await TestPlatform.start(PROCESSES, {
  LOG_LEVEL: 'warn',
  RATE_LIMIT_FACTOR: '1000',
  CONVERSION_JOBS_PER_MINUTE: '10000',
  SMTP_URL: smtp.url,
});
const prefix = platform.env.REDIS_PREFIX;
const redis = new Redis(platform.env.REDIS_URL);
const pids = Object.fromEntries(PROCESSES.map((name) => [name, platform.pidOf(name)]));
pids['bench (load, SMTP)'] = process.pid;
const rss = () => Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, rssMb(pid)]));

/** Keys under the run's prefix by family (ids and numbers replaced by *), each with and without a TTL. */
async function redisKeys() {
  const families = new Map();
  let total = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length === 0) continue;
    const ttls = await redis.pipeline(keys.map((k) => ['pttl', k])).exec();
    keys.forEach((key, i) => {
      const family = key
        .slice(prefix.length + 1)
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '*')
        .replace(/[^:]*@[^:]*/g, '*')
        .replace(/[0-9a-f]{16,}/gi, '*')
        .replace(/[A-Za-z0-9_-]{40,}/g, '*')
        .replace(/\b\d+(\.\d+)*\b/g, '*')
        .replace(/:\*(:\*)+/g, ':*');
      const entry = families.get(family) ?? { withTtl: 0, without: 0 };
      if (ttls[i][1] >= 0) entry.withTtl++;
      else entry.without++;
      families.set(family, entry);
      total++;
    });
  } while (cursor !== '0');
  return { total, families };
}

/** Rows per table of every service schema (exact counts). */
async function tableRows() {
  const tables = await platform.query(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_schema IN ('identity', 'commerce', 'terminals', 'conversion') AND table_type = 'BASE TABLE'
      ORDER BY 1, 2`,
  );
  const counts = await platform.query(
    tables.map((t) => `SELECT '${t.schema}.${t.name}' AS t, count(*)::int AS n FROM "${t.schema}"."${t.name}"`).join(' UNION ALL '),
  );
  return new Map(counts.map((c) => [c.t, c.n]));
}

const load = await MixedLoad.prepare(platform, { rate: RATE, mix: MIX, smtp });
/** What the load made so far (acknowledged, or tried for orders), by the names EXPECTED uses. */
const made = () => {
  const a = load.acknowledged;
  const signins = load.records.filter((r) => r.kind === 'signin' && r.status === 200).length;
  return {
    signins,
    mails: [...a.mails.values()].reduce((s, n) => s + n, 0),
    orderAttempts: a.orderAttempts,
    payments: a.payments.length,
    shares: a.shares.length,
    jobs: a.jobs.length,
  };
};

console.log(
  `Soak: ${MINUTES} min at ${RATE} flows/s (mix ${Object.entries(MIX)
    .map(([k, w]) => `${k} ${w}`)
    .join(', ')}), warm-up ${WARMUP} min; ` +
    `Redis prefix ${prefix}; pids ${Object.entries(pids)
      .map(([n, p]) => `${n} ${p}`)
      .join(', ')}`,
);
const minutes = [];
let atWarmup;
load.start();
for (let m = 1; m <= MINUTES; m++) {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, m * MINUTE - load.now())));
  const records = load.between((m - 1) * MINUTE, m * MINUTE);
  const figures = summarize(records.map((r) => r.ms));
  const row = {
    minute: m,
    requests: records.length,
    fivexx: records.filter((r) => r.status >= 500).length,
    none: records.filter((r) => r.status === 0).length,
    other4xx: records.filter((r) => r.status >= 400 && r.status < 500).length,
    p50: figures.p50,
    p99: figures.p99,
    rss: rss(),
  };
  minutes.push(row);
  console.log(
    `min ${String(m).padStart(2)}: ${String(row.requests).padStart(5)} requests, 5xx ${row.fivexx}, no answer ${row.none}, 4xx ${row.other4xx}, ` +
      `p50 ${row.p50} ms, p99 ${row.p99} ms; RSS MB ${Object.entries(row.rss)
        .map(([n, mb]) => `${n} ${mb.toFixed(0)}`)
        .join(', ')}`,
  );
  if (m === WARMUP) atWarmup = { made: made(), keys: await redisKeys(), rows: await tableRows(), rss: row.rss };
}
await load.stop();
atWarmup ??= {
  made: { signins: 0, mails: 0, orderAttempts: 0, payments: 0, shares: 0, jobs: 0 },
  keys: { total: 0, families: new Map() },
  rows: new Map(),
  rss: minutes[0].rss,
};
const findings = await load.findings(60_000);
const atEnd = { made: made(), keys: await redisKeys(), rows: await tableRows(), rss: rss() };

const failures = [];
const check = (ok, text) => {
  console.log(`${ok ? 'PASS' : 'FAIL'} ${text}`);
  if (!ok) failures.push(text);
};

console.log('\nResident memory (MB) at the end of the warm-up → at the end:');
for (const name of Object.keys(pids)) {
  const before = atWarmup.rss[name];
  const after = atEnd.rss[name];
  const bound = Math.max(before * (1 + RSS_GROWTH), before + RSS_SLACK_MB);
  check(
    after <= bound,
    `${name.padEnd(20)} ${before.toFixed(0).padStart(5)} → ${after.toFixed(0).padStart(5)} (${(((after - before) / before) * 100).toFixed(1)} %; bound ${bound.toFixed(0)})`,
  );
}

const afterWarmup = minutes.filter((m) => m.minute > WARMUP);
const firstP99 = afterWarmup[0].p99;
const p99Bound = Math.max(firstP99 * P99_FACTOR, P99_FLOOR_MS);
console.log(`\np99 per minute (ms): ${minutes.map((m) => `${m.minute}: ${m.p99}${m.minute <= WARMUP ? ' (warm-up)' : ''}`).join(', ')}`);
check(
  afterWarmup.every((m) => m.p99 <= p99Bound),
  `p99 stable: every minute after the warm-up ≤ ${p99Bound} ms (${P99_FACTOR}× the first's ${firstP99} ms, at least ${P99_FLOOR_MS})`,
);
const all = load.records;
const total = summarize(all.map((r) => r.ms));
console.log(`all: ${MixedLoad.describe(all)}; flows not started (too many in flight): ${load.skipped}`);
check(
  all.every((r) => r.status < 500 && r.status !== 0),
  `0 answers 5xx (${all.filter((r) => r.status >= 500).length}) and 0 without an answer (${all.filter((r) => r.status === 0).length}) of ${total.count}`,
);
const errors = new Map();
for (const r of all.filter((x) => x.status >= 400 || x.status === 0))
  errors.set(`${r.kind}/${r.step} ${r.status} ${r.error}`, (errors.get(`${r.kind}/${r.step} ${r.status} ${r.error}`) ?? 0) + 1);
if (errors.size) console.log(`failures by kind: ${[...errors].map(([k, n]) => `${k} ×${n}`).join(', ')}`);

const since = Object.fromEntries(Object.entries(atEnd.made).map(([k, n]) => [k, n - atWarmup.made[k]]));
console.log(
  `\nmade after the warm-up: ${Object.entries(since)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ')}`,
);

console.log(`\nRedis keys under ${prefix}: ${atWarmup.keys.total} at the end of the warm-up → ${atEnd.keys.total} at the end`);
let unchanged = 0;
const families = [...new Set([...atWarmup.keys.families.keys(), ...atEnd.keys.families.keys()])].sort();
for (const family of families) {
  const before = atWarmup.keys.families.get(family) ?? { withTtl: 0, without: 0 };
  const after = atEnd.keys.families.get(family) ?? { withTtl: 0, without: 0 };
  const grewWithout = after.without - before.without;
  // A BullMQ job's hash (and its logs) stays after the job: the conversion worker keeps the last 1,000
  // completed and 1,000 failed, identity keeps a keyed mail's job MAIL_KEY_JOB_SECONDS (an hour) after it
  // went out, removed by later completions. Within a soak they grow by at most one per job the load made.
  const job = /^[a-z-]+:(key_)?\*(:logs)?$/.test(family) && !family.startsWith('rl:');
  const jobsMade = since.jobs + 2 * since.orderAttempts + since.mails + since.shares;
  const bounded = job && grewWithout <= jobsMade;
  const ok = grewWithout <= 0 || bounded;
  // Unchanged families (a rate-limit counter per address or account, a queue's meta key) are counted, not listed.
  if (ok && before.withTtl === after.withTtl && before.without === after.without) {
    unchanged++;
    continue;
  }
  check(
    ok,
    `${family.padEnd(44)} ${String(before.withTtl + before.without).padStart(6)} → ${String(after.withTtl + after.without).padStart(6)} ` +
      `(with TTL ${after.withTtl}, without ${after.without}${bounded && grewWithout > 0 ? `; BullMQ job records, at most one per job made (${jobsMade})` : ''})`,
  );
}

console.log(`     ${unchanged} families unchanged`);

console.log('\nDatabase rows at the end of the warm-up → at the end (bound: rows per flow × flows after the warm-up):');
for (const table of [...atEnd.rows.keys()]) {
  const before = atWarmup.rows.get(table) ?? 0;
  const after = atEnd.rows.get(table) ?? 0;
  const grew = after - before;
  const expected = EXPECTED[table];
  const flows = expected ? expected.per.reduce((s, k) => s + since[k], 0) : 0;
  const bound = expected ? expected.rows * flows : 0;
  if (grew === 0 && !expected) continue;
  check(
    grew <= bound,
    `${table.padEnd(34)} ${String(before).padStart(7)} → ${String(after).padStart(7)} (+${grew}${expected ? `; ${(grew / Math.max(flows, 1)).toFixed(2)} per ${expected.per.join('+')}, bound ${bound}` : '; the load writes none here'})`,
  );
}

console.log('\nFindings of the mixed load (acknowledged, then checked):');
for (const [name, value] of Object.entries(findings)) {
  const empty = Array.isArray(value) ? value.length === 0 : typeof value === 'number' ? value === 0 : Object.keys(value).length === 0;
  check(empty, `${name}: ${Array.isArray(value) ? value.length : typeof value === 'number' ? value : JSON.stringify(value)}`);
}
console.log(`\nExpiry (documented times to live):\n${TTL_NOTES.map((n) => `  - ${n}`).join('\n')}`);

// The raw figures, to read again (or judge with other bounds) without another run.
const dump = `/tmp/soak-${prefix}.json`;
const plain = (at) => ({
  ...at,
  keys: { total: at.keys.total, families: Object.fromEntries(at.keys.families) },
  rows: Object.fromEntries(at.rows),
});
writeFileSync(dump, JSON.stringify({ minutes, atWarmup: plain(atWarmup), atEnd: plain(atEnd), findings, skipped: load.skipped }, null, 1));
console.log(`raw figures: ${dump}`);

await redis.quit();
await platform.close();
await smtp.close();
console.log(failures.length ? `\n${failures.length} check(s) failed` : '\nevery check passed');
process.exit(failures.length ? 1 : 0);
