#!/usr/bin/env node
// Round trip through the real platform: HTTP → gateway → NATS → service → PostgreSQL write+read →
// back, using GET /v1/health (four services in parallel) and a single-service call.
// Start the platform first (`npm start`), then: node bench/health-roundtrip.mjs [baseUrl] [requests] [concurrency]
const base = process.argv[2] ?? 'http://localhost:8080';
const total = Number(process.argv[3] ?? 2000);
const concurrency = Number(process.argv[4] ?? 20);
const JOB = '3f0e8a4e-8a52-4c1e-9b1e-0c6a2b7e9d11';

// Conversion calls need a signed-in user.
const signUp = await fetch(`${base}/v1/users`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: `bench-${Date.now()}@example.com`, password: 'benchmarking the round trip' }),
}).then((r) => r.json());
const headers = { authorization: `Bearer ${signUp.token}` };

async function measure(name, path, expectStatus) {
  const times = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        const t = performance.now();
        const res = await fetch(base + path, { headers });
        await res.arrayBuffer();
        if (res.status !== expectStatus) failures += 1;
        times.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const pct = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(1);
  console.log(
    `${name.padEnd(46)} ${String(times.length).padStart(6)} req  ${(times.length / seconds).toFixed(0).padStart(6)} req/s  p50 ${pct(50)} ms  p95 ${pct(95)} ms  p99 ${pct(99)} ms  failures ${failures}`,
  );
}

console.log(`base ${base}, ${total} requests per case, ${concurrency} concurrent`);
await measure('GET /v1/health/live (gateway only)', '/v1/health/live', 200);
await measure('GET /v1/convert/jobs/{id} (1 service, DB read)', `/v1/convert/jobs/${JOB}`, 404);
await measure('GET /v1/health (4 services, DB write+read)', '/v1/health', 200);
