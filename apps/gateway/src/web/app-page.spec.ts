import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppPage, pageFor, preloadFor, routeFilesScript, routeMatches, SHELL_MARK, type RoutePreload } from './app-page.js';
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

  it("lists the route's files as JSON that is never run and cannot end its element", () => {
    expect(routeFilesScript({ route: '/x', scripts: ['/assets/a.js'], styles: ['/assets/a.css'] })).toBe(
      '<script type="application/json" id="route-files">{"scripts":["/assets/a.js"],"styles":["/assets/a.css"]}</script>',
    );
    const hostile = routeFilesScript({ route: '/x', scripts: ['/assets/</script><script>alert(1)</script>.js'], styles: [] });
    expect(hostile).not.toContain('</script><script>');
    expect(JSON.parse(/>(.*)<\/script>$/.exec(hostile)![1]!)).toEqual({
      scripts: ['/assets/</script><script>alert(1)</script>.js'],
      styles: [],
    });
  });
});

describe('the app page of a route', () => {
  const html = `<html><head><title>T</title></head><body><div id="root"><header>bar</header>${SHELL_MARK}</div></body></html>`;

  it("holds the route's files before </head> and its static shell at the mark", () => {
    const page = pageFor(html, { route: '/', scripts: ['/assets/home.js'], styles: [], shell: '<main id="main">Home $& $1</main>' });
    expect(page).toBe(
      '<html><head><title>T</title>  <script type="application/json" id="route-files">{"scripts":["/assets/home.js"],"styles":[]}</script>\n  </head>' +
        '<body><div id="root"><header>bar</header><main id="main">Home $& $1</main></div></body></html>',
    );
  });

  it('gives a page with a shell its stylesheets in the head (the shell is painted with them), not in the list', () => {
    const page = pageFor(html, {
      route: '/tools/',
      scripts: ['/assets/t.js'],
      styles: ['/assets/kit.css'],
      shell: '<main id="main">Tools</main>',
    });
    expect(page).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/kit.css">\n    <script type="application/json" id="route-files">{"scripts":["/assets/t.js"],"styles":[]}</script>\n  </head>',
    );
    expect(pageFor(html, { route: '/x', scripts: [], styles: ['/assets/x.css'] })).toContain('{"scripts":[],"styles":["/assets/x.css"]}');
  });

  it('is index.html as built for a route without files or shell, and for a path no route opens', () => {
    expect(pageFor(html, { route: '/login', scripts: [], styles: [] })).toBe(html);
    expect(pageFor(html, undefined)).toBe(html);
  });
});

describe('an address with a query', () => {
  const html = `<html><head><title>T</title></head><body><div id="root">${SHELL_MARK}</div></body></html>`;
  const root = mkdtempSync(join(tmpdir(), 'app-page-'));
  writeFileSync(join(root, 'index.html'), html);
  const table: RoutePreload[] = [
    {
      route: '/tools/displaybarcode/',
      scripts: [],
      styles: [],
      shell: '<main>form at its defaults</main>',
      shellWithQuery: '<main>header</main>',
    },
    { route: '/tools/', scripts: [], styles: [], shell: '<main>all tools</main>' },
  ];
  writeFileSync(join(root, 'route-preloads.json'), JSON.stringify(table));
  const page = new AppPage(root);
  const text = (path: string, withQuery: boolean) => page.render(path, 'identity', withQuery).body.toString();

  it("gets the route's shell for a query (a form at its defaults would paint settings the query changes)", () => {
    expect(text('/tools/displaybarcode/', true)).toContain('<main>header</main>');
    expect(text('/tools/displaybarcode/', false)).toContain('<main>form at its defaults</main>');
    // Each variant is kept apart: asking again in the other order answers the same.
    expect(text('/tools/displaybarcode/', true)).not.toContain('form at its defaults');
  });

  it('gets the one shell of a route that has no other', () => {
    expect(text('/tools/', true)).toContain('<main>all tools</main>');
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
