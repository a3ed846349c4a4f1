/** object-headers: what an object can carry of the rules, the default Cache-Control, the headers key. */
import { describe, expect, it } from 'vitest';
import { parseHeadersFile } from '../../../src/deploy/header-rules.ts';
import { DEFAULT_CACHE_CONTROL, headersKey, objectHeaders } from '../../../src/deploy/object-headers.ts';

const { rules } = parseHeadersFile(
  [
    '/sub/*',
    '  Content-Security-Policy: default-src self',
    '/sub/_astro/*',
    '  Cache-Control: public, max-age=31536000, immutable',
    '/sub/dl/*',
    '  Content-Disposition: attachment',
    '  Content-Type: text/csv',
    '  Content-Language: en',
  ].join('\n'),
);

describe('objectHeaders', () => {
  it('stores what an object can carry and names the rest', () => {
    expect(objectHeaders(rules, '_astro/a.css', '/sub')).toEqual({
      headers: { contentType: 'text/css; charset=utf-8', cacheControl: 'public, max-age=31536000, immutable' },
      notStored: ['Content-Security-Policy'],
    });
    expect(objectHeaders(rules, 'dl/data.bin', '/sub').headers).toEqual({
      contentType: 'text/csv',
      cacheControl: DEFAULT_CACHE_CONTROL,
      contentDisposition: 'attachment',
      contentLanguage: 'en',
    });
  });

  it('applies the rules at the base path only', () => {
    expect(objectHeaders(rules, '_astro/a.css', '').headers.cacheControl).toBe(DEFAULT_CACHE_CONTROL);
  });

  it('keys headers so that any stored header’s change shows', () => {
    const a = objectHeaders(rules, '_astro/a.css', '/sub').headers;
    expect(headersKey(a)).toBe(headersKey({ ...a }));
    expect(headersKey(a)).not.toBe(headersKey({ ...a, cacheControl: DEFAULT_CACHE_CONTROL }));
    expect(headersKey(a)).not.toBe(headersKey({ ...a, contentLanguage: 'en' }));
  });
});
