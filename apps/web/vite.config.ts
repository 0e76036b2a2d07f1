import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

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

// The SPA is built into apps/web/dist, which the gateway serves for every non-/v1 path.
export default defineConfig({
  root,
  base: '/',
  plugins: [
    react(),
    pdfjsAssets(),
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
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
  ],
  // Pure tool functions live in libs/tools (shared with tests and benchmarks); the web build takes their source.
  resolve: {
    alias: [
      { find: /^@tinkerdesk\/tools$/, replacement: fileURLToPath(new URL('../../libs/tools/src/index.ts', import.meta.url)) },
      // The one module of the contracts the browser uses (no decorators, no Nest): time zone names.
      {
        find: /^@tinkerdesk\/contracts\/time-zones$/,
        replacement: fileURLToPath(new URL('../../libs/contracts/src/time-zones.ts', import.meta.url)),
      },
      { find: /^@tinkerdesk\/tools\/(.+)$/, replacement: `${fileURLToPath(new URL('../../libs/tools/src/', import.meta.url))}$1.ts` },
    ],
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, target: 'es2022' },
  server: { port: 5173, proxy: { '/v1': 'http://localhost:8080' } },
  preview: { port: 4173 },
});
