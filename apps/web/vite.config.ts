import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const root = fileURLToPath(new URL('.', import.meta.url));

// The SPA is built into apps/web/dist, which the gateway serves for every non-/v1 path.
export default defineConfig({
  root,
  base: '/',
  plugins: [
    react(),
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
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,wasm,txt}'],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
  ],
  // Pure tool functions live in libs/tools (shared with tests and benchmarks); the web build takes their source.
  resolve: {
    alias: [
      { find: /^@tinkerdesk\/tools$/, replacement: fileURLToPath(new URL('../../libs/tools/src/index.ts', import.meta.url)) },
      { find: /^@tinkerdesk\/tools\/(.+)$/, replacement: `${fileURLToPath(new URL('../../libs/tools/src/', import.meta.url))}$1.ts` },
    ],
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, target: 'es2022' },
  server: { port: 5173, proxy: { '/v1': 'http://localhost:8080' } },
  preview: { port: 4173 },
});
