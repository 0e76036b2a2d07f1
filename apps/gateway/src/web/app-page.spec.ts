import { describe, expect, it } from '@jest/globals';
import { preloadFor, preloadLinks, routeMatches, type RoutePreload } from './app-page.js';
import { pageEncoding } from './spa.js';

const entry = (route: string): RoutePreload => ({ route, scripts: [`/assets/${route.replace(/\W+/g, '_')}.js`], styles: [] });

// In the order of the router (apps/web/src/app/App.tsx): the catch-all account route before the order's.
const TABLE = ['/', '/login', '/login/oauth/:provider', '/account', '/account/*', '/account/orders/:orderId', '/s/:slug', '/tools/'].map(
  entry,
);

describe('route preloads: which route a path opens', () => {
  it('matches static segments, :params and a trailing splat as react-router does, with or without the trailing slash', () => {
    expect(routeMatches('/tools/', '/tools')).toBe(true);
    expect(routeMatches('/tools/', '/tools/')).toBe(true);
    expect(routeMatches('/s/:slug', '/s/bakery')).toBe(true);
    expect(routeMatches('/s/:slug', '/s/')).toBe(false);
    expect(routeMatches('/s/:slug', '/s/bakery/more')).toBe(false);
    expect(routeMatches('/account/*', '/account')).toBe(true);
    expect(routeMatches('/account/*', '/account/security/keys')).toBe(true);
    expect(routeMatches('/Login', '/login')).toBe(true);
    expect(routeMatches('/', '/anything')).toBe(false);
  });

  it('prefers the better-ranked route: static segments before params, a splat last', () => {
    expect(preloadFor(TABLE, '/account/orders/42')?.route).toBe('/account/orders/:orderId');
    expect(preloadFor(TABLE, '/account/security')?.route).toBe('/account/*');
    expect(preloadFor(TABLE, '/account')?.route).toBe('/account');
    expect(preloadFor(TABLE, '/')?.route).toBe('/');
    expect(preloadFor(TABLE, '/login/oauth/google')?.route).toBe('/login/oauth/:provider');
  });

  it('has none for a path no route opens', () => {
    expect(preloadFor(TABLE, '/no-such-page')).toBeUndefined();
    expect(preloadFor(TABLE, '/tools/no-such-tool/')).toBeUndefined();
    expect(preloadFor([], '/')).toBeUndefined();
  });

  it('writes modulepreload links for scripts (low priority: after the entry and the stylesheet) and preload links for stylesheets', () => {
    expect(preloadLinks({ route: '/x', scripts: ['/assets/a.js'], styles: ['/assets/a.css'] })).toBe(
      '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/a.js">\n    <link rel="preload" as="style" crossorigin href="/assets/a.css">',
    );
  });
});

describe('the app page encoding', () => {
  it('is brotli when accepted, else gzip, else none; q=0 refuses one', () => {
    expect(pageEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pageEncoding('gzip, deflate')).toBe('gzip');
    expect(pageEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pageEncoding('*')).toBe('br');
    expect(pageEncoding('identity')).toBe('identity');
    expect(pageEncoding('')).toBe('identity');
    expect(pageEncoding(undefined)).toBe('identity');
  });
});
