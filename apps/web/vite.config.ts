import react from '@vitejs/plugin-react';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { ChunkingContext } from 'rolldown';
import { defineConfig, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { routePreloads } from './route-preloads';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * pdf.js loads character maps, the standard 14 fonts, its image decoders (WebAssembly) and colour
 * profiles by URL at run time; they are copied into the build under /pdfjs/ (served by the site,
 * precached for offline use) instead of being fetched from a CDN.
 */
function pdfjsAssets(): Plugin {
  const base = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  return {
    name: 'tinkerdesk-pdfjs-assets',
    apply: 'build',
    generateBundle() {
      for (const folder of ['cmaps', 'standard_fonts', 'wasm', 'iccs']) {
        for (const file of readdirSync(join(base, folder))) {
          this.emitFile({ type: 'asset', fileName: `pdfjs/${folder}/${file}`, source: readFileSync(join(base, folder, file)) });
        }
      }
    },
  };
}

/**
 * The code-splitting group of the boot: every script module that boot.tsx imports statically (what the
 * app needs to show any page: the router, the session, the layout, the tool registry) in one chunk,
 * `boot`, rather than in the dozen small chunks the modules' sharing with the pages would make (each a
 * request and a preload of its own on the first visit). The entry's own modules stay in the entry.
 */
function bootGroup(bootFile: string, entryFile: string) {
  let members: Set<string> | undefined;
  const closure = (start: string, ctx: ChunkingContext, into: Set<string>) => {
    if (into.has(start)) return into;
    into.add(start);
    for (const id of ctx.getModuleInfo(start)?.importedIds ?? []) closure(id, ctx, into);
    return into;
  };
  return (id: string, ctx: ChunkingContext): string | null => {
    if (!members) {
      const entry = closure(entryFile, ctx, new Set());
      members = new Set([...closure(bootFile, ctx, new Set())].filter((m) => !entry.has(m)));
    }
    return members.has(id) && /\.(m?js|tsx?)$/.test(id) ? 'boot' : null;
  };
}

/** The code-splitting group of the tools' kit (see its use below). */
function toolKit(id: string): string | null {
  if (/[\\/]src[\\/]shared[\\/]my-files\.ts$/.test(id)) return 'tool-kit'; // its Save to My files button's
  const kit = /[\\/]src[\\/]shared[\\/]ui[\\/]([^/\\]+)\.tsx?$/.exec(id)?.[1];
  return kit && !/^(history|HistoryPanel|read-text-file|ConverterInput|svg-raster|canvas-limits)$/.test(kit) ? 'tool-kit' : null;
}

const BROTLI = { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } };

/**
 * /serviceworker.js is built by vite-plugin-pwa after the app's bundle, so after the compression
 * plugin has run: its brotli and gzip copies are made here, once it is written.
 */
function compressServiceWorker(): Plugin {
  return {
    name: 'tinkerdesk-compress-service-worker',
    apply: 'build',
    closeBundle: {
      sequential: true,
      order: 'post',
      handler() {
        const file = join(root, 'dist', 'serviceworker.js');
        if (!existsSync(file)) return;
        const source = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(source, BROTLI));
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
      },
    },
  };
}

/** Aliases of react-router's two entries to the files of its production build. */
function reactRouterProduction(): Array<{ find: RegExp; replacement: string }> {
  const dist = join(dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production');
  return [
    { find: /^react-router$/, replacement: join(dist, 'index.mjs') },
    { find: /^react-router\/dom$/, replacement: join(dist, 'dom-export.mjs') },
  ];
}

// The SPA is built into apps/web/dist, which the gateway serves for every non-/v1 path.
export default defineConfig(({ mode }) => ({
  root,
  base: '/',
  plugins: [
    react(),
    pdfjsAssets(),
    // dist/route-preloads.json: each route's page chunk, for the gateway's modulepreload links.
    routePreloads(root, fileURLToPath(new URL('../../libs/contracts/src/', import.meta.url))),
    // The service worker (src/sw/serviceworker.ts) is built to /serviceworker.js with the list of every
    // built file injected, so the whole site, each tool's chunk included, works offline after one visit.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'serviceworker.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        rollupFormat: 'iife',
        globPatterns: ['**/*.{js,mjs,css,html,svg,png,woff2,wasm,txt,bcmap,pfb,ttf,icc}'],
        // The gateway's renderers of a shop's and an account's first paint (route-preloads.ts, buildShells), not the browser's.
        globIgnores: ['shells/**', '**/node_modules/**'],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
    // Brotli (.br) and gzip (.gz) copies beside every compressible built file, made once at build
    // time at the highest levels; the gateway (apps/gateway/src/web/spa.ts) sends the one the browser
    // accepts. Scripts, styles, WebAssembly and TrueType shrink to 20-55 % of their size (measured on
    // this build); already-compressed formats (PNG, WOFF2) and pdf.js's .bcmap/.pfb/.icc files, which
    // brotli brings only to 73-92 %, are left alone, as are source maps and files under 1 KiB. The
    // service worker's precache list matches none of the copies (its globPatterns end in the originals'
    // extensions), so it caches each file once and the browser decodes what the network sends.
    compression({
      algorithms: [defineAlgorithm('brotliCompress', BROTLI), defineAlgorithm('gzip', { level: 9 })],
      include: /\.(js|mjs|css|html|svg|json|txt|wasm|ttf)$/,
      threshold: 1024,
      skipIfLargerOrEqual: true,
      deleteOriginalAssets: false,
      logLevel: 'silent',
    }),
    compressServiceWorker(),
  ],
  // Pure tool functions live in libs/tools (shared with tests and benchmarks); the web build takes their source.
  resolve: {
    alias: [
      { find: /^@tinkerdesk\/tools$/, replacement: fileURLToPath(new URL('../../libs/tools/src/index.ts', import.meta.url)) },
      // The browser-safe entries of the contracts (no decorators, no Nest): the server's own types and
      // constants (web), and time zone names (loaded with the account page).
      { find: /^@tinkerdesk\/api-client$/, replacement: fileURLToPath(new URL('../../libs/api-client/src/index.ts', import.meta.url)) },
      { find: /^@tinkerdesk\/contracts\/web$/, replacement: fileURLToPath(new URL('../../libs/contracts/src/web.ts', import.meta.url)) },
      {
        find: /^@tinkerdesk\/contracts\/time-zones$/,
        replacement: fileURLToPath(new URL('../../libs/contracts/src/time-zones.ts', import.meta.url)),
      },
      { find: /^@tinkerdesk\/tools\/(.+)$/, replacement: `${fileURLToPath(new URL('../../libs/tools/src/', import.meta.url))}$1.ts` },
      // react-router's package exports name only its development build (remix-run/react-router#14753); its
      // production build differs in one constant (ENABLE_DEV_WARNINGS, false), whose checks then go.
      ...(mode === 'production' ? reactRouterProduction() : []),
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    // React, react-dom and the scheduler in one chunk, which the entry evaluates in a task of its own
    // before the rest of the boot (src/react-stage.ts, src/main.tsx).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react-runtime', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 10 },
            { name: bootGroup(join(root, 'src/boot.tsx'), join(root, 'src/main.tsx')), priority: 5, includeDependenciesRecursively: false },
            // The tools' kit (shared/ui: actions, file inputs, panes, progress, URL settings, worker tasks;
            // 16 KB, 5 KB brotli) in one chunk: a tool page used to load a dozen of its modules as chunks of
            // their own of a few hundred bytes, each a request and a preload link. Left out: what /tools/
            // and the boot use (the history), and what few tools use and would bring large imports to all
            // (reading a text file: the MIME types; SVG rasterising).
            { name: toolKit, priority: 4, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: { port: 5173, proxy: { '/v1': 'http://localhost:8080' } },
  preview: { port: 4173 },
}));
