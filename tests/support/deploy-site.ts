/**
 * A small built site for the deploy tests, laid out as the build lays one out (pages, a record's page,
 * short link and JSON twin, content-named assets, Pagefind and message-index files, a filter index,
 * `_redirects`), with the `_headers` the build itself writes for it (src/build/headers.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { headersFile } from '../../src/build/headers.ts';

export const RECORD_PAGE = 'acme/ledger/frame-lost-333300/index.html';
export const RECORD_TWIN = 'api/errors/3333000000000001.json';

export const SITE_FILES: Record<string, string> = {
  'index.html': '<!doctype html><title>errdex</title><link rel="stylesheet" href="/_astro/site.Bq3x9.css">',
  '404.html': '<!doctype html><title>Not found</title>',
  [RECORD_PAGE]: '<!doctype html><title>Frame lost</title><p>The frame was lost in transit.',
  [RECORD_TWIN]: '{"id":"3333000000000001","message":"frame lost"}',
  'e/3333000000000001/index.html': '<!doctype html><meta http-equiv="refresh" content="0; url=/acme/ledger/frame-lost-333300/">',
  'acme/ledger/queue-full-333300/index.html': '<!doctype html><title>Queue full</title>',
  'api/errors/3333000000000002.json': '{"id":"3333000000000002","message":"queue full"}',
  '_astro/site.Bq3x9.css': 'body{margin:0}',
  '_astro/search.Cw81k.js': 'export const x = 1;',
  'pagefind/pagefind-entry.json': '{"version":"1.6.0"}',
  'pagefind/fragment/en_4f2a1c.pf_fragment': 'fragment-bytes',
  'search-index/shards/a1b2c3d4/0.json': '{"fr":[1]}',
  'search-index/manifest.json': '{"version":"a1b2c3d4"}',
  'list-index/acme/ledger/words-f.gz': 'gzip-bytes',
  'sitemap.xml': '<?xml version="1.0"?><urlset/>',
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  _redirects: '/acme/ledger/old/ /acme/ledger/frame-lost-333300/ 301\n',
};

/** Writes the site into `dir` (files, then the build's `_headers` for them) under `base`. */
export function writeSite(dir: string, base = '', files: Record<string, string> = SITE_FILES): void {
  for (const [key, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, key)), { recursive: true });
    writeFileSync(join(dir, key), text);
  }
  writeFileSync(join(dir, '_headers'), headersFile(dir, base));
}

/** The keys a deploy uploads: every file but the host files. */
export const deployedKeys = (files: Record<string, string> = SITE_FILES): string[] =>
  Object.keys(files)
    .filter((k) => k !== '_redirects' && k !== '_headers')
    .sort();
