import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

/**
 * One route of the web app, the files its page needs beyond the entry and, for a page that is the
 * same for every visitor, its static first paint, as the web build writes them to
 * dist/route-preloads.json (apps/web/route-preloads.ts, generated from the router and rendered by
 * apps/web/src/app/page-shells.tsx with the app's components).
 */
export interface RoutePreload {
  route: string;
  scripts: string[];
  styles: string[];
  shell?: string;
  /**
   * The first paint for an address with a query, when the page reads settings from it: the barcode
   * creator's shell holds its form at its defaults, which `?type=ean13` changes, so such an address gets
   * the tool's header alone and no setting is painted that the app then changes.
   */
  shellWithQuery?: string;
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

/** The id of the app page's list of the route's files, which the entry (apps/web/src/main.tsx) reads. */
export const ROUTE_FILES_ID = 'route-files';

/**
 * The route's files as a JSON list in the page (`<script type="application/json">`, never run). The
 * entry preloads them with the boot chunk once the page has painted: fetched before the first paint,
 * they held it back under Lighthouse's simulated slow 4G (a script that has arrived by the first paint
 * counts as one it waited for). `<` is escaped so no file name can end the element.
 */
export function routeFilesScript(entry: RoutePreload): string {
  return jsonScript(ROUTE_FILES_ID, { scripts: entry.scripts, styles: entry.styles });
}

/**
 * A value as JSON in the page (`<script type="application/json">`, never run) for the app to read by
 * its id; `<`, U+2028 and U+2029 escaped, so no text in it can end the element.
 */
export function jsonScript(id: string, value: unknown): string {
  const json = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${id}">${json}</script>`;
}

/** Where index.html (apps/web/index.html) takes the route's static shell: in #root, after the static top bar. */
export const SHELL_MARK = '<!--page-shell-->';

/**
 * index.html for this route: its files' list before `</head>` and its static shell, if any, at the mark.
 * A page with a shell gets its stylesheets as stylesheets (render-blocking), not in the list: the
 * shell is painted before the app loads them, and painted without them it would be laid out otherwise
 * than the app's page (/tools/' "Recently used" panel is styled by the tool kit's stylesheet).
 */
export function pageFor(html: string, entry: RoutePreload | undefined): string {
  if (!entry) return html;
  const shell = entry.shell;
  const listed: RoutePreload = { ...entry, styles: shell ? [] : entry.styles };
  const head = [
    ...(shell ? entry.styles.map((href) => `<link rel="stylesheet" crossorigin href="${attribute(href)}">`) : []),
    ...(listed.scripts.length > 0 || listed.styles.length > 0 ? [routeFilesScript(listed)] : []),
  ];
  let out = html;
  const at = out.indexOf('</head>');
  if (head.length > 0 && at >= 0) out = `${out.slice(0, at)}  ${head.join('\n    ')}\n  ${out.slice(at)}`;
  if (shell) out = out.replace(SHELL_MARK, () => shell);
  return out;
}

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

export type Encoding = 'br' | 'gzip' | 'identity';

/** Pages under this size are sent as they are (as the build leaves files under 1 KiB uncompressed). */
const COMPRESS_FROM = 1024;

/**
 * The app page (index.html) for a route: with the route's files and static shell (pageFor), in the encoding
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

  /**
   * The page's bytes for this path in `encoding` (identity when the page is too small to gain), and the
   * encoding used. `withQuery`: the address has a query (its route's shellWithQuery, if it has one).
   */
  render(path: string, encoding: Encoding, withQuery = false): { body: Buffer; encoding: Encoding } {
    if (!this.load()) throw new Error('the web app is not built');
    const found = preloadFor(this.table, path);
    const queried = withQuery && found?.shellWithQuery !== undefined;
    const entry = found && queried ? { ...found, shell: found.shellWithQuery } : found;
    const key = `${entry?.route ?? ''}${queried ? '?' : ''}`;
    const plain = this.variant(key, 'identity', () => Buffer.from(pageFor(this.html!, entry)));
    if (encoding === 'identity' || plain.length < COMPRESS_FROM) return { body: plain, encoding: 'identity' };
    const body = this.variant(key, encoding, () =>
      encoding === 'br'
        ? brotliCompressSync(plain, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
          })
        : gzipSync(plain, { level: 9 }),
    );
    return { body, encoding };
  }

  /**
   * The page of a path with a shell made for this request (a shop's: shop-page.ts) and more in its
   * head (the shop's answer): made and compressed per request (brotli quality 5, gzip 6: about a
   * millisecond for such a page), never kept.
   */
  renderWith(path: string, encoding: Encoding, shell: string, head: string): { body: Buffer; encoding: Encoding } {
    if (!this.load()) throw new Error('the web app is not built');
    const entry = preloadFor(this.table, path);
    const page = pageFor(this.html!, { route: entry?.route ?? path, scripts: entry?.scripts ?? [], styles: entry?.styles ?? [], shell });
    const at = page.indexOf('</head>');
    const plain = Buffer.from(at < 0 ? page : `${page.slice(0, at)}  ${head}\n  ${page.slice(at)}`);
    if (encoding === 'identity' || plain.length < COMPRESS_FROM) return { body: plain, encoding: 'identity' };
    const body =
      encoding === 'br'
        ? brotliCompressSync(plain, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } })
        : gzipSync(plain, { level: 6 });
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
