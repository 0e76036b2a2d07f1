import { describe, expect, it } from '@jest/globals';
import express, { type RequestHandler } from 'express';
import fc from 'fast-check';
import request from 'supertest';
import { fixedHeaders, recordHeaders, securityHeaders, weakETag } from './static-headers.js';

/** An app answering every path with a small body after `headers`. */
function appWith(headers: RequestHandler): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use((_req, res, next) => {
    // A header set before, as X-Request-Id is: the middleware must leave it.
    res.setHeader('x-request-id', 'req-1');
    next();
  });
  app.use(headers);
  app.all('/{*rest}', (_req, res) => void res.json({ success: true }));
  return app;
}

const REQUESTS: Array<[string, string, Record<string, string>]> = [
  ['GET', '/v1/users/me', {}],
  ['GET', '/v1/users/x/services/y/products?servicetype=digital', { origin: 'https://elsewhere.example' }],
  ['POST', '/v1/users', { 'content-type': 'application/json' }],
  ['HEAD', '/', { 'x-forwarded-proto': 'https' }],
  ['OPTIONS', '/v1/orders', { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' }],
  ['DELETE', '/shop/riso', { 'user-agent': 'MSIE 8.0' }],
];

function headersOf(res: request.Response): Record<string, unknown> {
  const { date: _date, ...rest } = res.headers as Record<string, unknown>;
  return rest;
}

describe('fixedHeaders', () => {
  it.each(REQUESTS)("answers %s %s with exactly helmet's headers, in the same order", async (method, path, headers) => {
    const send = (app: express.Express) => {
      const call = request(app)[method.toLowerCase() as 'get'](path);
      for (const [k, v] of Object.entries(headers)) call.set(k, v);
      return call;
    };
    const helmets = await send(appWith(securityHeaders()));
    const fixed = await send(appWith(fixedHeaders(securityHeaders())));
    expect(headersOf(fixed)).toEqual(headersOf(helmets));
    expect(Object.keys(headersOf(fixed))).toEqual(Object.keys(headersOf(helmets)));
    expect(helmets.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('records the headers set and the ones removed', () => {
    const effects = recordHeaders((_req, res, next) => {
      res.setHeader('X-Frame-Options', 'DENY');
      res.removeHeader('X-Powered-By');
      next();
    });
    expect(effects).toEqual({ set: [['X-Frame-Options', 'DENY']], removed: ['X-Powered-By'] });
  });

  it('refuses a middleware whose headers may depend on the request', () => {
    expect(() =>
      fixedHeaders((req, res, next) => {
        res.setHeader('x-path', req.path);
        next();
      }),
    ).toThrow(/read the request's path/);
    expect(() =>
      fixedHeaders((_req, res, next) => {
        if (!res.getHeader('vary')) res.setHeader('vary', 'Origin');
        next();
      }),
    ).toThrow(/read the response's getHeader/);
    expect(() => fixedHeaders((_req, _res, next) => void setImmediate(next))).toThrow(/did not call next at once/);
    expect(() => fixedHeaders((_req, _res, next) => next(new Error('no')))).toThrow(/with an error/);
  });
});

describe('weakETag', () => {
  const expressWeak = express().get('etag fn') as (body: Buffer | string, encoding?: BufferEncoding) => string;

  it("is Express's default weak ETag of the same body", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.string({ maxLength: 3000 })), (text) => {
        expect(weakETag(text, 'utf8')).toBe(expressWeak(text, 'utf8'));
        expect(weakETag(Buffer.from(text))).toBe(expressWeak(Buffer.from(text)));
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70_000 }), (bytes) => {
        const body = Buffer.from(bytes);
        expect(weakETag(body)).toBe(expressWeak(body));
      }),
      { numRuns: 100 },
    );
  });

  it('of an empty body, and of a latin1 string', () => {
    expect(weakETag(Buffer.alloc(0))).toBe(expressWeak(Buffer.alloc(0)));
    expect(weakETag('')).toBe('W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"');
    expect(weakETag('café', 'latin1')).toBe(expressWeak('café', 'latin1'));
  });

  it("is what a response's ETag is once set as the app's etag function, and a matching If-None-Match answers 304", async () => {
    const app = express();
    app.set('etag', weakETag);
    app.get('/', (_req, res) => void res.json({ success: true, products: [{ name: 'Café 🎨' }] }));
    const first = await request(app).get('/');
    expect(first.headers.etag).toBe(expressWeak(Buffer.from(JSON.stringify({ success: true, products: [{ name: 'Café 🎨' }] }))));
    const again = await request(app).get('/').set('if-none-match', String(first.headers.etag));
    expect(again.status).toBe(304);
  });
});
