/**
 * What a built site is, in the figures hosts limit: files, bytes, the largest file, the fullest
 * folder and the `_redirects` rules. Measured on the staging folder before it is published, so a
 * host's budget (src/build/hosts.ts) is checked while the published site is still the old one, and
 * printed in every build's summary. With them, the titles two pages share: a tab, a search result or
 * a link unfurl cannot tell such pages apart, and search engines fold them.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isFile, isFolder, listFolder, nameOf, type SiteListing } from './site-listing.ts';
import type { PageHead } from './rendered-pages.ts';

export interface SiteFigures {
  files: number;
  bytes: number;
  largest: { path: string; bytes: number };
  /** The folder holding the most files (not counting its subfolders'). */
  fullest: { path: string; files: number };
  /** Rules in `_redirects` (lines that are not blank or comments); 0 without the file. */
  redirectRules: number;
  /** Files of the full-text index's fragments (`pagefind/…/fragment/`) and of the message index (`search-index/`): what the options change. */
  fragmentFiles: number;
  messageIndexFiles: number;
}

/** The titles of a site's pages, compared: those search engines index, and the live short links (`e/`), among themselves. */
export interface TitleFigures {
  /** Pages whose titles are compared. */
  titledPages: number;
  /** Titles more than one of those pages has, with the pages (site paths). */
  sharedTitles: SharedTitle[];
}

export interface SharedTitle {
  title: string;
  pages: string[];
}

/** The short links' folder: a live short link redirects with its page's title; they are compared among themselves. */
const SHORT_LINKS = 'e/';

/**
 * The titles of pages (site path and head, as the render noted them: src/build/rendered-pages.ts)
 * compared: an indexed page's with the other indexed pages', a live short link's with the other short
 * links'. Redirects and notices asking not to be indexed are left out.
 */
export function titleFigures(pages: Iterable<readonly [string, PageHead]>): TitleFigures {
  const figures: TitleFigures = { titledPages: 0, sharedTitles: [] };
  // Title (with its kind) -> the pages that have it.
  const titles = new Map<string, string[]>();
  for (const [path, { title, noindex, redirect }] of pages) {
    const short = redirect && path.startsWith(SHORT_LINKS);
    if (title === null || (!short && noindex)) continue;
    figures.titledPages++;
    const key = `${short ? 's' : 'p'}${title}`;
    const list = titles.get(key);
    if (list) list.push(path);
    else titles.set(key, [path]);
  }
  for (const [key, list] of titles) if (list.length > 1) figures.sharedTitles.push({ title: unescapeHtml(key.slice(1)), pages: list.sort() });
  return figures;
}

/** Rules of a `_redirects` text: every line but blank ones and `#` comments. */
export function redirectRules(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
}

export const noFigures = (): SiteFigures => ({
  files: 0,
  bytes: 0,
  largest: { path: '', bytes: -1 },
  fullest: { path: '', files: -1 },
  redirectRules: 0,
  fragmentFiles: 0,
  messageIndexFiles: 0,
});

// Of two files of the same size, or folders of as many files, the first by path: the figures do not
// depend on the order a walk met them in.
const larger = (a: SiteFigures['largest'], b: SiteFigures['largest']) => (b.bytes > a.bytes || (b.bytes === a.bytes && b.path < a.path) ? b : a);
const fuller = (a: SiteFigures['fullest'], b: SiteFigures['fullest']) => (b.files > a.files || (b.files === a.files && b.path < a.path) ? b : a);

/** Adds a file to `f`: its path in the site and its size. */
export function addFile(f: SiteFigures, path: string, bytes: number): void {
  f.files++;
  if (path.startsWith('search-index/')) f.messageIndexFiles++;
  else if (path.startsWith('pagefind/') && path.includes('/fragment/')) f.fragmentFiles++;
  f.bytes += bytes;
  f.largest = larger(f.largest, { path, bytes });
}

/** Adds a folder to `f`: its path in the site ('e/', './' for the site's own) and how many files it holds, not counting its subfolders'. */
export function addFolder(f: SiteFigures, path: string, files: number): void {
  f.fullest = fuller(f.fullest, { path, files });
}

/** How a walk reads folders: the record of a site that lends it folders, and the record it makes (src/build/site-listing.ts). */
export interface WalkListing {
  known?: SiteListing;
  out?: SiteListing;
}

interface Walk extends WalkListing {
  site: string;
  f: SiteFigures;
  /** Takes the folders two levels below the site instead of the walk (src/build/measure-worker.ts shares them out). */
  deeper?: (dir: string) => void;
  /** Folders of the site (paths one or two levels down, such as 'e' or 'api/errors') not walked, measured by who made them. */
  skip?: ReadonlySet<string>;
}

/** Adds the files below `dir`, at `path` in the site ('' the site itself), to the walk's figures. */
function walkInto(w: Walk, dir: string, path: string, depth = 0): void {
  let here = 0;
  for (const entry of listFolder(dir, path, w.known, w.out)) {
    const name = nameOf(entry);
    const abs = join(dir, name);
    const below = path === '' ? name : `${path}/${name}`;
    if (isFolder(entry)) {
      if (w.skip && depth <= 1 && w.skip.has(below)) continue;
      if (w.deeper && depth >= 1) w.deeper(below);
      else walkInto(w, abs, below, depth + 1);
    } else if (isFile(entry)) {
      here++;
      addFile(w.f, below, statSync(abs).size);
    }
  }
  addFolder(w.f, path === '' ? './' : `${path}/`, here);
}

/** The figures of the files below `dirs`, folders of `site` given by their paths in it ('a/b'). */
export function measureFolders(site: string, dirs: readonly string[], listing: WalkListing = {}): SiteFigures {
  const f = noFigures();
  for (const dir of dirs) walkInto({ site, f, ...listing }, join(site, dir), dir);
  return f;
}

/** Two measurements of parts of a site as one. */
export function joinFigures(a: SiteFigures, b: SiteFigures): SiteFigures {
  return {
    files: a.files + b.files,
    bytes: a.bytes + b.bytes,
    largest: larger(a.largest, b.largest),
    fullest: fuller(a.fullest, b.fullest),
    redirectRules: a.redirectRules + b.redirectRules,
    fragmentFiles: a.fragmentFiles + b.fragmentFiles,
    messageIndexFiles: a.messageIndexFiles + b.messageIndexFiles,
  };
}

function countRedirects(site: string, f: SiteFigures): SiteFigures {
  const redirects = join(site, '_redirects');
  if (existsSync(redirects)) f.redirectRules = redirectRules(readFileSync(redirects, 'utf8')).length;
  return f;
}

export function measureSite(site: string): SiteFigures {
  return countRedirects(site, measureFolders(site, ['']));
}

/** What the worker thread is given of a listing: the folders below its own. */
function listingBelow(listing: SiteListing | undefined, dirs: readonly string[]): SiteListing | undefined {
  if (!listing) return undefined;
  const tops = new Set(dirs);
  const below: SiteListing = new Map();
  for (const [path, folder] of listing) {
    const second = path.indexOf('/', path.indexOf('/') + 1);
    if (tops.has(second === -1 ? path : path.slice(0, second))) below.set(path, folder);
  }
  return below;
}

/**
 * `measureSite` on two cores: the folders two levels down (a site holds tens of thousands, each a
 * record's page or short link, or one of its indexes' folders) taken in turn by this thread and by
 * `measure` (a worker thread: src/build/measure-worker.ts). The walk is a stat of every file, seconds at
 * scale, on the path every build waits on while it publishes. `known`: the figures of folders a stage
 * made and measured as it wrote them (`skip`, paths one or two levels down), not walked again.
 * `listing`: folders known from a record rather than read, and the record made of this walk's
 * (src/build/site-listing.ts); the worker's part of it is added to `listing.out`.
 */
export async function measureSiteBeside(
  site: string,
  measure: (dirs: string[], listing: WalkListing) => Promise<{ figures: SiteFigures; listed?: SiteListing }>,
  known?: { figures: SiteFigures; skip: readonly string[] },
  listing: WalkListing = {},
): Promise<SiteFigures> {
  const f = noFigures();
  const deep: string[] = [];
  walkInto({ site, f, deeper: (dir) => deep.push(dir), ...(known ? { skip: new Set(known.skip) } : {}), ...listing }, site, '');
  const theirDirs = deep.filter((_, i) => i % 2 === 1);
  const theirs = measure(theirDirs, { known: listingBelow(listing.known, theirDirs), ...(listing.out ? { out: new Map() } : {}) });
  // Not lost while this thread walks: its failure is awaited below.
  theirs.catch(() => {});
  for (const [i, dir] of deep.entries()) if (i % 2 === 0) walkInto({ site, f, ...listing }, join(site, dir), dir);
  const { figures, listed } = await theirs;
  if (listing.out && listed) for (const [path, folder] of listed) listing.out.set(path, folder);
  const walked = joinFigures(f, figures);
  return countRedirects(site, known ? joinFigures(walked, known.figures) : walked);
}

/** 1234567 -> "1.2 MB" (powers of 1,000, as hosts state their limits). */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export const formatCount = (n: number): string => n.toLocaleString('en-US');

/** The summary line: "45,125 files, 291 MB (291,002,123 bytes), largest pagefind/x.pf_index (1.2 MB)". */
export function describeSite(f: SiteFigures): string {
  const largest = f.largest.bytes >= 0 ? `, largest ${f.largest.path} (${formatBytes(f.largest.bytes)})` : '';
  return `${formatCount(f.files)} files, ${formatBytes(f.bytes)} (${formatCount(f.bytes)} bytes)${largest}`;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" };
const unescapeHtml = (s: string): string => s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, e: string) => ENTITIES[e]!);

/** Most pages a warning names. */
const NAMED_PAGES = 10;

/** What the summary says of page titles: none shared, or a warning naming the titles shared and their pages. */
export function describeTitles(f: TitleFigures): { warning: boolean; text: string } {
  if (f.sharedTitles.length === 0) return { warning: false, text: `Page titles: ${formatCount(f.titledPages)} pages, no title shared.` };
  const pages = f.sharedTitles.reduce((n, t) => n + t.pages.length, 0);
  const named = f.sharedTitles
    .flatMap((t) => t.pages.map((p) => ({ title: t.title, page: p })))
    .slice(0, NAMED_PAGES)
    .map((n) => `${n.page} (${JSON.stringify(n.title)})`);
  return {
    warning: true,
    text: `${formatCount(f.sharedTitles.length)} page titles are shared, by ${formatCount(pages)} pages of ${formatCount(f.titledPages)}: ${named.join(', ')}${pages > NAMED_PAGES ? `, and ${formatCount(pages - NAMED_PAGES)} more` : ''}. Readers and search engines cannot tell them apart (src/catalog/derive/titles.ts).`,
  };
}
