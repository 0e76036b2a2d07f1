#!/usr/bin/env node
// Conversion through the real platform against the same work done directly, in one run:
//   1. per job: PNG → WebP (sharp) and DOCX → PDF (LibreOffice) through /v1 (upload, wait, download)
//      against sharp and a warm soffice called directly (goal: at most 1.2 times);
//   2. LibreOffice cold (libreoffice-convert: a fresh profile and soffice per document) against warm
//      (one soffice kept by the engine, driven through its UNO bridge);
//   3. jobs per minute with 1 and 2 workers (a burst of DOCX → PDF jobs);
//   4. the gateway's peak memory while eight 50 MB uploads stream in at once.
// Starts its own platform (identity, conversion, worker(s), gateway) with a throwaway database.
// Builds nothing: run `npm run build` first. Usage: node bench/conversion.mjs [--jobs=20] [--runs=7]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { zipSync, strToU8 } from 'fflate';
import sharp from 'sharp';
import { TestPlatform, ROOT } from '../libs/testing/dist/index.js';
import { OfficeEngine } from '../apps/conversion/dist/engines/libreoffice.js';
import { convertImage } from '../apps/conversion/dist/engines/image.js';

const option = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const RUNS = option('runs', 7);
const BURST = option('jobs', 20);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0)} ms`;

function docx(text) {
  const xml = (s) => strToU8(`<?xml version="1.0" encoding="UTF-8"?>${s}`);
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': xml(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      '_rels/.rels': xml(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
      'word/document.xml': xml(
        `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${Array.from({ length: 40 }, (_, i) => `<w:p><w:r><w:t>${text} ${i + 1}</w:t></w:r></w:p>`).join('')}</w:body></w:document>`,
      ),
    }),
  );
}

const DOCX = docx('A paragraph of the benchmark document, long enough to make a page of text.');
const PNG = await sharp({
  create: { width: 1024, height: 768, channels: 3, background: '#336699', noise: { type: 'gaussian', mean: 128, sigma: 30 } },
})
  .png()
  .toBuffer();

// ---------------------------------------------------------------- direct
const office = new OfficeEngine({ mode: 'warm', timeoutMs: 60_000, restartAfter: 1000 });
await office.convert(DOCX, { kind: 'document', from: 'docx', to: 'pdf' }); // start soffice
const direct = { png: [], docx: [], cold: [] };
for (let i = 0; i < RUNS; i++) {
  let t = performance.now();
  await convertImage(PNG, { filename: 'a.png', to: 'webp', width: 800 });
  direct.png.push(performance.now() - t);
  t = performance.now();
  await office.convert(DOCX, { kind: 'document', from: 'docx', to: 'pdf' });
  direct.docx.push(performance.now() - t);
}
await office.close();
const cold = new OfficeEngine({ mode: 'cold', timeoutMs: 60_000, restartAfter: 1 });
for (let i = 0; i < Math.min(RUNS, 5); i++) {
  const t = performance.now();
  await cold.convert(DOCX, { kind: 'document', from: 'docx', to: 'pdf' });
  direct.cold.push(performance.now() - t);
}

// ---------------------------------------------------------------- through /v1
const platform = await TestPlatform.start(['identity', 'conversion', 'conversion-worker', 'gateway'], {
  LOG_LEVEL: 'warn',
  RATE_LIMIT_FACTOR: '1000',
  CONVERSION_JOBS_PER_MINUTE: '100000',
  CONVERSION_QUEUE_LIMIT: '10000',
  UPLOAD_LIMIT: String(60 * 1024 * 1024),
});
const { token } = (await platform.call('POST', '/v1/users', { email: `bench-${Date.now()}@example.com`, password: 'benchmark conversion' }))
  .body;
const auth = { authorization: `Bearer ${token}` };

async function submit(bytes, filename, to, extra = {}) {
  const form = new FormData();
  form.set('to', to);
  for (const [k, v] of Object.entries(extra)) form.set(k, v);
  form.set('file', new Blob([bytes]), filename);
  const res = await fetch(`${platform.url}/v1/convert/upload`, { method: 'POST', body: form, headers: auth });
  if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return (await res.json()).job.id;
}

/** Waits for the job the way an integrator should: a long poll (GET ?wait=30), not a polling loop. */
async function done(id) {
  for (;;) {
    const { job } = await (await fetch(`${platform.url}/v1/convert/jobs/${id}?wait=30`, { headers: auth })).json();
    if (job.state === 'completed') return;
    if (job.state !== 'queued' && job.state !== 'active') throw new Error(`job ${id} ${job.state}: ${job.error}`);
  }
}

async function roundTrip(bytes, filename, to, extra) {
  const t = performance.now();
  const id = await submit(bytes, filename, to, extra);
  await done(id);
  await (await fetch(`${platform.url}/v1/convert/jobs/${id}/result`, { headers: auth })).arrayBuffer();
  return performance.now() - t;
}

const api = { png: [], docx: [] };
await roundTrip(DOCX, 'warm.docx', 'pdf'); // the worker's soffice starts on its first document
for (let i = 0; i < RUNS; i++) {
  api.png.push(await roundTrip(PNG, 'a.png', 'webp', { width: '800' }));
  api.docx.push(await roundTrip(DOCX, 'a.docx', 'pdf'));
}

async function burst() {
  const t = performance.now();
  const ids = await Promise.all(Array.from({ length: BURST }, (_, i) => submit(DOCX, `b${i}.docx`, 'pdf')));
  await Promise.all(ids.map(done));
  return (BURST / (performance.now() - t)) * 60_000;
}
const perMinute1 = await burst();
// A second worker process, started the way the platform starts the first.
const second = spawn(process.execPath, [`${ROOT}/apps/conversion/dist/worker.js`], {
  env: platform.env,
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
await new Promise((resolve) => second.on('message', (m) => m?.type === 'ready' && resolve()));
await roundTrip(DOCX, 'warm2.docx', 'pdf');
await roundTrip(DOCX, 'warm3.docx', 'pdf');
const perMinute2 = await burst();
second.kill('SIGTERM');

// ---------------------------------------------------------------- gateway memory under 8 x 50 MB
const gatewayPid = platform.running.get('gateway').child.pid;
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${gatewayPid}/status`, 'utf8'))[1]) / 1024;
const before = rss();
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20);
const big = new Uint8Array(50 * 1024 * 1024);
await Promise.all(Array.from({ length: 8 }, (_, i) => submit(big, `big${i}.png`, 'webp')));
clearInterval(sampler);

await platform.close();

// ---------------------------------------------------------------- report
const cores = (await import('node:os')).cpus().length;
console.log(`Conversion, ${RUNS} runs per case (medians), ${cores} cores`);
console.log(
  `PNG 1024×768 → WebP 800 px   direct sharp ${ms(median(direct.png))}   through /v1 ${ms(median(api.png))}   ratio ${(median(api.png) / median(direct.png)).toFixed(2)}`,
);
console.log(
  `DOCX → PDF                   direct warm soffice ${ms(median(direct.docx))}   through /v1 ${ms(median(api.docx))}   ratio ${(median(api.docx) / median(direct.docx)).toFixed(2)}`,
);
console.log(
  `LibreOffice DOCX → PDF       cold ${ms(median(direct.cold))}   warm ${ms(median(direct.docx))}   (${(median(direct.cold) / median(direct.docx)).toFixed(1)}× faster warm)`,
);
console.log(`Burst of ${BURST} DOCX → PDF      1 worker ${perMinute1.toFixed(0)} jobs/min   2 workers ${perMinute2.toFixed(0)} jobs/min`);
console.log(`Gateway memory, 8 × 50 MB uploads at once: ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at peak`);
