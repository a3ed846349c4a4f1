import { defineConfig } from 'astro/config';
import { siteConfig } from './errdex.config.mjs';

export default defineConfig({
  output: 'static',
  site: siteConfig.siteUrl,
  base: siteConfig.basePath || '/',
  trailingSlash: 'always',
  // The build script builds into a staging folder and swaps it in, so that a failed build leaves dist/ as it was.
  outDir: process.env.ERRDEX_OUT_DIR || './dist',
  build: {
    format: 'directory',
    // Several pages in flight, so that writing one page's files overlaps rendering the next.
    concurrency: 8,
    // External stylesheets only: the Content-Security-Policy allows no inline style.
    inlineStylesheets: 'never',
  },
  // The build script gives each render chunk its own cache folder under the build cache (.errdex/cache).
  // (Unchanged pages are not Astro's incremental build's business: see src/catalog/page-cache.ts.)
  cacheDir: process.env.ERRDEX_ASTRO_CACHE_DIR || './node_modules/.astro',
  devToolbar: { enabled: false },
  vite: {
    // Scripts as files, never inlined: the Content-Security-Policy allows only the hashed theme pre-paint inline.
    build: { chunkSizeWarningLimit: 2000, assetsInlineLimit: 0 },
  },
});
