/**
 * The headers an object is stored with: its Content-Type, and what the `_headers` rules give its URL.
 * An S3-compatible store serves only a few headers from an object's own metadata (Cache-Control,
 * Content-Disposition, Content-Encoding, Content-Language, Expires, and Content-Type); the others the
 * rules give (Content-Security-Policy, X-Content-Type-Options, …) can only come from the CDN in front,
 * so they are returned by name for the report to say so. A file no rule gives a Cache-Control gets
 * `public, max-age=0, must-revalidate`: the page hosts' own default, so that a CDN revalidates pages
 * instead of keeping them by its default time (CloudFront: a day).
 */
import { contentTypeOf } from './content-type.ts';
import { type HeaderRule, headersFor } from './header-rules.ts';

export const DEFAULT_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

export interface ObjectHeaders {
  contentType: string;
  cacheControl: string;
  contentDisposition?: string;
  contentEncoding?: string;
  contentLanguage?: string;
  expires?: string;
}

const STORED: Record<string, keyof ObjectHeaders> = {
  'content-type': 'contentType',
  'cache-control': 'cacheControl',
  'content-disposition': 'contentDisposition',
  'content-encoding': 'contentEncoding',
  'content-language': 'contentLanguage',
  expires: 'expires',
};

export interface AppliedHeaders {
  headers: ObjectHeaders;
  /** Header names the rules give this path that an object cannot carry. */
  notStored: string[];
}

/** The object headers of the file `key` served at URL path `basePath/key`. */
export function objectHeaders(rules: readonly HeaderRule[], key: string, basePath: string): AppliedHeaders {
  const headers: ObjectHeaders = { contentType: contentTypeOf(key), cacheControl: DEFAULT_CACHE_CONTROL };
  const notStored: string[] = [];
  for (const [lower, { name, value }] of headersFor(rules, `${basePath}/${key}`)) {
    const field = STORED[lower];
    if (field) headers[field] = value;
    else notStored.push(name);
  }
  return { headers, notStored };
}

/** One string per distinct set of headers, to compare the headers an object was stored with. */
export function headersKey(h: ObjectHeaders): string {
  return JSON.stringify(Object.keys(STORED).map((lower) => h[STORED[lower]!] ?? null));
}
