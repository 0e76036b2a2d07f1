// The measurements of the API benchmarks (api-hot-path, storefront-read): the same tool, the same runs,
// so ratios taken in one run compare like with like.
import autocannon from 'autocannon';

/** Requests per second (and failures) of `connections` kept-alive connections for `seconds` (autocannon). */
export function loaded(url, { connections, seconds, headers = {} }) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Median latency of `count` requests made one after another on a kept-alive connection (autocannon rounds to whole ms). */
export async function sequentialMedian(url, { count = 2000, headers = {} } = {}) {
  const times = [];
  let bad = 0;
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    times.push(performance.now() - t);
    if (!res.ok) bad++;
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], bad };
}

/**
 * One row of a benchmark: a warm-up (10 connections), the sequential median (1 connection) and the
 * throughput at 50 connections; `bad` counts non-2xx answers and errors (a row with any is not valid).
 */
export async function measure(name, url, { seconds, headers = {}, count = 2000 }) {
  await loaded(url, { connections: 10, seconds, headers });
  const sequential = await sequentialMedian(url, { count, headers });
  const load = await loaded(url, { connections: 50, seconds, headers });
  return { name, p50: sequential.p50, rps: load.requests.average, bad: sequential.bad + load.non2xx + load.errors };
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
