import type { Express } from 'express';
import { match, type MatchFunction } from 'path-to-regexp';
import { routeLayers } from './route-dispatch.js';

interface Route {
  matches: MatchFunction<Partial<Record<string, string | string[]>>>[];
  methods: string[];
}

/**
 * The gateway's routes as registered in Express (after Nest has mounted its controllers), to tell a
 * path that exists with other methods (405 with Allow) from one that does not exist (404).
 */
export class RouteTable {
  private routes: Route[] | undefined;

  constructor(private readonly app: Express) {}

  private load(): Route[] {
    const routes: Route[] = [];
    for (const layer of routeLayers(this.app)) {
      if (!layer.route) continue;
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      const methods = Object.keys(layer.route.methods)
        .filter((m) => m !== '_all' && layer.route?.methods[m])
        .map((m) => m.toUpperCase());
      routes.push({ matches: paths.map((p) => match(p, { decode: false })), methods });
    }
    return routes;
  }

  /** The methods `path` answers to (HEAD wherever GET is), sorted; empty when no route has the path. */
  methodsOf(path: string): string[] {
    this.routes ??= this.load();
    const methods = new Set<string>();
    for (const route of this.routes) {
      if (!route.matches.some((m) => m(path) !== false)) continue;
      for (const method of route.methods) methods.add(method);
    }
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }
}
