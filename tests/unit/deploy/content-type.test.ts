/** content-type: each kind of file a built site holds, and what has no known extension. */
import { describe, expect, it } from 'vitest';
import { contentTypeOf, DEFAULT_TYPE } from '../../../src/deploy/content-type.ts';

describe('contentTypeOf', () => {
  it('names the site’s file kinds, text as UTF-8', () => {
    expect(contentTypeOf('acme/ledger/x/index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('_astro/site.Bq3x9.CSS')).toBe('text/css; charset=utf-8');
    expect(contentTypeOf('_astro/search.Cw81k.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('api/errors/1.json')).toBe('application/json; charset=utf-8');
    expect(contentTypeOf('sitemap.xml')).toBe('application/xml; charset=utf-8');
    expect(contentTypeOf('robots.txt')).toBe('text/plain; charset=utf-8');
    expect(contentTypeOf('favicon.svg')).toBe('image/svg+xml');
    expect(contentTypeOf('pagefind/wasm.en.pagefind')).toBe(DEFAULT_TYPE);
    expect(contentTypeOf('pagefind/fragment/en_1.pf_fragment')).toBe(DEFAULT_TYPE);
    expect(contentTypeOf('pagefind/pagefind.wasm')).toBe('application/wasm');
    // Fetched as gzip bytes and unpacked by the page: a type, never a Content-Encoding.
    expect(contentTypeOf('list-index/acme/ledger/words-f.gz')).toBe('application/gzip');
  });

  it('falls back to bytes for no extension, a dot file or an unknown one', () => {
    expect(contentTypeOf('LICENSE')).toBe(DEFAULT_TYPE);
    expect(contentTypeOf('a.b/README')).toBe(DEFAULT_TYPE);
    expect(contentTypeOf('.well-known/.html')).toBe(DEFAULT_TYPE);
    expect(contentTypeOf('data.unknownext')).toBe(DEFAULT_TYPE);
  });
});
