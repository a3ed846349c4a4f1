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
    // External stylesheets only: the Content-Security-Policy allows no inline style.
    inlineStylesheets: 'never',
  },
  devToolbar: { enabled: false },
  vite: {
    // Scripts as files, never inlined: the Content-Security-Policy allows only the hashed theme pre-paint inline.
    build: { chunkSizeWarningLimit: 2000, assetsInlineLimit: 0 },
  },
});
