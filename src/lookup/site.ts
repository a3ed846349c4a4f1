/**
 * The site a lookup reads: a built folder (`dist/`) or a deployed site's URL. Either way files are
 * read by their path below the site's root (its base path included in the URL), as the browser asks
 * for them, and every file read is counted with its bytes: a lookup over HTTP must cost what a paste
 * in the browser costs, and says so.
 */
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** A file could not be read or was not JSON: the lookup stops with exit code 2. */
export class SiteError extends Error {}

export interface SiteRead {
  /** Root-relative path (`/search-index/manifest.json`). */
  path: string;
  bytes: number;
}

export interface Site {
  kind: 'folder' | 'url';
  /** The folder's absolute path, or the site's URL with a trailing slash. */
  root: string;
  /** Reads and parses a JSON file by its root-relative path. */
  readJson(path: string): Promise<unknown>;
  /** Every file read so far, in order. */
  reads: SiteRead[];
  /** The page's address: an absolute URL for a site given by URL, else the file of its `index.html` in the folder. */
  location(path: string): string;
}

export interface SiteOptions {
  /** Per request, for a site over HTTP. */
  timeoutMs?: number;
  /** Replaces the global fetch (tests). */
  fetch?: typeof fetch;
}

export const isUrl = (site: string): boolean => /^https?:\/\//i.test(site);

export async function openSite(site: string, options: SiteOptions = {}): Promise<Site> {
  if (isUrl(site)) return urlSite(site, options);
  const root = resolve(site);
  const info = await stat(root).catch(() => null);
  if (!info?.isDirectory()) throw new SiteError(`${site} is not a folder (give a built site's folder, such as dist/, or its http(s) URL)`);
  return folderSite(root);
}

function folderSite(root: string): Site {
  const reads: SiteRead[] = [];
  return {
    kind: 'folder',
    root,
    reads,
    location: (path) => join(root, path, path.endsWith('/') ? 'index.html' : ''),
    async readJson(path) {
      const file = join(root, path);
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (e) {
        throw new SiteError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
      }
      reads.push({ path, bytes: bytes.length });
      return parse(bytes.toString('utf8'), file);
    },
  };
}

function urlSite(site: string, options: SiteOptions): Site {
  let base: URL;
  try {
    base = new URL(site);
  } catch {
    throw new SiteError(`${site} is not a URL`);
  }
  base.search = '';
  base.hash = '';
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  const root = base.href;
  const get = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const reads: SiteRead[] = [];
  return {
    kind: 'url',
    root,
    reads,
    location: (path) => new URL(path.slice(1), root).href,
    async readJson(path) {
      const url = new URL(path.slice(1), root).href;
      let text: string;
      try {
        const res = await get(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
        const body = new Uint8Array(await res.arrayBuffer());
        reads.push({ path, bytes: body.length });
        if (!res.ok) throw new SiteError(`${url}: HTTP ${res.status}`);
        text = new TextDecoder().decode(body);
      } catch (e) {
        if (e instanceof SiteError) throw e;
        const why = e instanceof Error ? (e.name === 'TimeoutError' ? `no answer in ${timeoutMs / 1000} s` : causeOf(e)) : String(e);
        throw new SiteError(`cannot fetch ${url}: ${why}`);
      }
      return parse(text, url);
    },
  };
}

/** Node's fetch says "fetch failed" and puts the reason (a refused connection, a bad name) in `cause`. */
function causeOf(e: Error): string {
  const cause = (e as Error & { cause?: unknown }).cause;
  return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
}

function parse(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SiteError(`${where} is not JSON: not an errdex site's file`);
  }
}
