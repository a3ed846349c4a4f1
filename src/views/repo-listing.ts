/** The listing of a repository page, split once per build and shared by its first and further pages, and its quick filters. */
import type { RepoSummary } from '../catalog/derive/index.ts';
import { cachedListing, listing, REPO_ROWS_BUDGET, tocBytes, type Listing } from './listing.ts';
import { directoryOf } from '../util/text.ts';
import { repoPath } from '../util/urls.ts';

export function repoListing(s: RepoSummary): Listing {
  const path = repoPath(s.repo);
  return cachedListing(path, () => listing(path, s.entries, tocBytes([...new Set(s.entries.map((e) => directoryOf(e.record.filePath)))]), REPO_ROWS_BUDGET));
}

/** A quick filter of a repository page: one exception class or one file, and how many errors it has. */
export interface Facet {
  kind: 'class' | 'file';
  value: string;
  /** What the button shows: a file by its last two path segments. */
  label: string;
  count: number;
}

/** At most this many quick filters of each kind. */
export const FACET_LIMIT = 6;

/** The most common of `values` (at least two errors each, and not every error: such a filter narrows nothing). */
function topCounts(values: readonly string[], total: number): [string, number][] {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== '') counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .filter(([, n]) => n >= 2 && n < total)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, FACET_LIMIT);
}

const shortFile = (path: string): string => path.split('/').slice(-2).join('/');

/** The repository's most common exception classes and files, as quick filters (the same on its pages and in its filter index). */
export function repoFacets(s: Pick<RepoSummary, 'entries'>): Facet[] {
  const total = s.entries.length;
  return [
    ...topCounts(s.entries.map((e) => e.record.errorClass ?? ''), total).map(([value, count]): Facet => ({ kind: 'class', value, label: value, count })),
    ...topCounts(s.entries.map((e) => e.record.filePath), total).map(([value, count]): Facet => ({ kind: 'file', value, label: shortFile(value), count })),
  ];
}
