import express, { type Express, type NextFunction, type Request, type Response } from 'express';

/** The part of Express's router read here: its layers, and a route layer's path. */
export interface RouterLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

interface RouterLike {
  stack: RouterLayer[];
  params: unknown;
}

const DISPATCHED = Symbol('the route layers that dispatchRoutes took out of the router');

/** A character of path-to-regexp's syntax (parameters, wildcards, optional parts, escapes). */
const SYNTAX = /[:*{}()[\]?+!\\]/;

/**
 * The first two segments of a route's path, lowercased (`v1/users` of `/v1/users/:id/services`), or
 * undefined when one of them is not literal text (a parameter, a wildcard, an optional part): such a
 * route is tried for every path.
 */
export function routeKey(path: string): string | undefined {
  if (!path.startsWith('/')) return undefined;
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const segments = trimmed.split('/').slice(1, 3);
  if (segments.some((s) => SYNTAX.test(s) || (s === '' && trimmed !== '/'))) return undefined;
  return segments.join('/').toLowerCase();
}

/** The same key of a request's path (one trailing slash left out, as the routes' patterns allow it). */
export function pathKey(path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const second = trimmed.indexOf('/', 1);
  const third = second === -1 ? -1 : trimmed.indexOf('/', second + 1);
  return (third === -1 ? trimmed.slice(1) : trimmed.slice(1, third)).toLowerCase();
}

function keysOf(layer: RouterLayer): string[] | undefined {
  const paths = Array.isArray(layer.route?.path) ? layer.route.path : [layer.route?.path ?? ''];
  const keys: string[] = [];
  for (const path of paths) {
    const key = routeKey(path);
    if (key === undefined) return undefined;
    keys.push(key);
  }
  return keys;
}

/**
 * Express tries a request's path against every route in turn, one regular expression each, until one
 * matches: about 150 for a late route of the gateway. This groups the routes (the longest run of route
 * layers in the app's router, where Nest put its controllers) by the first two segments of their
 * paths, and puts one layer in their place that hands a request to a router holding only the routes
 * that can match its path: those of its first two segments and those whose first segments are not
 * literal, in their order. Each route still matches the path with its own pattern, and the routers are
 * Express's own, so a request is answered by the same route, with the same parameters, as before;
 * OPTIONS requests see every route (their automatic answer lists all the methods of the path).
 */
export function dispatchRoutes(app: Express): void {
  const router = (app as unknown as { router: RouterLike }).router;
  const stack = router.stack;
  let start = 0;
  let end = 0;
  for (let i = 0; i < stack.length;) {
    if (!stack[i]?.route) {
      i++;
      continue;
    }
    let j = i;
    while (j < stack.length && stack[j]?.route) j++;
    if (j - i > end - start) [start, end] = [i, j];
    i = j;
  }
  if (end - start < 2) return;
  const block = stack.slice(start, end);
  const keys = block.map(keysOf);
  const routerOf = (layers: RouterLayer[]) => {
    const sub = express.Router();
    const parts = sub as unknown as RouterLike;
    parts.stack = layers;
    parts.params = router.params;
    return sub;
  };
  const byKey = new Map<string, express.Router>();
  for (const key of new Set(keys.flatMap((k) => k ?? []))) {
    byKey.set(key, routerOf(block.filter((_layer, i) => keys[i] === undefined || keys[i]?.includes(key))));
  }
  const others = routerOf(block.filter((_layer, i) => keys[i] === undefined));
  const all = routerOf(block);
  const holder = express.Router();
  holder.use(function dispatch(req: Request, res: Response, next: NextFunction): void {
    const routes = req.method === 'OPTIONS' ? all : (byKey.get(pathKey(req.path)) ?? others);
    void routes(req, res, next);
  });
  const dispatcher = (holder as unknown as RouterLike).stack[0];
  if (!dispatcher) return;
  stack.splice(start, end - start, dispatcher);
  (app as unknown as { [DISPATCHED]?: RouterLayer[] })[DISPATCHED] = block;
}

/** The app's route layers, in order, wherever they are (in its router, or behind the dispatch). */
export function routeLayers(app: Express): RouterLayer[] {
  const router = (app as unknown as { router?: RouterLike }).router;
  const stack = router?.stack ?? [];
  const dispatched = (app as unknown as { [DISPATCHED]?: RouterLayer[] })[DISPATCHED] ?? [];
  // Where the dispatch layer stands, its routes stood; other routes (added later) are in the router itself.
  return [...dispatched, ...stack.filter((layer) => layer.route)];
}
