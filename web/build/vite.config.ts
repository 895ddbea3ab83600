// Builds the console into web/dist, served by the gateway at /console/. JSX is compiled by Vite's
// own oxc transform with Preact's automatic runtime, so no framework plugin is needed.
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { firstLoadBudget } from './first-load-budget.js';

export default defineConfig({
  root: resolve(import.meta.dirname, '..'),
  base: '/console/',
  publicDir: false,
  plugins: [firstLoadBudget()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // Everything the page needs is in the bundle: no CDN, no web fonts, works air-gapped.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    chunkSizeWarningLimit: 400,
  },
});
