import type { Express, NextFunction, Request, Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppError, statusOf, type ErrorEnvelope } from '@tinkerdesk/contracts';
import type { Logger } from '@tinkerdesk/nest-common';
import { AppPage, type Encoding } from './app-page.js';
import { accountAnswerScript, AccountShells, isAccountPath, readAccountAnswer, sessionCookie, type AccountReader } from './account-page.js';
import { readShopAnswer, shopAnswerScript, shopPath, ShopShells, type ShopReader } from './shop-page.js';

const API_PATH = /^\/v1(\/|$)/;

/** How long a shop's page waits for the gateway's read of the shop before it goes without the shop's first paint. */
const SHOP_READ_TIMEOUT_MS = 1500;
/** How long a signed-in visitor's /account waits for the gateway's read of their profile (as a shop's page). */
const ACCOUNT_READ_TIMEOUT_MS = 1500;

/** What a page's answer may set otherwise than the default (`no-cache`; `Vary: Accept-Encoding`). */
interface PageHeaders {
  cacheControl?: string;
  vary?: string;
}
type SendPage = (page: { body: Buffer; encoding: Encoding }, headers?: PageHeaders) => void;

/** The gateway's own reads that pages are painted from (start.ts): a shop's, and a signed-in visitor's account. */
export interface PageReads {
  readShop?: ShopReader;
  readAccount?: AccountReader;
}

/**
 * A path that names a file rather than a page: anything under /assets/ (the hashed build output),
 * or a last segment with a file extension (/favicon.ico, /pdfjs/cmaps/x.bcmap). No page route of the
 * app has one (routes/paths.ts, the tools' meta.ts); such a path that is not a file on disk is a 404,
 * never the SPA's index.html (a script or style answered with HTML breaks the page in confusing ways).
 */
export function looksLikeFile(path: string): boolean {
  return path.startsWith('/assets/') || /\/[^/]*\.[A-Za-z0-9]{1,8}$/.test(path);
}

/**
 * The encoding to send the app page in: brotli when the request's Accept-Encoding allows it, else
 * gzip, else none (as express-static-gzip chooses for files: `orderPreference` br, gzip).
 */
export function pageEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name) accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return 'identity';
}

/**
 * Serves the built web app for every non-/v1 path: files as they are (hashed assets cached for a
 * year), and index.html for any other GET so deep links (/tools/guidgenerator/, /login#!/register)
 * load the SPA, which renders its own 404 page for unknown routes. A missing file is a 404.
 *
 * The build writes brotli (.br) and gzip (.gz) copies of compressible files beside them
 * (apps/web/vite.config.ts); express-static-gzip answers with the copy the request's Accept-Encoding
 * allows (brotli first), with Content-Encoding, Vary: Accept-Encoding and the original file's
 * Content-Type; serve-static below it keeps HEAD, Range, ETag and Last-Modified working (on the copy
 * that is sent). The copies are found when the gateway starts: rebuild, then restart.
 *
 * The app page itself (apps/gateway/src/web/app-page.ts) carries `<link rel="modulepreload">` for the
 * chunks of the route being opened (dist/route-preloads.json, written by the web build from the
 * router), so a first visit fetches the page's chunk with the entry, and is compressed the same way.
 * /logo.svg, shown by the page several times (the icon, the static top bar, the app's top bar and
 * footer), may be kept a day so the browser fetches it once.
 */
export function mountWebApp(app: Express, webDist: string, logger: Logger, { readShop, readAccount }: PageReads = {}): void {
  const root = resolve(webDist);
  const page = new AppPage(root);
  const shells = new ShopShells(root);
  const accountShells = new AccountShells(root);

  /**
   * /account for the visitor the `token` cookie names, painted from the gateway's own read of their
   * profile with that answer for the app (account-page.ts). The page holds their own profile: it is
   * never stored (`private, no-store`), and it varies with the cookie. Without a live session, or when
   * the read fails or is late, the page is the one everyone gets and the app answers.
   */
  function sendAccountPage(req: Request, send: SendPage, read: AccountReader): void {
    const token = sessionCookie(req.get('cookie'));
    const encoding = pageEncoding(req.get('accept-encoding'));
    const vary = 'Accept-Encoding, Cookie';
    if (!token) return send(page.render(req.path, encoding), { vary });
    void (async () => {
      const answer = await readAccountAnswer(token, read, ACCOUNT_READ_TIMEOUT_MS);
      const shell = answer ? await accountShells.render(req.path, answer) : undefined;
      return answer && shell ? page.renderWith(req.path, encoding, shell, accountAnswerScript(answer)) : undefined;
    })().then(
      (personal) =>
        personal ? send(personal, { vary, cacheControl: 'private, no-store' }) : send(page.render(req.path, encoding), { vary }),
      (error: unknown) => {
        logger.warn({ err: error, path: req.path }, "an account's first paint failed; the page goes without it");
        send(page.render(req.path, encoding), { vary });
      },
    );
  }

  if (!existsSync(resolve(root, 'index.html'))) {
    logger.warn({ webDist: root }, 'web app not built: run `npm run build:web`; non-/v1 paths answer 503');
  }
  const serveFiles = expressStaticGzip(root, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      index: false,
      redirect: false,
      setHeaders(res, path) {
        if (/[/\\]assets[/\\]/.test(path)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        else if (/[/\\]logo\.svg$/.test(path)) res.setHeader('cache-control', 'public, max-age=86400');
        else res.setHeader('cache-control', 'no-cache');
      },
    },
  });
  // /v1 is the API's alone; a path that is not valid percent-encoding is refused in the envelope (the
  // file server decodes it and would otherwise fail with Express's HTML error page).
  app.use((req: Request, res: Response, next: NextFunction) => {
    // The web build's renderer of a shop's first paint is the gateway's, not a file of the site.
    if (API_PATH.test(req.path) || req.path.startsWith('/shells/')) return next();
    try {
      decodeURIComponent(req.path);
    } catch {
      const body: ErrorEnvelope = { success: false, error: 'BAD_REQUEST', detail: 'the path is not valid percent-encoding' };
      res.status(statusOf('BAD_REQUEST')).json(body);
      return;
    }
    serveFiles(req, res, next);
  });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (API_PATH.test(req.path) || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    if (looksLikeFile(req.path)) {
      const body: ErrorEnvelope = { success: false, error: 'NOT_FOUND', detail: `no file at ${req.path}` };
      res.status(statusOf('NOT_FOUND')).setHeader('cache-control', 'no-cache').json(body);
      return;
    }
    if (!page.available) return next(new AppError('UNAVAILABLE', 'the web app is not built'));
    const send = ({ body, encoding }: { body: Buffer; encoding: Encoding }, headers: PageHeaders = {}) => {
      res.setHeader('cache-control', headers.cacheControl ?? 'no-cache');
      res.setHeader('vary', headers.vary ?? 'Accept-Encoding');
      if (encoding !== 'identity') res.setHeader('content-encoding', encoding);
      // send() adds the ETag (of the bytes sent), answers a matching If-None-Match with 304 and HEAD without a body.
      res.type('html').send(body);
    };
    if (readAccount && isAccountPath(req.path)) return sendAccountPage(req, send, readAccount);
    const shop = readShop ? shopPath(req.path) : undefined;
    // An address with a query may carry a tool's settings, which its page's whole-form shell would not show.
    if (!shop || !readShop) return send(page.render(req.path, pageEncoding(req.get('accept-encoding')), req.originalUrl.includes('?')));
    // A shop's page: painted from the gateway's own read, with the answer for the app (shop-page.ts).
    // Any failure sends the page without the shop, which the app then reads and shows itself.
    void (async () => {
      const at = Date.now();
      const answer = await readShopAnswer(shop, readShop, SHOP_READ_TIMEOUT_MS);
      const shell = answer ? await shells.render(req.path, shop, answer) : undefined;
      const encoding = pageEncoding(req.get('accept-encoding'));
      if (!answer || !shell) return page.render(req.path, encoding);
      // No shop at this address: the page says so, and so does its status (search engines, link checkers).
      if (answer.status === 404) res.status(404);
      return page.renderWith(req.path, encoding, shell, shopAnswerScript(shop, answer, at));
    })().then(send, (error: unknown) => {
      logger.warn({ err: error, path: req.path }, "a shop's first paint failed; the page goes without it");
      send(page.render(req.path, pageEncoding(req.get('accept-encoding'))));
    });
  });
}
