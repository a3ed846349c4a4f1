/**
 * The page cache, render side: errdex's own incremental build for the error pages, one per record.
 * (A record's JSON twin and short link are written by the build every time: src/build/stages/record-files.ts.)
 *
 * Each such file has a key (recordCacheKey below: the record's text, what the page
 * shows of other records, the site settings). When the last published site holds the file under the
 * same key, and the code that renders it is unchanged, the render process leaves it out of Astro's
 * routes and the build links the published file into the new site instead (src/build/page-reuse.ts).
 * A rebuild then costs Astro only the pages that changed. The render context (src/context.ts) says
 * which site may lend its pages, and where the page log goes.
 */
import { hash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { siteConfig } from '../../errdex.config.mjs';
import { textKey, type CatalogEntry } from './entry.ts';

export interface PageFile<T> {
  /** The route Astro renders when the file cannot be reused. */
  route: T;
  /** The file's path in the site folder, as Astro writes it: `e/{id}/index.html`. */
  file: string;
  key: string;
}

/**
 * One line of a page log: the keys of the files a route covers, and the files reused; or, written as
 * the pages are rendered, the SHA-256 of each file rendered (its bytes as Astro writes them), which
 * the build records as the file's proof without reading it back (src/build/file-proofs.ts).
 */
export interface PageLogLine {
  keys: Record<string, string>;
  reused: string[];
  sha256?: Record<string, string>;
}

/** The file Astro writes for a page's path in the site folder (`build.format: 'directory'`): `a/b/` -> `a/b/index.html`. */
export const pageFileOf = (sitePath: string): string => (sitePath.endsWith('/') ? `${sitePath}index.html` : sitePath).replace(/^\//, '');

/**
 * Notes the SHA-256 of a rendered file for the page log, written out in lines of up to LOG_BATCH
 * files (and the rest by flushRenderedHashes at the end of the render).
 */
const rendered: Record<string, string> = {};
let renderedCount = 0;
const LOG_BATCH = 500;
export function noteRenderedHash(pageLog: string, file: string, bytes: Uint8Array): void {
  rendered[file] = hash('sha256', bytes);
  if (++renderedCount % LOG_BATCH === 0) flushRenderedHashes(pageLog);
}
export function flushRenderedHashes(pageLog: string): void {
  const files = Object.keys(rendered);
  if (files.length === 0) return;
  const line: PageLogLine = { keys: {}, reused: [], sha256: { ...rendered } };
  for (const f of files) delete rendered[f];
  appendFileSync(pageLog, `${JSON.stringify(line)}\n`);
}

let previous: { keys: Map<string, string>; site: string } | null | undefined;

function previousSite(reuse: { site: string; keys: string } | null): typeof previous {
  if (previous !== undefined) return previous;
  previous = reuse && existsSync(reuse.keys) ? { keys: new Map(Object.entries(JSON.parse(readFileSync(reuse.keys, 'utf8')) as Record<string, string>)), site: reuse.site } : null;
  return previous;
}

/**
 * The routes to render: those whose file the last published site (`reuse`: its folder, and its files'
 * keys as a JSON file) does not hold under the same key. Every file's key, and which were reused, go
 * to the page log for the build.
 */
export function pageFilesToRender<T>(files: readonly PageFile<T>[], reuse: { site: string; keys: string } | null, pageLog: string | null): T[] {
  const prev = previousSite(reuse);
  const line: PageLogLine = { keys: {}, reused: [] };
  const render: T[] = [];
  for (const f of files) {
    line.keys[f.file] = f.key;
    if (prev && prev.keys.get(f.file) === f.key && existsSync(join(prev.site, f.file))) line.reused.push(f.file);
    else render.push(f.route);
  }
  if (pageLog) appendFileSync(pageLog, `${JSON.stringify(line)}\n`);
  return render;
}

/** The site configuration as part of every page key: made once, not per page. */
const SITE_CONFIG_TEXT = JSON.stringify(siteConfig);

/**
 * The incremental-build key of a record's page: everything it shows that Astro cannot
 * see in the code. A build renders the page again when its key or the code changes (src/catalog/page-cache.ts).
 * A page that comes to show data from other records (related errors) must add that data here.
 */
export function recordCacheKey(entry: Pick<CatalogEntry, 'sourceText'>, shown: unknown = null): string {
  const shownText = JSON.stringify(shown, (key, value) => (key === 'entry' && value && typeof value === 'object' && 'sourceText' in value ? textKey(value as CatalogEntry) : value));
  return hash('sha1', `${SITE_CONFIG_TEXT}\0${entry.sourceText}\0${shownText}`);
}
