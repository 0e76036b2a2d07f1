import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// The SPA is built into apps/web/dist, which the gateway serves for every non-/v1 path.
export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, target: 'es2022' },
  server: { port: 5173, proxy: { '/v1': 'http://localhost:8080' } },
  preview: { port: 4173 },
});
