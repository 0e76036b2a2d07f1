import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ROOT, TestPlatform } from '@tinkerdesk/testing';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';

// How the gateway delivers the built web app (apps/gateway/src/web/spa.ts): the precompressed copy the
// browser accepts, 404 for missing files, index.html for routes. First against a small dist of our
// own, then against the real build (`npm run build` runs before the integration tests).

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A raw HTTP request: no automatic decompression, so the bytes on the wire are what the test sees. */
function get(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const header = (a: Answer, name: string): string => String(a.headers[name] ?? '');
const BROWSER = 'gzip, deflate, br, zstd'; // what Chromium sends

// A script large enough to be worth compressing, and not a repetition a compressor makes trivial.
const SCRIPT = Buffer.from(
  Array.from({ length: 400 }, (_, i) => `export const value${i} = ${(i * 7919) % 1013} + ${JSON.stringify(`line ${i}`)};`).join('\n'),
);
const STYLE = Buffer.from(
  Array.from(
    { length: 200 },
    (_, i) => `.rule-${i} { margin: ${i % 17}px; color: #${(i * 4099).toString(16).padStart(6, '0').slice(0, 6)}; }`,
  ).join('\n'),
);
const PICTURE = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const INDEX = '<!doctype html><title>Tinkerdesk delivery test</title><div id="root"></div>';

describe('web app delivery (a dist of the test own)', () => {
  let platform: TestPlatform;
  let dist: string;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'tinkerdesk-delivery-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'serviceworker.js'), 'self.addEventListener("fetch", () => {});');
    writeFileSync(join(dist, 'assets/app-3f9a1c.js'), SCRIPT);
    writeFileSync(join(dist, 'assets/app-3f9a1c.js.br'), brotliCompressSync(SCRIPT));
    writeFileSync(join(dist, 'assets/app-3f9a1c.js.gz'), gzipSync(SCRIPT));
    writeFileSync(join(dist, 'assets/style-8d2e.css'), STYLE);
    writeFileSync(join(dist, 'assets/style-8d2e.css.br'), brotliCompressSync(STYLE));
    writeFileSync(join(dist, 'assets/style-8d2e.css.gz'), gzipSync(STYLE));
    writeFileSync(join(dist, 'assets/picture-77aa.png'), PICTURE);
    platform = await TestPlatform.start(['gateway'], { WEB_DIST: dist });
  }, 90_000);

  afterAll(async () => {
    await platform?.close();
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  it('sends the brotli copy when the browser accepts br, with the original type and caching', async () => {
    const a = await get(platform.url, '/assets/app-3f9a1c.js', { 'accept-encoding': BROWSER });
    expect(a.status).toBe(200);
    expect(header(a, 'content-encoding')).toBe('br');
    expect(header(a, 'vary').toLowerCase()).toContain('accept-encoding');
    expect(header(a, 'content-type').toLowerCase()).toBe('text/javascript; charset=utf-8');
    expect(header(a, 'cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Number(header(a, 'content-length'))).toBe(a.body.length);
    expect(a.body.length).toBeLessThan(SCRIPT.length / 2);
    expect(brotliDecompressSync(a.body).equals(SCRIPT)).toBe(true);
  });

  it('sends the gzip copy when only gzip is accepted, or br is refused (q=0)', async () => {
    for (const accept of ['gzip', 'gzip, deflate', 'br;q=0, gzip']) {
      const a = await get(platform.url, '/assets/app-3f9a1c.js', { 'accept-encoding': accept });
      expect(a.status).toBe(200);
      expect(header(a, 'content-encoding')).toBe('gzip');
      expect(header(a, 'vary').toLowerCase()).toContain('accept-encoding');
      expect(header(a, 'content-type').toLowerCase()).toBe('text/javascript; charset=utf-8');
      expect(gunzipSync(a.body).equals(SCRIPT)).toBe(true);
    }
  });

  it('sends the file as it is when neither is accepted, still with Vary', async () => {
    const cases: Array<Record<string, string>> = [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'deflate' }];
    for (const headers of cases) {
      const a = await get(platform.url, '/assets/app-3f9a1c.js', headers);
      expect(a.status).toBe(200);
      expect(a.headers['content-encoding']).toBeUndefined();
      expect(header(a, 'vary').toLowerCase()).toContain('accept-encoding');
      expect(header(a, 'content-type').toLowerCase()).toBe('text/javascript; charset=utf-8');
      expect(a.body.equals(SCRIPT)).toBe(true);
    }
  });

  it('gives a stylesheet its own type in every encoding', async () => {
    for (const [accept, encoding] of [
      [BROWSER, 'br'],
      ['gzip', 'gzip'],
      ['', undefined],
    ] as const) {
      const a = await get(platform.url, '/assets/style-8d2e.css', { 'accept-encoding': accept });
      expect(a.status).toBe(200);
      expect(a.headers['content-encoding']).toBe(encoding);
      expect(header(a, 'content-type').toLowerCase()).toBe('text/css; charset=utf-8');
    }
  });

  it('answers HEAD with the headers of the copy it would send, and no body', async () => {
    const brotli = readFileSync(join(dist, 'assets/app-3f9a1c.js.br'));
    const a = await get(platform.url, '/assets/app-3f9a1c.js', { 'accept-encoding': BROWSER }, 'HEAD');
    expect(a.status).toBe(200);
    expect(header(a, 'content-encoding')).toBe('br');
    expect(Number(header(a, 'content-length'))).toBe(brotli.length);
    expect(a.body.length).toBe(0);
    const plain = await get(platform.url, '/assets/app-3f9a1c.js', {}, 'HEAD');
    expect(Number(header(plain, 'content-length'))).toBe(SCRIPT.length);
  });

  it('serves byte ranges of the representation it sends', async () => {
    const plain = await get(platform.url, '/assets/app-3f9a1c.js', { range: 'bytes=10-29' });
    expect(plain.status).toBe(206);
    expect(header(plain, 'content-range')).toBe(`bytes 10-29/${SCRIPT.length}`);
    expect(plain.body.equals(SCRIPT.subarray(10, 30))).toBe(true);

    const brotli = readFileSync(join(dist, 'assets/app-3f9a1c.js.br'));
    const encoded = await get(platform.url, '/assets/app-3f9a1c.js', { range: 'bytes=0-9', 'accept-encoding': 'br' });
    expect(encoded.status).toBe(206);
    expect(header(encoded, 'content-encoding')).toBe('br');
    expect(header(encoded, 'content-range')).toBe(`bytes 0-9/${brotli.length}`);
    expect(encoded.body.equals(brotli.subarray(0, 10))).toBe(true);
  });

  it('leaves files without compressed copies (pictures) as they are', async () => {
    const a = await get(platform.url, '/assets/picture-77aa.png', { 'accept-encoding': BROWSER });
    expect(a.status).toBe(200);
    expect(a.headers['content-encoding']).toBeUndefined();
    expect(header(a, 'content-type')).toBe('image/png');
    expect(a.body.equals(PICTURE)).toBe(true);
  });

  it('answers a missing file with 404 in the error envelope, never the app page', async () => {
    for (const path of ['/assets/gone-1234.js', '/assets/gone.css', '/assets/', '/assets/deeper/x', '/favicon.ico', '/tools/picture.png']) {
      const a = await get(platform.url, path, { 'accept-encoding': BROWSER });
      expect([path, a.status]).toEqual([path, 404]);
      expect(header(a, 'content-type')).toContain('application/json');
      expect(JSON.parse(a.body.toString())).toEqual({ success: false, error: 'NOT_FOUND', detail: `no file at ${path}` });
    }
    const head = await get(platform.url, '/assets/gone-1234.js', {}, 'HEAD');
    expect(head.status).toBe(404);
  });

  it('answers every route with the app page (the SPA fallback), not cached', async () => {
    for (const path of [
      '/',
      '/tools/guidgenerator/',
      '/tools/converters/base64/encode/',
      '/login',
      '/account',
      '/account/orders/42',
      '/no-such-page',
    ]) {
      const a = await get(platform.url, path, { 'accept-encoding': BROWSER });
      expect([path, a.status]).toEqual([path, 200]);
      expect(header(a, 'content-type')).toContain('text/html');
      expect(header(a, 'cache-control')).toBe('no-cache');
      expect(a.body.toString()).toBe(INDEX);
    }
    const sw = await get(platform.url, '/serviceworker.js');
    expect(sw.status).toBe(200);
    expect(header(sw, 'cache-control')).toBe('no-cache');
  });

  it('answers a path that is not valid percent-encoding in the envelope, never with an HTML error page', async () => {
    for (const path of ['/tools/%ff%fe', '/assets/%', '/%E0%A4%A']) {
      const a = await get(platform.url, path, { 'accept-encoding': BROWSER });
      expect({ path, status: a.status, type: header(a, 'content-type') }).toEqual({
        path,
        status: 400,
        type: expect.stringContaining('application/json'),
      });
      expect(JSON.parse(a.body.toString())).toEqual({
        success: false,
        error: 'BAD_REQUEST',
        detail: 'the path is not valid percent-encoding',
      });
    }
  });

  it('keeps /v1 out of it: an unknown API path is a JSON 404', async () => {
    const a = await get(platform.url, '/v1/no-such-thing.js');
    expect(a.status).toBe(404);
    expect(JSON.parse(a.body.toString())).toMatchObject({ success: false, error: 'NOT_FOUND' });
  });
});

describe('web app delivery (the real build)', () => {
  const dist = join(ROOT, 'apps/web/dist');
  let platform: TestPlatform;

  function files(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    });
  }

  beforeAll(async () => {
    if (!existsSync(join(dist, 'index.html'))) throw new Error(`${dist} is not built: run npm run build first`);
    platform = await TestPlatform.start(['gateway'], { WEB_DIST: dist });
  }, 90_000);

  afterAll(async () => {
    await platform?.close();
  });

  it('has brotli and gzip copies of every script and stylesheet of 1 KiB or more, and none of pictures', () => {
    // dist/shells/ holds the gateway's own renderers of a shop's and an account's first paint, never sent to a browser (below).
    const all = files(dist).filter((f) => !f.startsWith(join(dist, 'shells')));
    const present = new Set(all);
    const wanted = all.filter((f) => /\.(m?js|css)$/.test(f) && statSync(f).size >= 1024);
    expect(wanted.length).toBeGreaterThan(20);
    expect(wanted.filter((f) => !present.has(`${f}.br`) || !present.has(`${f}.gz`))).toEqual([]);
    expect(all.filter((f) => /\.(png|jpe?g|webp|woff2)\.(br|gz)$/.test(f))).toEqual([]);
  });

  it('never sends the renderers of dist/shells/ (the gateway runs them; they are not files of the site)', async () => {
    for (const file of ['shop.mjs', 'account.mjs']) {
      expect(existsSync(join(dist, 'shells', file))).toBe(true);
      const a = await get(platform.url, `/shells/${file}`, { 'accept-encoding': BROWSER });
      expect([file, a.status]).toEqual([file, 404]);
      expect(a.body.toString()).not.toContain('import');
    }
  });

  it('sends the entry script and stylesheet of index.html as brotli that decodes to the built file', async () => {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const script = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1] ?? 'no entry script in index.html';
    const style = /<link rel="stylesheet" crossorigin href="([^"]+)"/.exec(html)?.[1] ?? 'no stylesheet in index.html';
    expect(script).toMatch(/^\/assets\/index-.+\.js$/);
    expect(style).toMatch(/^\/assets\/index-.+\.css$/);
    for (const [path, type] of [
      [script, 'text/javascript'],
      [style, 'text/css'],
    ] as const) {
      const a = await get(platform.url, path, { 'accept-encoding': BROWSER });
      expect(a.status).toBe(200);
      expect(header(a, 'content-encoding')).toBe('br');
      expect(header(a, 'content-type').toLowerCase()).toBe(`${type}; charset=utf-8`);
      expect(brotliDecompressSync(a.body).equals(readFileSync(join(dist, path)))).toBe(true);
    }
  });

  it("lists the boot's files in index.html for the entry: React's chunk and the boot chunk, none of the entry's own", () => {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const entry = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1] ?? 'no entry script in index.html';
    const list = /<script type="application\/json" id="boot-files">(.*?)<\/script>/.exec(html)?.[1];
    const files = JSON.parse(list ?? 'null') as string[];
    expect(Array.isArray(files)).toBe(true);
    const sources = (file: string) =>
      existsSync(join(dist, `${file}.map`))
        ? (JSON.parse(readFileSync(join(dist, `${file}.map`), 'utf8')) as { sources: string[] }).sources
        : [];
    for (const file of files) {
      expect(file).toMatch(/^\/assets\/.+\.js$/);
      expect(existsSync(join(dist, file))).toBe(true);
    }
    expect(files).not.toContain(entry);
    // react-dom in the chunk the entry evaluates first (src/react-stage.ts), then the boot chunk (src/boot.tsx).
    expect(files.filter((f) => sources(f).some((s) => s.endsWith('react-dom/cjs/react-dom-client.production.js')))).toHaveLength(1);
    expect(files.filter((f) => sources(f).some((s) => s.endsWith('src/boot.tsx')))).toHaveLength(1);
    // react-router from its production build (vite.config.ts aliases it: the package's exports name only the development one).
    const routerSources = files.flatMap(sources).filter((s) => s.includes('node_modules/react-router/'));
    expect(routerSources.length).toBeGreaterThan(0);
    expect(routerSources.filter((s) => !s.includes('react-router/dist/production/'))).toEqual([]);
    // The entry imports none of them itself: nothing but the entry and the stylesheet is fetched before the first paint.
    const entryCode = readFileSync(join(dist, entry), 'utf8');
    expect(entryCode).not.toMatch(/^import|[;}]import[{ "]/m);
    expect(entryCode).not.toMatch(/\bfrom"/);
  });

  /** The route's files the gateway lists in the page for the entry to preload (none: an empty list). */
  const routeScripts = (html: string): string[] => {
    const list = /<script type="application\/json" id="route-files">(.*?)<\/script>/.exec(html)?.[1];
    return list ? (JSON.parse(list) as { scripts: string[] }).scripts : [];
  };
  /** The page without what the gateway adds (after the entry's script in the head, and the shell): index.html as built. */
  const bare = (html: string): string =>
    html
      .replace(/(<script type="module"[^>]*><\/script>)[\s\S]*?(\s*<\/head>)/, '$1$2')
      .replace(/<main id="main"[\s\S]*<\/main>/, '<!--page-shell-->');

  it("opens a tool's route with its page chunk listed and its static shell, in the page sent as brotli (gzip, none) with Vary", async () => {
    const built = readFileSync(join(dist, 'index.html'), 'utf8');
    expect(built).not.toContain('rel="modulepreload"');
    const a = await get(platform.url, '/tools/converters/base64/encode/', { 'accept-encoding': BROWSER });
    expect(a.status).toBe(200);
    expect(header(a, 'content-encoding')).toBe('br');
    expect(header(a, 'vary').toLowerCase()).toContain('accept-encoding');
    expect(header(a, 'content-type')).toContain('text/html');
    expect(header(a, 'cache-control')).toBe('no-cache');
    const html = brotliDecompressSync(a.body).toString();
    const listed = routeScripts(html);
    // The chunk whose source map names the Base64 encoder's page is one of them.
    const pageChunk = listed.find((href) =>
      (JSON.parse(readFileSync(join(dist, `${href}.map`), 'utf8')) as { sources: string[] }).sources.some((s) =>
        s.endsWith('tools/base64-encode/page.tsx'),
      ),
    );
    expect(pageChunk).toMatch(/^\/assets\/.+\.js$/);
    for (const href of listed) expect(existsSync(join(dist, href))).toBe(true);
    // The tool's header, rendered by the build with the app's components, is in #root before any script runs.
    expect(html).toMatch(/<main id="main" tabindex="-1"><article class="page page-wide tool-page">[\s\S]*<h1>Base64 encode<\/h1>/);
    // Otherwise the app page is index.html as built.
    expect(bare(html)).toBe(built);

    const gzip = await get(platform.url, '/tools/converters/base64/encode/', { 'accept-encoding': 'gzip' });
    expect(header(gzip, 'content-encoding')).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(html);
    const plain = await get(platform.url, '/tools/converters/base64/encode/', { 'accept-encoding': 'identity' });
    expect(header(plain, 'content-encoding')).toBe('');
    expect(header(plain, 'vary').toLowerCase()).toContain('accept-encoding');
    expect(plain.body.toString()).toBe(html);
    expect(a.body.length).toBeLessThan(plain.body.length / 2);
  });

  it("lists the tools' kit as one chunk with a tool's page, and not with /tools/ or /", async () => {
    const sourcesOf = (href: string) =>
      (JSON.parse(readFileSync(join(dist, `${href}.map`), 'utf8')) as { sources: string[] }).sources.filter(
        (s) => !s.includes('node_modules'),
      );
    const listedOn = async (path: string) =>
      routeScripts((await get(platform.url, path, { 'accept-encoding': 'identity' })).body.toString());
    const barcode = await listedOn('/tools/displaybarcode/');
    // shared/ui's modules the barcode creator uses, each once, in a single listed chunk (vite.config.ts, toolKit).
    const kitModules = [
      'shared/ui/actions.tsx',
      'shared/ui/ToolAbout.tsx',
      'shared/ui/TextPane.tsx',
      'shared/ui/url-settings.ts',
      'shared/my-files.ts',
    ];
    const holders = kitModules.map((m) => barcode.filter((href) => sourcesOf(href).some((s) => s.endsWith(m))));
    for (const held of holders) expect(held).toHaveLength(1);
    expect(new Set(holders.flat()).size).toBe(1);
    // The barcode creator loaded 17 files before the kit was one chunk.
    expect(barcode.length).toBeLessThanOrEqual(8);
    const kit = holders[0]![0]!;
    expect(await listedOn('/tools/')).not.toContain(kit);
    expect(await listedOn('/')).not.toContain(kit);
  });

  it('answers a repeated request with 304 by its ETag, and HEAD with the headers only', async () => {
    const first = await get(platform.url, '/tools/', { 'accept-encoding': BROWSER });
    const etag = header(first, 'etag');
    expect(etag).not.toBe('');
    const again = await get(platform.url, '/tools/', { 'accept-encoding': BROWSER, 'if-none-match': etag });
    expect(again.status).toBe(304);
    const head = await get(platform.url, '/tools/', { 'accept-encoding': BROWSER }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(header(head, 'content-length')).toBe(header(first, 'content-length'));
  });

  it('lists no files and writes no shell for a path no route opens (the app shows its 404 page)', async () => {
    const built = readFileSync(join(dist, 'index.html'), 'utf8');
    for (const path of ['/no-such-page', '/tools/no-such-tool/']) {
      const a = await get(platform.url, path, { 'accept-encoding': BROWSER });
      expect([path, a.status]).toEqual([path, 200]);
      expect(brotliDecompressSync(a.body).toString()).toBe(built);
    }
  });

  it('lets the browser keep /logo.svg, which the page shows several times, for a day', async () => {
    const a = await get(platform.url, '/logo.svg');
    expect(a.status).toBe(200);
    expect(header(a, 'cache-control')).toBe('public, max-age=86400');
  });

  it('keeps the compressed copies out of the service worker precache list', () => {
    const sw = readFileSync(join(dist, 'serviceworker.js'), 'utf8');
    expect(sw).toContain('"url":"index.html"');
    expect(sw).not.toMatch(/"url":"[^"]*\.(br|gz)"/);
  });
});
