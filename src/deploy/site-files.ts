/**
 * The built site folder as the objects to deploy: each file's key (its path below the folder, with
 * `/`), size, SHA-256 and MD5, and the headers its object gets from the site's `_headers` rules. The
 * host configuration files `_headers` and `_redirects` are read, not deployed: an object store serves
 * them as plain files, and the redirect pages already redirect.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFilesBelow } from '../util/files.ts';
import { parseHeadersFile } from './header-rules.ts';
import { headersKey, type ObjectHeaders, objectHeaders } from './object-headers.ts';

export const HOST_FILES = new Set(['_headers', '_redirects']);

export interface SiteFile {
  key: string;
  /** The file on disk. */
  path: string;
  size: number;
  sha256: string;
  /** Base64, for the upload's Content-MD5 (the store checks the bytes it received). */
  md5: string;
  headers: ObjectHeaders;
}

export interface Site {
  files: SiteFile[];
  /** Header names the `_headers` rules give that no object can carry (for the CDN to send). */
  notStored: string[];
  /** Lines of `_headers` that are not rules. */
  problems: string[];
  /** Whether the site has a `_headers` file at all. */
  hasHeadersFile: boolean;
}

/** Reads and hashes every file of the site in `dir`, served below `basePath` (`''` or `/sub`). */
export function readSite(dir: string, basePath: string): Site {
  const headersPath = join(dir, '_headers');
  const hasHeadersFile = existsSync(headersPath);
  const { rules, problems } = hasHeadersFile ? parseHeadersFile(readFileSync(headersPath, 'utf8')) : { rules: [], problems: [] };
  const notStored = new Set<string>();
  // A site of a million files has a handful of distinct header sets: one object each, shared.
  const shared = new Map<string, ObjectHeaders>();
  const files = listFilesBelow(dir, (rel) => HOST_FILES.has(rel)).map((key): SiteFile => {
    const path = join(dir, key);
    const bytes = readFileSync(path);
    const applied = objectHeaders(rules, key, basePath);
    for (const name of applied.notStored) notStored.add(name);
    const headersId = headersKey(applied.headers);
    if (!shared.has(headersId)) shared.set(headersId, applied.headers);
    return {
      key,
      path,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      md5: createHash('md5').update(bytes).digest('base64'),
      headers: shared.get(headersId)!,
    };
  });
  return { files, notStored: [...notStored].sort(), problems, hasHeadersFile };
}
