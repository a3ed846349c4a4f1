import { defineConfig } from 'astro/config';
import { siteConfig } from './errdex.config.mjs';
import { errdex } from './src/integration.ts';

export default defineConfig({
  output: 'static',
  site: siteConfig.siteUrl,
  base: siteConfig.basePath || '/',
  trailingSlash: 'always',
  // errdex's integration: a render process of `npm run build` is shaped by it, plain `astro build` is stopped.
  integrations: [errdex()],
  build: {
    format: 'directory',
    // Several pages in flight, so that writing one page's files overlaps rendering the next.
    concurrency: 8,
    // External stylesheets only: the Content-Security-Policy allows no inline style.
    inlineStylesheets: 'never',
  },
  // (Each render process of the build gives its own output and cache folders: src/build/render-process.ts.)
  devToolbar: { enabled: false },
  vite: {
    // Scripts as files, never inlined: the Content-Security-Policy allows only the hashed theme pre-paint inline.
    build: { chunkSizeWarningLimit: 2000, assetsInlineLimit: 0 },
    // `astro dev` watches the project's folder: not the built sites nor errdex's work folder (the bench's
    // catalogs, caches and sites, a million files at 100k records, which it would crawl for minutes).
    server: { watch: { ignored: ['**/.errdex/**', '**/dist/**', '**/dist.*/**'] } },
  },
});
