/**
 * What a built site is, in the figures hosts limit: files, bytes, the largest file, the fullest
 * folder and the `_redirects` rules. Measured on the staging folder before it is published, so a
 * host's budget (src/build/hosts.ts) is checked while the published site is still the old one, and
 * printed in every build's summary. With them, the titles two pages share: a tab, a search result or
 * a link unfurl cannot tell such pages apart, and search engines fold them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
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

/**
 * Adds the files below `dir` to `f`. With `deeper`, the folders two levels below `dir` are handed to
 * it instead of walked (src/build/measure-worker.ts shares them out). `skip`: folders of the site
 * (paths one or two levels down, such as 'e' or 'api/errors') not walked, measured by who made them.
 */
function walkInto(site: string, dir: string, f: SiteFigures, deeper?: (dir: string) => void, depth = 0, skip?: ReadonlySet<string>): void {
  let here = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (skip && depth <= 1 && skip.has(relative(site, path))) continue;
      if (deeper && depth >= 1) deeper(path);
      else walkInto(site, path, f, deeper, depth + 1, skip);
    } else if (entry.isFile()) {
      here++;
      addFile(f, relative(site, path), statSync(path).size);
    }
  }
  addFolder(f, `${relative(site, dir)}/`.replace(/^\/$/, './'), here);
}

/** The figures of the files below `dirs`, folders of `site`. */
export function measureFolders(site: string, dirs: readonly string[]): SiteFigures {
  const f = noFigures();
  for (const dir of dirs) walkInto(site, dir, f);
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
  return countRedirects(site, measureFolders(site, [site]));
}

/**
 * `measureSite` on two cores: the folders two levels down (a site holds tens of thousands, each a
 * record's page or short link, or one of its indexes' folders) taken in turn by this thread and by
 * `measure` (a worker thread: src/build/measure-worker.ts). The walk is a stat of every file, seconds at
 * scale, on the path every build waits on while it publishes. `known`: the figures of folders a stage
 * made and measured as it wrote them (`skip`, paths one or two levels down), not walked again.
 */
export async function measureSiteBeside(site: string, measure: (dirs: string[]) => Promise<SiteFigures>, known?: { figures: SiteFigures; skip: readonly string[] }): Promise<SiteFigures> {
  const f = noFigures();
  const deep: string[] = [];
  walkInto(site, site, f, (dir) => deep.push(dir), 0, known && new Set(known.skip));
  const theirs = measure(deep.filter((_, i) => i % 2 === 1));
  // Not lost while this thread walks: its failure is awaited below.
  theirs.catch(() => {});
  for (const [i, dir] of deep.entries()) if (i % 2 === 0) walkInto(site, dir, f);
  const walked = joinFigures(f, await theirs);
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
