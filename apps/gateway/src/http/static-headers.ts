import { hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/** The gateway's security headers (helmet), as a middleware that computes them per request. */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // https: for the product images sellers link on their public pages.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'data:', 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
}

/** What a header middleware did to a response: the headers it set, in order, and the ones it removed. */
interface HeaderEffects {
  set: Array<[string, string | number | readonly string[]]>;
  removed: string[];
}

/**
 * A middleware that answers every request with the same headers (helmet's, whose directives here are
 * all fixed values), made once: the middleware is run at start on a stand-in request and response
 * that record what it sets and removes, and each request then gets those headers as they were set.
 * Refused (an error at start) when the middleware does anything else: reads the request's headers,
 * reads a response header, calls on later or with an error; then its headers could depend on the
 * request, and it must stay as it is.
 */
export function fixedHeaders(middleware: RequestHandler): RequestHandler {
  const effects = recordHeaders(middleware);
  const set = effects.set;
  const removed = effects.removed;
  return (_req: Request, res: Response, next: NextFunction): void => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}

function refuse(what: string): never {
  throw new Error(`fixedHeaders: the middleware ${what}: its headers may depend on the request`);
}

/** Runs `middleware` once on stand-ins and answers what it did to the response's headers. */
export function recordHeaders(middleware: RequestHandler): HeaderEffects {
  const effects: HeaderEffects = { set: [], removed: [] };
  const req = new Proxy({} as IncomingMessage, {
    get: (_target, property) => refuse(`read the request's ${String(property)}`),
  });
  const stand: Partial<ServerResponse> = {
    setHeader(name: string, value: string | number | readonly string[]) {
      effects.set.push([name, value]);
      return this as ServerResponse;
    },
    removeHeader(name: string) {
      effects.removed.push(name);
    },
  };
  const res = new Proxy(stand as ServerResponse, {
    get: (target, property) =>
      property in target ? target[property as keyof ServerResponse] : refuse(`read the response's ${String(property)}`),
  });
  let done = false;
  middleware(req as Request, res as unknown as Response, (error?: unknown) => {
    if (error !== undefined) refuse(`called next with an error (${String(error)})`);
    done = true;
  });
  if (!done) refuse('did not call next at once');
  // A header set and later removed (or the reverse) would replay in another order: not expected of helmet.
  for (const name of effects.removed) {
    if (effects.set.some(([n]) => n.toLowerCase() === name.toLowerCase())) refuse(`set and removed ${name}`);
  }
  return effects;
}

const EMPTY_WEAK_ETAG = 'W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"';

/**
 * Express's weak ETag of a body (its default `etag: 'weak'`, the `etag` package): `W/"<length in
 * hex>-<the first 27 characters of the body's SHA-1 in base64>"`, the same string, with Node's one-shot
 * `crypto.hash` instead of a Hash object per response.
 */
export function weakETag(body: Buffer | string, encoding?: BufferEncoding): string {
  const bytes = typeof body === 'string' ? Buffer.from(body, encoding) : body;
  if (bytes.length === 0) return EMPTY_WEAK_ETAG;
  return `W/"${bytes.length.toString(16)}-${hash('sha1', bytes, 'base64').substring(0, 27)}"`;
}
