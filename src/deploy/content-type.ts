/**
 * The Content-Type of a site file by its extension. A table of the kinds a built errdex site holds
 * rather than a general MIME database: the site's file kinds are known, and a general table guesses
 * wrongly for some of them (Pagefind's `.pf_*` files are gzipped bytes its script decodes; the filter
 * indexes' `.gz` files are fetched as gzip bytes, so they must not say Content-Encoding). Text types say
 * UTF-8, as the build writes them.
 */

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  webmanifest: 'application/manifest+json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  wasm: 'application/wasm',
  gz: 'application/gzip',
  pdf: 'application/pdf',
};

export const DEFAULT_TYPE = 'application/octet-stream';

/** The Content-Type for a file named `key` (a path with `/`). */
export function contentTypeOf(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return DEFAULT_TYPE;
  return TYPES[name.slice(dot + 1).toLowerCase()] ?? DEFAULT_TYPE;
}
