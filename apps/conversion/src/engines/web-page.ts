import { AppError } from '@tinkerdesk/contracts';
import { safeFetch, type FetchPolicy } from '@tinkerdesk/nest-common';
import { chromium, type Browser, type Route } from 'playwright-core';
import { ConversionFailure } from './failure.js';

/**
 * A web page (a URL) to PDF or PNG, rendered by headless Chromium (Debian's /usr/bin/chromium through
 * playwright-core).
 *
 * Chromium never opens a connection of its own: every request the page makes (the document, its
 * scripts, images, fonts, XHR) is intercepted and answered from safeFetch, so each one passes the
 * same SSRF guard as the first (http/https only, pinned addresses, no inside ranges, bounded size).
 * What interception does not see cannot leave either: Chromium is started with a proxy that is a
 * closed loopback port (WebSockets, anything else), WebRTC may not use UDP, service workers are
 * blocked, and downloads are refused. The whole render has a deadline.
 */

export interface WebPageRequest {
  url: string;
  to: 'pdf' | 'png';
  /** Request headers for the first request only (a bearer token for the page, say). */
  headers?: Record<string, string>;
}

export interface WebPageOptions {
  chromiumPath: string;
  policy: FetchPolicy;
  /** Deadline of the whole render. */
  timeoutMs: number;
  /** Most requests one page may make. */
  maxRequests: number;
  /** Viewport width in CSS pixels (PNG), and the tallest PNG rendered. */
  viewportWidth: number;
  maxHeight: number;
}

export const DEFAULT_WEB_PAGE_OPTIONS: Omit<WebPageOptions, 'policy'> = {
  chromiumPath: '/usr/bin/chromium',
  timeoutMs: 45_000,
  maxRequests: 300,
  viewportWidth: 1280,
  maxHeight: 16_384,
};

export interface RenderedPage {
  data: Buffer;
  mediaType: string;
  /** From the page's title or host. */
  title: string;
}

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--dns-prefetch-disable',
  '--disable-features=DnsOverHttps,NetworkPrediction',
  // Anything interception misses goes to a proxy that is not there.
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** An HTML document with `<base href>` set to where it really came from (after its doctype, so the mode stays). */
function withBase(html: Buffer, url: string): Buffer {
  const href = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return Buffer.from(html.toString('utf8').replace(/^(\uFEFF?\s*<!doctype[^>]*>)?/i, (doctype) => `${doctype}<base href="${href}">`));
}

/** The error a blocked request reports to the page (net::ERR_ACCESS_DENIED). */
const BLOCKED = 'accessdenied';

export class WebPageRenderer {
  private browser: Promise<Browser> | undefined;

  constructor(private readonly options: WebPageOptions) {}

  private launch(): Promise<Browser> {
    this.browser ??= chromium
      // The worker stops Chromium itself (close), after a SIGTERM's drain has let running pages finish;
      // Playwright's own signal handlers would kill it at once, failing the jobs the drain waits for.
      .launch({
        executablePath: this.options.chromiumPath,
        args: CHROMIUM_FLAGS,
        headless: true,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      })
      .catch((error: unknown) => {
        this.browser = undefined;
        throw error;
      });
    return this.browser;
  }

  async render(request: WebPageRequest, signal?: AbortSignal): Promise<RenderedPage> {
    const browser = await this.launch();
    const context = await browser.newContext({
      serviceWorkers: 'block',
      acceptDownloads: false,
      javaScriptEnabled: true,
      viewport: { width: this.options.viewportWidth, height: 800 },
    });
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    const stop = signal ? AbortSignal.any([deadline, signal]) : deadline;
    let first: AppError | undefined;
    let requests = 0;
    try {
      await context.route('**/*', async (route: Route) => {
        const url = route.request().url();
        if (url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
        requests++;
        const isFirst = requests === 1;
        if (requests > this.options.maxRequests || stop.aborted) return route.abort(BLOCKED);
        try {
          const got = await safeFetch(url, this.options.policy, {
            ...(isFirst && request.headers ? { headers: request.headers } : {}),
            signal: stop,
          });
          // A document that came from elsewhere after redirects keeps its own address for its
          // relative links (Chromium would send a redirect it is answered with to the proxy).
          const body =
            got.url !== url && /html/i.test(got.contentType) && !/charset=(?!"?utf-?8)/i.test(got.contentType)
              ? withBase(got.body, got.url)
              : got.body;
          await route.fulfill({ status: got.status, contentType: got.contentType, body });
        } catch (error) {
          if (isFirst && error instanceof AppError) first = error;
          await route.abort(BLOCKED).catch(() => undefined);
        }
      });
      await context.routeWebSocket(/.*/, (ws) => ws.close());
      const page = await context.newPage();
      const timeoutMs = Math.max(1000, this.options.timeoutMs - 2000);
      page.setDefaultTimeout(timeoutMs);
      try {
        await page.goto(request.url, { waitUntil: 'load', timeout: timeoutMs });
      } catch (error) {
        if (first) throw first; // the guard's own reason: URL_NOT_ALLOWED, UPSTREAM_ERROR...
        if (stop.aborted)
          throw new ConversionFailure('timeout', `the page did not finish loading within ${Math.round(this.options.timeoutMs / 1000)} s`);
        throw new ConversionFailure(
          'unreadable',
          `the page could not be loaded (${error instanceof Error ? error.message.split('\n')[0] : 'error'})`,
        );
      }
      if (first) throw first;
      // Give late requests a moment, without waiting forever for pages that never go quiet.
      await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
      const title = (await page.title()).trim() || new URL(request.url).hostname;
      if (request.to === 'pdf') {
        const data = await page.pdf({ printBackground: true, preferCSSPageSize: true, format: 'A4' });
        return { data, mediaType: 'application/pdf', title };
      }
      const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
      if (height > this.options.maxHeight)
        await page.setViewportSize({ width: this.options.viewportWidth, height: this.options.maxHeight });
      const data = await page.screenshot({ fullPage: height <= this.options.maxHeight, type: 'png' });
      return { data, mediaType: 'image/png', title };
    } finally {
      await context.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = undefined;
    await (await browser?.catch(() => undefined))?.close();
  }
}
