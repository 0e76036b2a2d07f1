#!/usr/bin/env node
// Lighthouse 13 (its mobile defaults: simulated slow 4G and 4x CPU slowdown, performance category) on
// the home page, Base64 encode and the barcode creator, 3 runs per page in a fresh headless Chromium
// each, and the median of each figure: performance score, FCP, LCP, TBT, CLS, and the JavaScript
// transferred by the first load as Lighthouse's network records count it. Those records count a Web
// Worker's script by its headers only, so a second figure adds up the bytes the site sends for every
// script the page loaded, workers included. Lighthouse 13 has no text-compression audit, so each JS
// and CSS file the page loaded is asked for again here with `Accept-Encoding: br, gzip, deflate` and
// the answer's Content-Encoding is counted; the exit status is 1 when any file of 1 KiB or more went
// uncompressed.
//
// Builds nothing. Uses the platform at --url (default http://localhost:8090, started with
// `PORT=8090 node scripts/start.mjs --no-build`) when it answers; otherwise starts the built gateway
// alone on a free loopback port (pages load; /v1 calls fail, which the tool pages do not need).
// With the platform, the default pages add a storefront and /account: the bench signs up a seller
// through the API with a sandbox service of three products; `{shop}` in a path is that shop's page
// (/shop/{guid}/{serviceId}) and a path starting with `+` is opened signed in as that seller (the
// session cookies `token` and `loggedIn` set in the fresh browser before Lighthouse loads the page).
// --lhr=DIR keeps each run's whole Lighthouse report (DIR/<page>-<run>.json: treemap, long tasks,
// main-thread breakdown, LCP element) to find what holds a page back. Each row ends with each run's
// benchmark index (Lighthouse's timing of a fixed loop before the page; higher is a faster CPU): on a
// shared host it swung between 830 and 2,050 within minutes (2026-11-27), and the blocking time with it.
// Usage: node bench/lighthouse.mjs [--url=http://localhost:8090] [--runs=3] [--json=out.json] [--lhr=DIR] [path ...]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, median } from './lib/browser.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const runs = Number(option('runs', 3));
const jsonOut = option('json', undefined);
const lhrDir = option('lhr', undefined);
const paths = args.filter((a) => !a.startsWith('--'));
const TOOL_PAGES = ['/', '/tools/converters/base64/encode/', '/tools/displaybarcode/', '/tools/'];
const PLATFORM_PAGES = ['{shop}', '+/account'];
const chromePath = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function answers(url) {
  try {
    const res = await fetch(`${url}/v1/health/live`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** The built gateway on its own (apps/gateway/dist/main.js, WEB_DIST as set or apps/web/dist). */
function startGateway() {
  const child = spawn(process.execPath, ['apps/gateway/dist/main.js'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      NODE_ENV: 'production',
      // Production refuses to start without it; no file is signed for these pages.
      FILES_SIGNING_SECRET: process.env.FILES_SIGNING_SECRET ?? 'bench-lighthouse-only-not-a-real-secret',
    },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  // It never outlives the benchmark, however that ends.
  process.on('exit', () => child.kill('SIGTERM'));
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the gateway did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`the gateway exited (${code}); run npm run build first\n${errors}`)));
    child.on('message', (message) => {
      if (message?.type !== 'ready') return;
      clearTimeout(timer);
      resolve({ url: message.url, stop: () => child.kill('SIGTERM') });
    });
  });
}

/** A fresh headless Chromium with a throwaway profile and its DevTools port, as Lighthouse's CLI would launch. */
function launchChromium() {
  const profile = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
  const child = spawn(chromePath, [...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start:\n${err}`)), 20_000);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const found = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
      if (!found) return;
      clearTimeout(timer);
      resolve({
        port: Number(found[1]),
        close: () =>
          new Promise((done) => {
            child.once('exit', () => {
              // Chromium's helpers may still be writing to the profile for a moment.
              rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
              done();
            });
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/**
 * The Content-Encoding and length the site answers for a file when the browser accepts br and gzip;
 * files the build leaves uncompressed because they are under 1 KiB are counted as "small".
 */
function encodingOf(url) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'HEAD', headers: { 'accept-encoding': 'br, gzip, deflate' } }, (res) => {
      res.resume();
      const bytes = Number(res.headers['content-length']);
      const encoding = res.headers['content-encoding'] ?? (bytes < 1024 ? 'small' : 'identity');
      resolve({ url, encoding, bytes });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A seller with a sandbox shop of three products, made through the API: its token and shop path. */
async function seedShop(url) {
  const call = async (path, body, token) => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const email = `bench-${Date.now()}@example.com`;
  const { token, profile } = await call('/v1/users', { email, password: 'benchmarking the first load' });
  const service = await call(
    `/v1/users/${profile.guid}/services`,
    { name: 'Bench prints', displayName: 'Bench prints', provider: 'sandbox', vendor: 'digital', account: 'sandbox_bench' },
    token,
  );
  const serviceId = service.service?.id ?? service.id;
  for (const [name, price] of [
    ['Poster', 1250],
    ['Postcard set', 900],
    ['Calendar', 2400],
  ]) {
    await call(
      `/v1/users/${profile.guid}/services/${serviceId}/products`,
      { name, description: `${name}, printed on matte paper`, price },
      token,
    );
  }
  return { token, shop: `/shop/${profile.guid}/${serviceId}` };
}

/** Sets the session cookies in the browser at DevTools `port` (its browser target), for `origin`. */
async function setSessionCookies(port, origin, token) {
  const { webSocketDebuggerUrl } = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onerror = () => reject(new Error('no DevTools connection'));
    socket.onopen = resolve;
  });
  const cookies = [
    { name: 'token', value: token, url: origin, path: '/' },
    { name: 'loggedIn', value: 'true', url: origin, path: '/' },
  ];
  const answer = new Promise((resolve) => (socket.onmessage = (event) => resolve(JSON.parse(event.data))));
  socket.send(JSON.stringify({ id: 1, method: 'Storage.setCookies', params: { cookies } }));
  const result = await answer;
  socket.close();
  if (result.error) throw new Error(`cookies not set: ${result.error.message}`);
}

async function audit(url, token, keepAs) {
  const chrome = await launchChromium();
  try {
    // Signed in: the cookies go in first, and Lighthouse keeps them (no storage reset; the profile is new).
    if (token) await setSessionCookies(chrome.port, new URL(url).origin, token);
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      disableStorageReset: Boolean(token),
    });
    if (!result) throw new Error(`no Lighthouse result for ${url}`);
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (lhrDir && keepAs) {
      mkdirSync(lhrDir, { recursive: true });
      writeFileSync(join(lhrDir, `${keepAs}.json`), JSON.stringify(lhr));
    }
    const requests = lhr.audits['network-requests'].details.items;
    const scripts = requests.filter((r) => r.resourceType === 'Script' || /\.(m?js)(\?|$)/.test(r.url));
    const assets = requests.filter((r) => /\.(m?js|css)(\?|$)/.test(r.url) && r.url.startsWith(new URL(url).origin));
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      fcp: lhr.audits['first-contentful-paint'].numericValue,
      lcp: lhr.audits['largest-contentful-paint'].numericValue,
      tbt: lhr.audits['total-blocking-time'].numericValue,
      cls: lhr.audits['cumulative-layout-shift'].numericValue,
      // Lighthouse's own measure of the CPU's speed at this run (a loop of work timed before the page,
      // higher is faster): simulated throttling multiplies the measured tasks by 4, so a run on a slow
      // moment of a shared host shows more blocking time.
      cpu: lhr.environment.benchmarkIndex,
      js: scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
      jsFiles: scripts.length,
      assets: [...new Set(assets.map((r) => r.url))],
    };
  } finally {
    await chrome.close();
  }
}

const wanted = option('url', 'http://localhost:8090');
let site = { url: wanted, stop: () => undefined };
if (!(await answers(wanted))) {
  console.log(`${wanted} does not answer: starting the built gateway on its own`);
  site = await startGateway();
}

const withApi = site.url === wanted;
const PAGES = paths.length > 0 ? paths : withApi ? [...TOOL_PAGES, ...PLATFORM_PAGES] : TOOL_PAGES;
const seller = PAGES.some((p) => p.includes('{shop}') || p.startsWith('+')) ? await seedShop(site.url) : undefined;

const report = [];
try {
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
  console.log(`Lighthouse 13, mobile defaults, ${runs} runs per page, medians; site ${site.url}; load average (1, 5, 15 min) ${load()}`);
  process.on('exit', () => console.log(`load average at the end: ${load()}`));
  console.log(
    'page                                  score   FCP ms   LCP ms  TBT ms    CLS   first-load JS (files) / with workers  JS/CSS Content-Encoding',
  );
  for (const page of PAGES) {
    const signedIn = page.startsWith('+');
    const path = page.replace(/^\+/, '').replace('{shop}', seller?.shop ?? '{shop}');
    const token = signedIn ? seller?.token : undefined;
    const results = [];
    const name = (page.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home').toLowerCase();
    for (let i = 0; i < runs; i++) {
      // A run Lighthouse reports as failed (its runtimeError) is tried once more.
      results.push(
        await audit(site.url + path, token, `${name}-${i + 1}`).catch((error) => {
          console.error(`run failed, once more: ${error.message}`);
          return audit(site.url + path, token, `${name}-${i + 1}`);
        }),
      );
    }
    const assets = [...new Set(results.flatMap((r) => r.assets))];
    const encodings = await Promise.all(assets.map(encodingOf));
    const counts = {};
    for (const e of encodings) counts[e.encoding] = (counts[e.encoding] ?? 0) + 1;
    const scriptBytes = encodings.filter((e) => /\.m?js(\?|$)/.test(e.url)).reduce((sum, e) => sum + e.bytes, 0);
    const row = {
      path: signedIn ? `${path} (signed in)` : path.replace(seller?.shop ?? '{shop}', '/shop/… (3 products)'),
      score: median(results.map((r) => r.score)),
      scores: results.map((r) => r.score),
      fcp: median(results.map((r) => r.fcp)),
      lcp: median(results.map((r) => r.lcp)),
      tbt: median(results.map((r) => r.tbt)),
      cls: median(results.map((r) => r.cls)),
      clsMax: Math.max(...results.map((r) => r.cls)),
      cpus: results.map((r) => Math.round(r.cpu)),
      jsKiB: median(results.map((r) => r.js)) / 1024,
      jsWireKiB: scriptBytes / 1024,
      jsFiles: median(results.map((r) => r.jsFiles)),
      encodings: counts,
    };
    report.push(row);
    const enc = Object.entries(counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    console.log(
      `${row.path.padEnd(36)} ${String(row.score).padStart(5)} ${row.fcp.toFixed(0).padStart(8)} ${row.lcp.toFixed(0).padStart(8)} ${row.tbt
        .toFixed(0)
        .padStart(
          7,
        )} ${row.cls.toFixed(3).padStart(6)} ${`${row.jsKiB.toFixed(0)} KiB (${row.jsFiles})`.padStart(15)} / ${`${row.jsWireKiB.toFixed(0)} KiB`.padStart(8)}` +
        `            ${enc}` +
        `   [scores ${row.scores.join(', ')}; CLS max ${row.clsMax.toFixed(3)}; benchmark index ${row.cpus.join(', ')}]`,
    );
  }
} finally {
  site.stop();
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(report, null, 2));
const uncompressed = report.filter((r) => r.encodings.identity);
if (uncompressed.length > 0) {
  console.log(`uncompressed JS/CSS of 1 KiB or more on ${uncompressed.map((r) => r.path).join(', ')}`);
  process.exitCode = 1;
}
