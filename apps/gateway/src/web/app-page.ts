import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

/**
 * One route of the web app and the files its page needs beyond the entry, as the web build writes
 * them to dist/route-preloads.json (apps/web/route-preloads.ts, generated from the router).
 */
export interface RoutePreload {
  route: string;
  scripts: string[];
  styles: string[];
}

/** react-router's ranking of a pattern: static segments before `:params`, a splat last. */
function rank(route: string): number {
  return route
    .split('/')
    .filter(Boolean)
    .reduce((score, segment) => score + (segment === '*' ? -2 : segment.startsWith(':') ? 3 : 10), 0);
}

const segments = (path: string): string[] => path.split('/').filter(Boolean);

/** Whether a react-router pattern matches this path (a trailing slash or none, any letter case, as the router). */
export function routeMatches(route: string, path: string): boolean {
  const want = segments(route);
  const have = segments(path);
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    if (segment === '*' && i === want.length - 1) return true;
    const actual = have[i];
    if (actual === undefined) return false;
    if (segment.startsWith(':')) continue;
    if (segment.toLowerCase() !== actual.toLowerCase()) return false;
  }
  return have.length === want.length;
}

/** The best-ranked route of the table this path opens, as the router would choose it; none for an unknown path. */
export function preloadFor(table: readonly RoutePreload[], path: string): RoutePreload | undefined {
  let best: RoutePreload | undefined;
  for (const entry of table) {
    if (routeMatches(entry.route, path) && (best === undefined || rank(entry.route) > rank(best.route))) best = entry;
  }
  return best;
}

/**
 * The links that fetch a route's files with the entry. The scripts at low priority: the stylesheet
 * (all the first paint waits for) and the entry come first; the route's chunks are needed only once
 * the app has booted (Base64 encode's first paint went from 2.6 to 1.9 s under Lighthouse's slow 4G).
 */
export function preloadLinks(entry: RoutePreload): string {
  const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return [
    ...entry.scripts.map((href) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="${attr(href)}">`),
    ...entry.styles.map((href) => `<link rel="preload" as="style" crossorigin href="${attr(href)}">`),
  ].join('\n    ');
}

export type Encoding = 'br' | 'gzip' | 'identity';

/** Pages under this size are sent as they are (as the build leaves files under 1 KiB uncompressed). */
const COMPRESS_FROM = 1024;

/**
 * The app page (index.html) for a route: with the route's preload links in its head, in the encoding
 * asked for, each variant made once and kept (one per route of the table, and one without links).
 * index.html and the table are read on first use, so a gateway started before the build serves them
 * once they exist.
 */
export class AppPage {
  private html: string | undefined;
  private table: RoutePreload[] = [];
  private readonly variants = new Map<string, Buffer>();

  constructor(private readonly root: string) {}

  get available(): boolean {
    return this.load();
  }

  private load(): boolean {
    if (this.html !== undefined) return true;
    const index = resolve(this.root, 'index.html');
    if (!existsSync(index)) return false;
    const tableFile = resolve(this.root, 'route-preloads.json');
    this.table = existsSync(tableFile) ? (JSON.parse(readFileSync(tableFile, 'utf8')) as RoutePreload[]) : [];
    this.html = readFileSync(index, 'utf8');
    return true;
  }

  /** The page's bytes for this path in `encoding` (identity when the page is too small to gain), and the encoding used. */
  render(path: string, encoding: Encoding): { body: Buffer; encoding: Encoding } {
    if (!this.load()) throw new Error('the web app is not built');
    const entry = preloadFor(this.table, path);
    const plain = this.variant(entry?.route ?? '', 'identity', () => {
      const html = this.html!;
      if (!entry) return Buffer.from(html);
      const at = html.indexOf('</head>');
      return Buffer.from(at < 0 ? html : `${html.slice(0, at)}  ${preloadLinks(entry)}\n  ${html.slice(at)}`);
    });
    if (encoding === 'identity' || plain.length < COMPRESS_FROM) return { body: plain, encoding: 'identity' };
    const body = this.variant(entry?.route ?? '', encoding, () =>
      encoding === 'br'
        ? brotliCompressSync(plain, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
          })
        : gzipSync(plain, { level: 9 }),
    );
    return { body, encoding };
  }

  private variant(route: string, encoding: Encoding, make: () => Buffer): Buffer {
    const key = `${encoding} ${route}`;
    let body = this.variants.get(key);
    if (!body) {
      body = make();
      this.variants.set(key, body);
    }
    return body;
  }
}
