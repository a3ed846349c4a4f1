/**
 * Listing pages (repository, failure class, tag): which records go on which page. Each page's rows
 * stay within LIST_ROWS_BUDGET bytes of HTML, so a listing of 20,000 errors is many light pages.
 */
import type { CatalogEntry } from '../catalog/catalog.ts';
import { LIST_ROWS_BUDGET, estimateRowBytes, paginateBySize } from '../util/paginate.ts';
import { directoryOf } from '../util/text.ts';
import { listPagePath } from '../util/urls.ts';

export interface ListingPage {
  /** 1-based. */
  n: number;
  path: string;
  entries: CatalogEntry[];
}

export interface Listing {
  pages: ListingPage[];
  total: number;
}

/** Everything a row shows, for its size estimate. */
function rowTexts(e: CatalogEntry): string[] {
  const r = e.record;
  return [r.errorMessage, r.filePath, r.filePath, r.repo, r.slug, r.errorClass ?? '', r.backgroundTag ?? ''];
}

/** At most this many directories in a repository's table of contents; the filter finds the rest. */
export const TOC_LIMIT = 300;

export interface DirectoryCount {
  dir: string;
  count: number;
  /** The page its group starts on. */
  page: number;
}

/**
 * Rows of a repository page: less than other listings, as its first view also carries the quick
 * filters and folded directories, and should stay within 150 KB with the stylesheet and scripts.
 */
export const REPO_ROWS_BUDGET = 105_000;

export function listing(path: string, entries: CatalogEntry[], firstPageExtraBytes = 0, budget = LIST_ROWS_BUDGET): Listing {
  const chunks = paginateBySize(entries, (e) => estimateRowBytes(rowTexts(e)), budget, budget - firstPageExtraBytes);
  return { total: entries.length, pages: chunks.map((chunk, i) => ({ n: i + 1, path: listPagePath(path, i + 1), entries: chunk })) };
}

/** Directories of a repository listing in page order, with their counts and where they start. */
export function directoryCounts(l: Listing): DirectoryCount[] {
  const out: DirectoryCount[] = [];
  for (const page of l.pages) {
    for (const e of page.entries) {
      const dir = directoryOf(e.record.filePath);
      const last = out.at(-1);
      if (last?.dir === dir) last.count++;
      else out.push({ dir, count: 1, page: page.n });
    }
  }
  return out;
}

/** Bytes of the table of contents on a repository's first page, estimated like rows. */
export function tocBytes(dirs: readonly string[]): number {
  return dirs.slice(0, TOC_LIMIT).reduce((n, d) => n + estimateRowBytes([d, d], 160), 0);
}

const cache = new Map<string, Listing>();

/** Memoised per listing path: the index page and its further pages ask for the same split. */
export function cachedListing(path: string, make: () => Listing): Listing {
  let l = cache.get(path);
  if (!l) cache.set(path, (l = make()));
  return l;
}
