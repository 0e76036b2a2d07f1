#!/usr/bin/env node
/* global document */
// Base64 of a 100 MB file in headless Chromium, through the real tool page: the file is chosen in the
// page's file input and the time is the page's own measure (performance.measure 'base64-encode':
// from the job starting to the whole result being ready as a Blob, in the tool's worker). Beside it,
// a plain reference in the same page: read the file, btoa() over String.fromCharCode chunks.
// Decoding the result back is measured the same way (tool page vs atob() in chunks).
// Target (issue 4): encoding 100 MB in under 2 s on this machine.
//
// Needs the built web app (npm run build:web) and /usr/bin/chromium. Usage:
//   node bench/base64-browser.mjs [megabytes=100] [runs=3]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, median, ms, serveWebApp } from './lib/browser.mjs';

const megabytes = Number(process.argv[2] ?? 100);
const runs = Number(process.argv[3] ?? 3);
const TARGET_MS = 2000;

const dir = mkdtempSync(join(tmpdir(), 'bench-base64-'));
const bytes = randomBytes(megabytes * 1024 * 1024);
const binPath = join(dir, 'random.bin');
const b64Path = join(dir, 'random.b64.txt');
writeFileSync(binPath, bytes);
writeFileSync(b64Path, bytes.toString('base64'));

const site = await serveWebApp();
const browser = await launchChromium();
const page = await browser.newPage();
page.on('pageerror', (e) => console.error('page error:', e.message));

/** Chooses the file on a tool page and waits for the page's measure; returns its duration in ms. */
async function toolRun(path, file, measure) {
  await page.goto(site.url + path);
  await page.evaluate(() => performance.clearMeasures());
  await page.locator('input[type=file]').setInputFiles(file);
  await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, measure, { timeout: 120_000, polling: 50 });
  return page.evaluate((name) => performance.getEntriesByName(name)[0].duration, measure);
}

/** The reference, in the page on the same file (chosen in an input of its own: the tool's input lets go of its files). */
async function referenceRun(kind, path) {
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-reference';
    document.body.append(input);
  });
  await page.locator('#bench-reference').setInputFiles(path);
  return page.evaluate(async (kind) => {
    const file = document.querySelector('#bench-reference').files[0];
    const started = performance.now();
    if (kind === 'encode') {
      const data = new Uint8Array(await file.arrayBuffer());
      const parts = [];
      const CHUNK = 3 * 32 * 1024;
      for (let i = 0; i < data.length; i += CHUNK) parts.push(btoa(String.fromCharCode.apply(null, data.subarray(i, i + CHUNK))));
      const blob = new Blob(parts);
      if (blob.size === 0) throw new Error('nothing encoded');
    } else {
      const text = await file.text();
      const parts = [];
      const CHUNK = 4 * 32 * 1024;
      for (let i = 0; i < text.length; i += CHUNK) {
        const binary = atob(text.slice(i, i + CHUNK));
        const out = new Uint8Array(binary.length);
        for (let j = 0; j < binary.length; j++) out[j] = binary.charCodeAt(j);
        parts.push(out);
      }
      if (new Blob(parts).size === 0) throw new Error('nothing decoded');
    }
    return performance.now() - started;
  }, kind);
}

try {
  const results = {};
  for (const [kind, path, file] of [
    ['encode', '/tools/converters/base64/encode/', binPath],
    ['decode', '/tools/converters/base64/decode/', b64Path],
  ]) {
    const tool = [];
    const reference = [];
    for (let i = 0; i < runs; i++) {
      tool.push(await toolRun(path, file, `base64-${kind}`));
      reference.push(await referenceRun(kind, file));
    }
    results[kind] = { tool: median(tool), reference: median(reference), runs: tool };
  }
  const { version } = { version: browser.version() };
  console.log(`Base64 in headless Chromium ${version}, ${megabytes} MB of random bytes, median of ${runs} runs`);
  for (const [kind, r] of Object.entries(results)) {
    const rate = (megabytes / (r.tool / 1000)).toFixed(0);
    console.log(
      `  ${kind.padEnd(6)} tool page (worker, streaming): ${ms(r.tool).padStart(8)}  (${rate} MB/s; runs ${r.runs.map(ms).join(', ')})` +
        `   reference (${kind === 'encode' ? 'btoa' : 'atob'} in chunks): ${ms(r.reference).padStart(8)}`,
    );
  }
  const scaled = (results.encode.tool * 100) / megabytes;
  console.log(`  target: encode 100 MB in under ${TARGET_MS} ms → ${scaled < TARGET_MS ? 'met' : 'NOT met'} (${ms(scaled)} for 100 MB)`);
  process.exitCode = scaled < TARGET_MS ? 0 : 1;
} finally {
  await browser.close();
  await site.close();
  rmSync(dir, { recursive: true, force: true });
}
