import { describe, expect, it } from '@jest/globals';
import express, { type NextFunction, type Request, type Response } from 'express';
import fc from 'fast-check';
import request from 'supertest';
import { dispatchRoutes, pathKey, routeKey, routeLayers } from './route-dispatch.js';

type Method = 'get' | 'post' | 'put' | 'delete';

/** Routes registered as Nest registers its controllers' (one app.<method>(path) each), in this order. */
const ROUTES: Array<[Method, string | string[]]> = [
  ['get', '/v1/health/live'],
  ['get', '/v1/users/me'],
  ['post', '/v1/users'],
  ['get', '/v1/users/:guid'],
  ['delete', '/v1/users/:guid'],
  ['get', '/v1/users/:id/services/:sid/products'],
  ['post', '/v1/users/:id/services/:sid/products'],
  ['get', '/v1/users/:id/fallthrough'],
  ['get', '/v1/users/:id/fallthrough'],
  ['get', '/v1/users/:id/fails'],
  ['get', '/v1/:kind/list'],
  ['put', '/v1/files/{*rest}'],
  ['get', ['/v1/a/b', '/v1/c/d']],
  ['get', '/v1'],
  ['get', '/'],
  ['get', '/v1/orders/:id.pdf'],
  ['get', '/v1/users/me'],
];

function buildApp(dispatch: boolean): express.Express {
  const app = express();
  app.use((req, _res, next) => {
    // A middleware before the routes, as the gateway's are.
    (req as Request & { seen?: boolean }).seen = true;
    next();
  });
  ROUTES.forEach(([method, path], i) => {
    app[method](path, (req: Request, res: Response, next: NextFunction) => {
      if (String(req.route?.path).includes('fallthrough') && req.params.id === 'skip' && i === 7) return next();
      if (String(req.route?.path).includes('fallthrough') && req.params.id === 'route' && i === 7) return next('route');
      if (String(req.route?.path).includes('fails')) return next(new Error(`route ${i} failed`));
      res.json({ route: i, params: req.params, path: req.route?.path as unknown, url: req.url, baseUrl: req.baseUrl });
    });
  });
  app.use((req: Request, res: Response) => void res.status(404).json({ notFound: req.path, params: req.params }));
  app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => void res.status(500).json({ error: error.message }));
  if (dispatch) dispatchRoutes(app);
  return app;
}

const plain = buildApp(false);
const dispatched = buildApp(true);

async function answer(app: express.Express, method: string, path: string) {
  const res = await request(app)[method.toLowerCase() as 'get'](path);
  return {
    status: res.status,
    body: res.body as unknown,
    allow: res.headers.allow as unknown,
    type: res.headers['content-type'] as unknown,
  };
}

const PATHS = [
  '/v1/health/live',
  '/v1/users/me',
  '/V1/Users/ME',
  '/v1/users/me/',
  '/v1/users/me?x=1',
  '/v1//users/me',
  '/v1/%75sers/me',
  '/v1/users',
  '/v1/users/',
  '/v1/users/abc',
  '/v1/users/a%20b',
  '/v1/users/%E0%A4%A',
  '/v1/users/u1/services/s1/products',
  '/v1/users/u1/services/s1/products/',
  '/v1/users/skip/fallthrough',
  '/v1/users/route/fallthrough',
  '/v1/users/x/fails',
  '/v1/things/list',
  '/v1/users/list',
  '/v1/files/a/b/c.txt',
  '/v1/a/b',
  '/v1/c/d',
  '/v1/a/d',
  '/v1',
  '/v1/',
  '/',
  '//',
  '/v1/orders/o1.pdf',
  '/nothing/here',
];

describe('dispatchRoutes', () => {
  it('takes the routes out of the router behind one layer, and routeLayers still lists them in order', () => {
    const before = (plain as unknown as { router: { stack: unknown[] } }).router.stack.length;
    const after = (dispatched as unknown as { router: { stack: unknown[] } }).router.stack.length;
    expect(after).toBe(before - ROUTES.length + 1);
    expect(routeLayers(dispatched).map((l) => l.route?.path)).toEqual(routeLayers(plain).map((l) => l.route?.path));
    expect(routeLayers(plain)).toHaveLength(ROUTES.length);
  });

  it.each(['GET', 'HEAD', 'POST', 'PUT', 'DELETE'])('answers %s of every path as the router alone does', async (method) => {
    for (const path of PATHS) {
      const [expected, actual] = await Promise.all([answer(plain, method, path), answer(dispatched, method, path)]);
      expect({ path, ...actual }).toEqual({ path, ...expected });
    }
  });

  // The gateway answers every OPTIONS request in CORS, before the routes. Were one to reach them, it gets
  // Express's automatic answer (Allow: the path's methods) at the end of the routes, not of the app.
  it("answers OPTIONS with Express's automatic answer when a route has the path, as before otherwise", async () => {
    // The routes alone, with nothing after them: Express answers OPTIONS itself (200, Allow: the path's methods).
    const routesOnly = express();
    ROUTES.forEach(([method, path]) => routesOnly[method](path, (_req: Request, res: Response) => void res.json({})));
    let automatic = 0;
    for (const path of PATHS) {
      const [before, own, actual] = await Promise.all([
        answer(plain, 'OPTIONS', path),
        answer(routesOnly, 'OPTIONS', path),
        answer(dispatched, 'OPTIONS', path),
      ]);
      if (own.status === 200) {
        automatic++;
        expect({ path, ...actual }).toEqual({ path, ...own });
      } else expect({ path, ...actual }).toEqual({ path, ...before });
    }
    expect(automatic).toBeGreaterThan(10);
  });

  it('answers any path as the router alone does', async () => {
    const segment = fc.constantFrom(
      'v1',
      'V1',
      'users',
      'USERS',
      'me',
      'u1',
      'services',
      's1',
      'products',
      'health',
      'live',
      'list',
      'files',
      'a',
      'b',
      'c',
      'd',
      '',
      '%75sers',
      'o1.pdf',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { maxLength: 7 }),
        fc.boolean(),
        fc.constantFrom('GET', 'POST', 'DELETE', 'PUT'),
        async (segments, slash, method) => {
          const path = `/${segments.join('/')}${slash ? '/' : ''}`;
          const [expected, actual] = await Promise.all([answer(plain, method, path), answer(dispatched, method, path)]);
          expect({ path, ...actual }).toEqual({ path, ...expected });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keys a route by its literal first two segments, and a path the same way', () => {
    expect(routeKey('/v1/users/:id/services')).toBe('v1/users');
    expect(routeKey('/v1/Users')).toBe('v1/users');
    expect(routeKey('/v1')).toBe('v1');
    expect(routeKey('/')).toBe('');
    expect(routeKey('/v1/:kind/list')).toBeUndefined();
    expect(routeKey('/v1/{*rest}')).toBeUndefined();
    expect(routeKey('/v1/users{/:id}')).toBeUndefined();
    expect(routeKey('/v1//users')).toBeUndefined();
    expect(pathKey('/v1/users/u1/services')).toBe('v1/users');
    expect(pathKey('/V1/USERS/')).toBe('v1/users');
    expect(pathKey('/v1/')).toBe('v1');
    expect(pathKey('/')).toBe('');
  });
});
