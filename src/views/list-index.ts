/**
 * A listing's filter index (repository, failure class or tag): what the listing filter
 * (src/client/list-filter.ts) fetches to search the listing's other pages, whose HTML for thousands of
 * errors runs to megabytes. A query fetches the head, the few word files its words name
 * (src/views/list-terms.ts), and the row files of the matches it shows, so what it costs does not grow
 * with the listing. Written once per build by the list-index stage (src/build/stages/list-index.ts),
 * gzipped; read back here too, so the writing and the reading side cannot drift apart.
 *
 * Rows are numbered in page order, the order of the listing's pages. A slug that is the message's
 * words followed by a tail (as the scanner makes them) is stored as its tail only.
 */
import { spanOf } from '../util/sorted.ts';
import { slugWords } from '../util/text.ts';
import type { ErrorRecord, Severity } from '../schema/record.ts';
import { encodeIds, termFiles, words, type TermFile, type TermTree } from './list-terms.ts';

export const LIST_INDEX_VERSION = 2;
/** Raw JSON bytes of one word file, before gzip (about a third of that is sent). */
export const TERM_BUDGET = 32 * 1024;
/** Raw JSON bytes of one row file: small, as the matches a query shows may be spread over many. */
export const ROWS_BUDGET = 12 * 1024;
export const SEVERITY_ORDER: readonly Severity[] = ['critical', 'error', 'warning', 'info'];

export type ListKind = 'repo' | 'class' | 'tag';

export interface ListIndexHead {
  v: number;
  kind: ListKind;
  /** Errors of the listing. */
  total: number;
  /** The folder of the files, beside the head: a hash of their bytes, so a browser may keep them. */
  dir: string;
  /** Word files `t{n}.json.gz`. */
  terms: TermTree;
  /** Rows in each row file `r{n}.json.gz`, in page order. */
  rows: number[];
  /** Quick filters, each with its rows in file `f{n}.json.gz`: [kind, value]. */
  facets: [string, string][];
  /** Repositories and failure classes ([id, title]) the rows point into. */
  repos: string[];
  classes: [string, string][];
}

/** [message, file, line (0: none), severity (index into SEVERITY_ORDER), exception class, slug, failure class (index, -1: none), repository (index)]. */
export type ListIndexRow = [string, string, number, number, string, string, number, number];

export interface RowFile {
  r: ListIndexRow[];
}

/** A quick filter's rows (encodeIds). */
export interface FacetFile {
  u: number[];
}

/** One error as the filter shows it. */
export interface ListIndexEntry {
  message: string;
  file: string;
  line: number | null;
  severity: Severity;
  errorClass: string;
  slug: string;
  repo: string;
  /** The failure class, when the record has one. */
  failureClass: { id: string; title: string } | null;
}

export type ListIndexRecord = Pick<ErrorRecord, 'errorMessage' | 'filePath' | 'lineNumber' | 'severity' | 'errorClass' | 'slug' | 'repo' | 'backgroundTag'>;

export function packSlug(message: string, slug: string): string {
  const stem = slugWords(message);
  return stem !== '' && slug.startsWith(`${stem}-`) ? `~${slug.slice(stem.length)}` : slug;
}

/** A slug never starts with '~', so a packed one is told apart from a whole one. */
export function unpackSlug(message: string, packed: string): string {
  return packed.startsWith('~') ? `${slugWords(message)}${packed.slice(1)}` : packed;
}

/** The text of a row the filter matches words against, the same for a listing's own rows and the index's. */
export function rowText(e: Pick<ListIndexEntry, 'message' | 'file' | 'line' | 'errorClass' | 'repo'> & { severity: string; classTitle: string }): string {
  return `${e.message} ${e.file} ${e.line ?? ''} ${e.severity} ${e.errorClass} ${e.classTitle} ${e.repo}`;
}

/** A quick filter as the index keeps it: rows whose exception class or file is `value`. */
export interface IndexFacet {
  kind: 'class' | 'file';
  value: string;
}

/** Everything the stage writes for one listing, before serialising. */
export interface ListIndex {
  kind: ListKind;
  total: number;
  terms: { tree: TermTree; files: TermFile[] };
  rows: RowFile[];
  facets: { facet: IndexFacet; file: FacetFile }[];
  repos: string[];
  classes: [string, string][];
}

/** The index of one listing: its records in page order, the failure classes' titles by id, its quick filters. */
export function listIndex(kind: ListKind, records: readonly ListIndexRecord[], classTitles: ReadonlyMap<string, string>, facets: readonly IndexFacet[] = []): ListIndex {
  const repos: string[] = [];
  const repoIds = new Map<string, number>();
  const classes: [string, string][] = [];
  const classIds = new Map<string, number>();
  const rowFiles: RowFile[] = [];
  let file: RowFile | null = null;
  let bytes = 0;
  const rowWords: string[][] = [];
  for (const r of records) {
    let repo = repoIds.get(r.repo);
    if (repo === undefined) repoIds.set(r.repo, (repo = repos.push(r.repo) - 1));
    const title = r.backgroundTag ? classTitles.get(r.backgroundTag) : undefined;
    let cls = -1;
    if (r.backgroundTag && title !== undefined) {
      cls = classIds.get(r.backgroundTag) ?? -1;
      if (cls === -1) classIds.set(r.backgroundTag, (cls = classes.push([r.backgroundTag, title]) - 1));
    }
    const row: ListIndexRow = [r.errorMessage, r.filePath, r.lineNumber ?? 0, SEVERITY_ORDER.indexOf(r.severity), r.errorClass ?? '', packSlug(r.errorMessage, r.slug), cls, repo];
    if (!file || bytes >= ROWS_BUDGET) {
      rowFiles.push((file = { r: [] }));
      bytes = 0;
    }
    file.r.push(row);
    bytes += JSON.stringify(row).length + 1;
    // What every row of the listing shares (its repository, its failure class) is not on its rows: not matched either.
    const repoName = kind === 'repo' ? '' : r.repo;
    const classTitle = kind === 'class' ? '' : (title ?? '');
    rowWords.push(words(rowText({ message: r.errorMessage, file: r.filePath, line: r.lineNumber, severity: r.severity, errorClass: r.errorClass ?? '', classTitle, repo: repoName })));
  }
  const facetRows = facets.map((facet) => ({
    facet,
    file: { u: encodeIds(records.flatMap((r, i) => ((facet.kind === 'class' ? (r.errorClass ?? '') : r.filePath) === facet.value ? [i] : []))) },
  }));
  return { kind, total: records.length, terms: termFiles(rowWords, TERM_BUDGET), rows: rowFiles, facets: facetRows, repos, classes };
}

/** A listing has a filter index when it has other pages to search. */
export const hasListIndex = (listing: { pages: readonly unknown[] }): boolean => listing.pages.length > 1;

export const termFileName = (n: number): string => `t${n}.json.gz`;
export const rowFileName = (n: number): string => `r${n}.json.gz`;
export const facetFileName = (n: number): string => `f${n}.json.gz`;

/** The index as written: its head (but for its folder, named by the files' hash) and its files as JSON, to be gzipped. */
export function listIndexFiles(index: ListIndex): { head: Omit<ListIndexHead, 'dir'>; files: { name: string; json: string }[] } {
  return {
    head: {
      v: LIST_INDEX_VERSION,
      kind: index.kind,
      total: index.total,
      terms: index.terms.tree,
      rows: index.rows.map((r) => r.r.length),
      facets: index.facets.map((f) => [f.facet.kind, f.facet.value]),
      repos: index.repos,
      classes: index.classes,
    },
    files: [
      ...index.terms.files.map((f, i) => ({ name: termFileName(i), json: JSON.stringify(f) })),
      ...index.rows.map((f, i) => ({ name: rowFileName(i), json: JSON.stringify(f) })),
      ...index.facets.map((f, i) => ({ name: facetFileName(i), json: JSON.stringify(f.file) })),
    ],
  };
}

/** Matches of other pages listed at first, and added by each "Show more". */
export const SHOWN_STEP = 200;
/** Row files fetched at most for one step: matches spread thin show fewer rows rather than cost more. */
export const ROW_FILES_PER_STEP = 16;

/** The first row of each row file, from the head's counts. */
export function rowStarts(counts: readonly number[]): number[] {
  let n = 0;
  return counts.map((count) => (n += count) - count);
}

/** The row file holding row `id`. */
export const rowFileOf = (starts: readonly number[], id: number): number => spanOf(starts, id);

/** Of `ids` (ascending), those shown: as far as `cap` row files not yet fetched (`have`) reach; and those files. */
export function rowsToShow(ids: readonly number[], starts: readonly number[], have: (file: number) => boolean, cap = ROW_FILES_PER_STEP): { ids: number[]; files: number[] } {
  const shown: number[] = [];
  const files: number[] = [];
  for (const id of ids) {
    const f = rowFileOf(starts, id);
    if (!have(f) && !files.includes(f)) {
      if (files.length === cap) break;
      files.push(f);
    }
    shown.push(id);
  }
  return { ids: shown, files };
}

/** The entries of a row file as read back. */
export function rowEntries(file: RowFile, head: Pick<ListIndexHead, 'repos' | 'classes'>): ListIndexEntry[] {
  return file.r.map(([message, path, line, severity, errorClass, slug, cls, repo]) => {
    const c = head.classes[cls];
    return {
      message,
      file: path,
      line: line > 0 ? line : null,
      severity: SEVERITY_ORDER[severity] ?? 'error',
      errorClass,
      slug: unpackSlug(message, slug),
      repo: head.repos[repo] ?? '',
      failureClass: c ? { id: c[0], title: c[1] } : null,
    };
  });
}
