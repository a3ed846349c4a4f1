/**
 * The page cache, render side: errdex's own incremental build for the error pages, one per record, the
 * listings' pages (a repository's, a failure class's, a tag's) and the message pages. (A record's JSON
 * twin and short link are written by the build every time: src/build/stages/record-files.ts.)
 *
 * Each such file has a key (recordCacheKey below: the record's text, what the page shows of other
 * records, the site settings; listingCacheKey: the page's file and its listing's records as a listing
 * shows them; pageCacheKey, a message page's: its file and its records' texts). When the last
 * published site holds the file under the same key, and the code that renders it is unchanged, the
 * render process leaves it out of Astro's routes and the build links the published file into the new
 * site instead (src/build/page-reuse.ts). A rebuild then costs Astro only the pages that changed. The
 * render context (src/context.ts) says which site may lend its pages, and where the page log goes.
 */
import { hash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { siteConfig } from '../../errdex.config.mjs';
import { textKey, type CatalogEntry } from './entry.ts';
import { rowKey } from './row-key.ts';

export interface PageFile<T> {
  /** The route Astro renders when the file cannot be reused. */
  route: T;
  /** The file's path in the site folder, as Astro writes it: `e/{id}/index.html`. */
  file: string;
  key: string;
}

/** One line of a page log: the keys of the files a route covers, and the files reused; of error pages, or (`several`) of pages made of several records: a listing's, a message page. */
export interface PageLogLine {
  keys: Record<string, string>;
  reused: string[];
  kind?: 'several';
}

let previous: { keys: Map<string, string> } | null | undefined;

function previousSite(reuse: { site: string; keys: string } | null): typeof previous {
  if (previous !== undefined) return previous;
  previous = reuse && existsSync(reuse.keys) ? { keys: new Map(Object.entries(JSON.parse(readFileSync(reuse.keys, 'utf8')) as Record<string, string>)) } : null;
  return previous;
}

/**
 * The routes to render: those whose file the last published site (`reuse`: its folder, and its files'
 * keys as a JSON file) does not hold under the same key. Every file's key, and which were reused, go
 * to the page log for the build.
 */
export function pageFilesToRender<T>(files: readonly PageFile<T>[], reuse: { site: string; keys: string } | null, pageLog: string | null, kind?: 'several'): T[] {
  const prev = previousSite(reuse);
  const line: PageLogLine = { keys: {}, reused: [], ...(kind ? { kind } : {}) };
  const render: T[] = [];
  for (const f of files) {
    line.keys[f.file] = f.key;
    // The keys are those of the files the build proved there (src/build/page-reuse.ts `publishedSite`).
    if (prev && prev.keys.get(f.file) === f.key) line.reused.push(f.file);
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
export function recordCacheKey(entry: Pick<CatalogEntry, 'sourceText' | 'textKey'>, shown: unknown = null): string {
  // The record's own text by its hash too: a render process holds no record's text (src/context.ts).
  return hash('sha1', `${SITE_CONFIG_TEXT}\0${textKey(entry)}\0${shownText(shown)}`);
}

/** What a page shows, as text: each record it shows (under the key `entry`) by its text's hash. */
const shownText = (shown: unknown): string =>
  JSON.stringify(shown, (key, value) => (key === 'entry' && value && typeof value === 'object' && 'sourceText' in value ? textKey(value as CatalogEntry) : value));

/** The key of a page made of several records (a message page): its file, and what it shows (`shown`, as recordCacheKey's). */
export function pageCacheKey(file: string, shown: unknown): string {
  return hash('sha1', `${SITE_CONFIG_TEXT}\0${file}\0${shownText(shown)}`);
}

const listingKeys = new WeakMap<object, string>();

/**
 * The incremental-build key of one page of a listing (a repository's, a failure class's, a tag's): its
 * file, and its whole listing's records in order, as a listing shows them (a row's message, place,
 * severity and classes, and the counts, facets, directories and page breaks made of them: every
 * field but code and prose), with `shown`, what else its pages show (the failure classes). A
 * record's prose or excerpt edited leaves every listing page as it was.
 */
export function listingCacheKey(file: string, entries: readonly Pick<CatalogEntry, 'record'>[], shown: string): string {
  let listing = listingKeys.get(entries);
  if (listing === undefined) listingKeys.set(entries, (listing = hash('sha1', entries.map((e) => rowKey(e.record)).join(''))));
  return hash('sha1', `${SITE_CONFIG_TEXT}\0${shown}\0${file}\0${listing}`);
}

