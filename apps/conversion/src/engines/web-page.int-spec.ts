import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AppError } from '@tinkerdesk/contracts';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { pdfText } from '@tinkerdesk/testing';
import { pdfImageSizes } from '../../test/outside-documents.js';
import { DEFAULT_WEB_PAGE_OPTIONS, WebPageRenderer } from './web-page.js';

/**
 * Real Chromium rendering a page from a loopback site on the allow-list. The page also asks for
 * things inside the network (an image on [::1], a script fetching 10.0.0.1, a WebSocket); a second
 * server on [::1] proves none of them arrives.
 */
let site: Server;
let inside: Server;
let port: number;
let insidePort: number;
const siteHits: string[] = [];
let insideHits = 0;
let renderer: WebPageRenderer;
let localPng: string;

beforeAll(async () => {
  localPng = join(mkdtempSync(join(tmpdir(), 'web-page-local-')), 'worker-secret.png');
  writeFileSync(
    localPng,
    await sharp({ create: { width: 61, height: 47, channels: 3, background: '#e11d48' } })
      .png()
      .toBuffer(),
  );
  inside = createServer((_req, res) => {
    insideHits++;
    res.end('secret');
  });
  await new Promise<void>((resolve) => inside.listen(0, '::1', resolve));
  insidePort = (inside.address() as AddressInfo).port;
  site = createServer((req, res) => {
    siteHits.push(req.url ?? '');
    if (req.url === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Quarterly report</title>
        <style>body{font:24px sans-serif}</style>
        <h1>Quarterly report</h1><p>Rendered by Tinkerdesk.</p>
        <img src="/logo.svg" width="40" height="40">
        <img src="http://[::1]:${insidePort}/secret.png">
        <script>
          fetch('http://10.0.0.1/').catch(() => {});
          fetch('http://[::1]:${insidePort}/x').catch(() => {});
          try { new WebSocket('ws://[::1]:${insidePort}/'); } catch (e) {}
        </script>`);
    } else if (req.url === '/logo.svg') {
      res
        .writeHead(200, { 'content-type': 'image/svg+xml' })
        .end('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="#4f46e5"/></svg>');
    } else if (req.url === '/outside.html') {
      // Every kind of subresource, each pointing inside the network or at the worker's files.
      const inner = `http://[::1]:${insidePort}`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Outside</title>
        <link rel="stylesheet" href="${inner}/link.css">
        <style>@import url("${inner}/import.css"); body { background: url(${inner}/background.png) }</style>
        <p>Outside references</p>
        <img src="${inner}/img.png" width="61" height="47">
        <img src="file://${localPng}" width="61" height="47">
        <iframe src="file:///etc/passwd"></iframe>
        <iframe src="${inner}/frame.html"></iframe>
        <object data="${inner}/object.png"></object>
        <video poster="${inner}/poster.png"></video>
        <script>fetch('file:///etc/passwd').catch(() => {}); navigator.sendBeacon('${inner}/beacon', 'x');</script>`);
    } else if (req.url === '/moved') {
      res.writeHead(301, { location: '/page.html' }).end();
    } else if (req.url === '/to-inside') {
      res.writeHead(302, { location: `http://[::1]:${insidePort}/` }).end();
    } else {
      res.writeHead(404).end('missing');
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  port = (site.address() as AddressInfo).port;
  renderer = new WebPageRenderer({
    ...DEFAULT_WEB_PAGE_OPTIONS,
    timeoutMs: 30_000,
    policy: { allowedHosts: new Set(['127.0.0.1']), maxBytes: 5 * 1024 * 1024, timeoutMs: 5000, maxRedirects: 5 },
  });
});

afterAll(async () => {
  await renderer?.close();
  for (const server of [site, inside]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
});

describe('WebPageRenderer (Chromium)', () => {
  it('renders a page to PDF, its own assets fetched and nothing inside the network reached', async () => {
    const out = await renderer.render({ url: `http://127.0.0.1:${port}/page.html`, to: 'pdf' });
    expect(out.mediaType).toBe('application/pdf');
    expect(out.title).toBe('Quarterly report');
    const dir = mkdtempSync(join(tmpdir(), 'web-page-'));
    writeFileSync(join(dir, 'a.pdf'), out.data);
    expect(execFileSync('pdftotext', [join(dir, 'a.pdf'), '-'], { encoding: 'utf8' })).toContain('Rendered by Tinkerdesk.');
    expect(siteHits).toEqual(expect.arrayContaining(['/page.html', '/logo.svg']));
    expect(insideHits).toBe(0);
  });

  it('renders a page to a PNG as wide as the viewport, following a redirect', async () => {
    const out = await renderer.render({ url: `http://127.0.0.1:${port}/moved`, to: 'png' });
    expect(out.mediaType).toBe('image/png');
    const meta = await sharp(out.data).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1280 });
    expect(insideHits).toBe(0);
  });

  it('sends every subresource through the guard: nothing inside the network is reached and no file: URL is read', async () => {
    const before = insideHits;
    const out = await renderer.render({ url: `http://127.0.0.1:${port}/outside.html`, to: 'pdf' });
    expect(pdfText(out.data)).toContain('Outside references');
    expect(insideHits - before).toBe(0);
    // The worker's PNG (61×47) is not in the PDF (only Chromium's broken-image icons are).
    expect(pdfImageSizes(out.data)).not.toContain('61x47');
    const file = await renderer.render({ url: `file://${localPng}`, to: 'png' }).catch((e: unknown) => e);
    expect((file as AppError).code).toBe('URL_NOT_ALLOWED');
  });

  it('refuses a page inside the network, directly or by a redirect, with the guard’s reason', async () => {
    const direct = await renderer.render({ url: `http://[::1]:${insidePort}/`, to: 'pdf' }).catch((e: unknown) => e);
    expect(direct).toBeInstanceOf(AppError);
    expect((direct as AppError).code).toBe('URL_NOT_ALLOWED');
    const redirected = await renderer.render({ url: `http://127.0.0.1:${port}/to-inside`, to: 'png' }).catch((e: unknown) => e);
    expect((redirected as AppError).code).toBe('URL_NOT_ALLOWED');
    const missing = await renderer.render({ url: `http://127.0.0.1:${port}/nothing`, to: 'png' }).catch((e: unknown) => e);
    expect((missing as AppError).code).toBe('UPSTREAM_ERROR');
    expect(insideHits).toBe(0);
  });
});
