// The measurements of the API benchmarks (api-hot-path, storefront-read): the same tool, the same runs,
// so ratios taken in one run compare like with like.
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** Requests per second (and failures) of `connections` kept-alive connections for `seconds` (autocannon). */
export function loaded(url, { connections, seconds, headers = {} }) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** The time of each of `count` requests made one after another on a kept-alive connection (ms), and how many were not 2xx. */
async function sequentialTimes(url, { count, headers = {} }) {
  const times = [];
  let bad = 0;
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    times.push(performance.now() - t);
    if (!res.ok) bad++;
  }
  return { times, bad };
}

/** Median latency of `count` requests made one after another on a kept-alive connection (autocannon rounds to whole ms). */
export async function sequentialMedian(url, { count = 2000, headers = {} } = {}) {
  const { times, bad } = await sequentialTimes(url, { count, headers });
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], bad };
}

const medianOf = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The sequential median latency of several targets measured in turn: `rounds` rounds, each of
 * `perRound` requests one after another to every target (the order rotating from round to round), so
 * that a machine whose speed drifts during the run (other work on the shared cores) slows every target
 * alike, where one block after another gives the drift to whichever ran then. Answers, per target, the
 * median of all its requests and each round's median; `ratio(i, j)` is the median of the rounds' ratios
 * of target i to target j.
 */
export async function interleavedMedians(targets, { rounds = 20, perRound = 100 } = {}) {
  const all = targets.map(() => []);
  const byRound = targets.map(() => []);
  let bad = 0;
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < targets.length; k++) {
      const i = (r + k) % targets.length;
      const { url, headers = {} } = targets[i];
      const { times: round, bad: refused } = await sequentialTimes(url, { count: perRound, headers });
      bad += refused;
      all[i].push(...round);
      byRound[i].push(medianOf(round));
    }
  }
  return {
    bad,
    p50: all.map(medianOf),
    ratio: (i, j) => medianOf(byRound[i].map((x, r) => x / byRound[j][r])),
  };
}

/**
 * One row of a benchmark: a warm-up (10 connections), the sequential median (1 connection) and the
 * throughput at 50 connections; `bad` counts non-2xx answers and errors (a row with any is not valid).
 * With `cpu` (groups of processes, see cpuDuring): the CPU time each used per request of the loaded run.
 */
export async function measure(name, url, { seconds, headers = {}, count = 2000, cpu }) {
  await loaded(url, { connections: 10, seconds, headers });
  const sequential = await sequentialMedian(url, { count, headers });
  const { result: load, used } = await cpuDuring(cpu ?? {}, () => loaded(url, { connections: 50, seconds, headers }));
  const perRequest = Object.fromEntries(Object.entries(used).map(([group, ms]) => [group, (ms * 1000) / load.requests.total]));
  return { name, p50: sequential.p50, rps: load.requests.average, bad: sequential.bad + load.non2xx + load.errors, cpu: perRequest };
}

/** Prints, per row, the CPU time each process used per request of its loaded run (µs), and their sum. */
export function printCpu(rows) {
  console.log('CPU per request at 50 connections (µs; user + system, from /proc):');
  for (const r of rows) {
    const parts = Object.entries(r.cpu).filter(([, us]) => us >= 0.5);
    const total = parts.reduce((sum, [, us]) => sum + us, 0);
    console.log(`  ${r.name}: ${parts.map(([group, us]) => `${group} ${us.toFixed(0)}`).join(', ')}; total ${total.toFixed(0)}`);
  }
}

/** Prints the rows as api-hot-path does: median latency and requests/s, with any failures. */
export async function printRows(title, seconds, rows) {
  const cores = (await import('node:os')).cpus().length;
  console.log(`${title}, ${seconds} s per run, ${cores} cores: sequential (1 connection) median latency; 50 connections requests/s`);
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(56)} p50 ${r.p50.toFixed(2).padStart(6)} ms   ${r.rps.toFixed(0).padStart(6)} req/s${r.bad ? `   (${r.bad} non-2xx or errors)` : ''}`,
    );
  }
}

/** "latency 1.20× (goal ≤ 1.5), throughput 0.70× (goal ≥ 0.6)" of a row against its reference. */
export function ratios(row, reference, { latency = 1.5, throughput = 0.6 } = {}) {
  return `latency ${(row.p50 / reference.p50).toFixed(2)}× (goal ≤ ${latency}), throughput ${(row.rps / reference.rps).toFixed(2)}× (goal ≥ ${throughput})`;
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); 0 when it is gone. */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return 0;
  }
}

/** The ids of the running processes whose name (comm) is `name`: every PostgreSQL backend, the NATS server. */
export function pidsNamed(name) {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * Runs `work` and answers the CPU time each group of processes used meanwhile (ms), e.g.
 * { gateway: [pid], postgres: () => pidsNamed('postgres') }: where the time of a loaded run goes.
 * A group given as a function is listed again at the end (PostgreSQL starts backends as the pool grows).
 */
export async function cpuDuring(groups, work) {
  const listed = (pids) => (typeof pids === 'function' ? pids() : pids);
  const before = Object.fromEntries(
    Object.entries(groups).map(([name, pids]) => [name, new Map(listed(pids).map((pid) => [pid, cpuMs(pid)]))]),
  );
  const self = process.cpuUsage();
  const result = await work();
  const used = Object.fromEntries(
    Object.entries(groups).map(([name, pids]) => [
      name,
      listed(pids).reduce((sum, pid) => sum + cpuMs(pid) - (before[name].get(pid) ?? 0), 0),
    ]),
  );
  const mine = process.cpuUsage(self);
  used['load generator (autocannon)'] = (mine.user + mine.system) / 1000;
  return { result, used };
}
