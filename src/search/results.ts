/**
 * One ranked result list from the paste matcher and Pagefind: exact-template matches first, then
 * strong near misses, then full-text results, then weaker near misses. Also the filters' choices
 * (facets) and Pagefind's excerpt markup read as text. Pure: the search page renders what this returns.
 */
import type { SearchFilter } from './filters.ts';
import type { MatchKind, MatchResult } from './matcher.ts';
import { isConfident } from './confidence.ts';
import { wordsWithoutValues } from './keys.ts';
import type { FilledHole } from '../schema/message-template.ts';

export type HitKind = MatchKind | 'text';


export interface SearchHit {
  /** Root-relative page path without the base path. */
  path: string;
  kind: HitKind;
  template: string;
  repo: string;
  errorClass: string | null;
  /** Values the placeholders took (exact and contained matches). */
  values: FilledHole[] | null;
  /** The pasted line it matched: passed to the page as `?m=`. */
  line: string | null;
  /** Plain text, or Pagefind's excerpt as text segments with the matched words marked. */
  snippet: ExcerptSegment[];
  /** Where the record raises it (matcher results): tells apart records that print the same message. */
  site: { file: string; line: number | null; scope: string | null } | null;
  filters: Partial<Record<SearchFilter, string[]>>;
  /** The row is a message page: every raise site of one message in a repository (`messagePageHit`). */
  messagePage?: boolean;
  /** The class the paste names for the line its template fits, another than the record's (class-prefix.ts `classClash`): the row says so. */
  otherClass?: string;
  /** The template fits the line, but the paste's frames show the error raised elsewhere (frames.ts `siteMissed`): the row says so. */
  siteMissed?: true;
}

export interface ExcerptSegment {
  text: string;
  mark: boolean;
}

/** What the page needs of a Pagefind result (`await result.data()`). */
export interface PagefindHit {
  /** Result URL as Pagefind gives it (with the base path). */
  url: string;
  excerpt: string;
  meta: Record<string, string | undefined>;
  filters: Record<string, string[]>;
}

/** Near misses scoring better than this rank above full-text results. */
export const STRONG_CLOSE = 0.25;

export const KIND_LABEL: Record<HitKind, string> = {
  exact: 'Exact template',
  contained: 'Template found in your text',
  close: 'Close match',
  text: 'Full-text match',
};

export function hitFromMatch(m: MatchResult): SearchHit {
  const e = m.entry;
  return {
    path: `/${e.repo}/${e.slug}/`,
    kind: m.kind,
    template: e.template,
    repo: e.repo,
    errorClass: e.errorClass,
    values: m.values,
    line: m.line,
    ...(m.classClash && m.pastedClass && m.kind !== 'close' ? { otherClass: m.pastedClass } : {}),
    ...(m.siteMissed && m.kind !== 'close' ? { siteMissed: true as const } : {}),
    snippet: [{ text: e.summary, mark: false }],
    site: e.file ? { file: e.file, line: e.line, scope: e.scope } : null,
    filters: {
      repo: [e.repo],
      severity: [e.severity],
      errorType: [e.errorType],
      language: [e.language],
      ...(e.errorClass ? { errorClass: [e.errorClass] } : {}),
      tag: e.tags,
    },
  };
}

/** What a possibly related row whose template fits the line says of itself: the page and `errdex lookup` word it alike. */
export interface WhyNoMatch {
  errorClass: string | null;
  /** The class the paste names (`SearchHit.otherClass`). */
  otherClass?: string;
  /** The file the entry raises it in, which the paste's traceback does not go through (`SearchHit.siteMissed`). */
  missedFile?: string;
}

/** Why such a row is no match, as a sentence of text and code parts; null when it does not say (class-prefix.ts `classClash`, frames.ts `siteMissed`). */
export function whyNoMatch(row: WhyNoMatch): (string | { code: string })[] | null {
  if (row.otherClass && row.errorClass) return ['The same words, but your paste names ', { code: row.otherClass }, ' and this entry raises ', { code: row.errorClass }, '.'];
  if (row.missedFile) return ["The same words, but your paste's traceback does not go through ", { code: row.missedFile }, ', where this entry raises it.'];
  return null;
}

/** Pagefind's result URL without the base path and without `index.html`. */
export function pathFromPagefindUrl(url: string, base: string): string {
  let path = url.replace(/[?#].*$/, '');
  if (base && path.startsWith(`${base}/`)) path = path.slice(base.length);
  return path.replace(/index\.html$/, '');
}

export function hitFromPagefind(p: PagefindHit, base: string): SearchHit {
  return {
    path: pathFromPagefindUrl(p.url, base),
    kind: 'text',
    template: p.meta.template ?? p.meta.title ?? p.url,
    repo: p.meta.repo ?? '',
    errorClass: p.meta.errorClass ?? null,
    values: null,
    line: null,
    snippet: excerptSegments(p.excerpt),
    site: null,
    filters: p.filters as SearchHit['filters'],
  };
}

/**
 * Whether the page runs full-text search (Pagefind) on its own after the matcher answered: only when
 * the matcher has nothing to show. Pagefind's first search downloads its whole page list (about
 * 0.6 MB at 100,000 errors, 0.75 MB with its code), more than a paste's matching costs many times
 * over, so with any result from the matcher full text waits to be asked for.
 */
export function fullTextWanted(matches: readonly MatchResult[]): boolean {
  return matches.length === 0;
}

/**
 * A row for the message page of the first result, to go before it: when that message is raised in
 * several places of its repository (the record has a message page) and the paste's frames, if any,
 * do not pick one of them (no record of that message fits them better than the others). The page
 * lists every raise site; one record's page would be a guess. Only for a confident match.
 */
export function messagePageHit(matches: readonly MatchResult[]): SearchHit | null {
  const top = matches[0];
  const page = top?.entry.messagePage;
  if (!top || !page || !isConfident(top)) return null;
  const fit = top.siteFit ?? 0;
  const picked = fit > 0 && matches.every((m) => m === top || m.entry.messagePage !== page || (m.siteFit ?? 0) < fit);
  if (picked) return null;
  return {
    ...hitFromMatch(top),
    path: page,
    line: null,
    site: null,
    messagePage: true,
    snippet: [{ text: 'Raised in several places in this repository: this page lists each one with its file and function.', mark: false }],
  };
}

/** Merges both engines' results into one ranked list without repeats, the message page first when it applies (`messagePageHit`). */
export function mergeHits(matches: readonly MatchResult[], pagefind: readonly SearchHit[]): SearchHit[] {
  const textRank = new Map(pagefind.map((h, i) => [h.path, i]));
  // A near miss full-text search also found is strong whatever its score, and so is one the matcher
  // ranked above an exact match (a longer template explaining the line but for a changed word,
  // above a short one whose placeholder swallowed the rest: matcher.ts `outdoing`).
  const lastExact = matches.findLastIndex((m) => m.kind !== 'close');
  const strong = new Set(matches.filter((m, i) => m.kind !== 'close' || i < lastExact || m.score <= STRONG_CLOSE || textRank.has(`/${m.entry.repo}/${m.entry.slug}/`)));
  const weak = matches.filter((m) => !strong.has(m));
  const out: SearchHit[] = [];
  const seen = new Set<string>();
  const push = (h: SearchHit) => {
    if (seen.has(h.path)) return;
    seen.add(h.path);
    out.push(h);
  };
  const group = messagePageHit(matches);
  if (group) push(group);
  // In the matcher's order: exact matches first, but for the near misses it put above them.
  for (const m of matches) if (strong.has(m)) push(hitFromMatch(m));
  for (const h of pagefind) push(h);
  for (const m of weak) push(hitFromMatch(m));
  return out;
}

export interface FacetValue {
  value: string;
  count: number;
}

/** The values each filter takes among the hits, most frequent first. */
export function facets(hits: readonly SearchHit[], names: readonly SearchFilter[]): Record<SearchFilter, FacetValue[]> {
  const out = {} as Record<SearchFilter, FacetValue[]>;
  for (const name of names) {
    const counts = new Map<string, number>();
    for (const h of hits) for (const v of new Set(h.filters[name] ?? [])) counts.set(v, (counts.get(v) ?? 0) + 1);
    out[name] = [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
  }
  return out;
}

/** Hits that have every chosen filter value. */
export function applyFilters(hits: readonly SearchHit[], chosen: Partial<Record<SearchFilter, string>>): SearchHit[] {
  const active = Object.entries(chosen).filter(([, v]) => v) as [SearchFilter, string][];
  if (active.length === 0) return [...hits];
  return hits.filter((h) => active.every(([name, value]) => (h.filters[name] ?? []).includes(value)));
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Pagefind's excerpt (escaped text with `<mark>`) as text segments, so the page never parses HTML. */
export function excerptSegments(excerpt: string): ExcerptSegment[] {
  const out: ExcerptSegment[] = [];
  const re = /<mark>([\s\S]*?)<\/mark>/g;
  let last = 0;
  const text = (s: string) => decodeEntities(s.replace(/<[^>]*>/g, ''));
  for (let m = re.exec(excerpt); m; m = re.exec(excerpt)) {
    if (m.index > last) out.push({ text: text(excerpt.slice(last, m.index)), mark: false });
    out.push({ text: text(m[1]!), mark: true });
    last = m.index + m[0].length;
  }
  if (last < excerpt.length) out.push({ text: text(excerpt.slice(last)), mark: false });
  return out.filter((s) => s.text !== '');
}

/**
 * The error page's link for a hit: with `#m=` so the page shows the pasted values (in the
 * fragment, which never reaches a server's log).
 */
export function hitHref(hit: SearchHit, base: string): string {
  const path = `${base}${hit.path}`;
  return hit.line ? `${path}#m=${encodeURIComponent(hit.line)}` : path;
}

/** What a row's `data-match` says: the pattern matched, an alignment found it close, or full text found it. */
export function matchAttribute(kind: HitKind): 'exact' | 'close' | 'text' {
  return kind === 'close' ? 'close' : kind === 'text' ? 'text' : 'exact';
}

/** `path/to/file.py:12 · in Class.method`: where a row's record raises its error. */
export function siteLabel(site: NonNullable<SearchHit['site']>): string {
  return `${site.file}${site.line !== null ? `:${site.line}` : ''}${site.scope ? ` · in ${site.scope}` : ''}`;
}

/** `frame_count = 3`: how a filled placeholder reads. */
export function valueLabel(v: FilledHole): string {
  return `${v.name ?? v.raw} = ${v.value}`;
}

/** Most words given to Pagefind: it loads a piece of its index for each, and needs each in a page. */
export const FULL_TEXT_WORDS = 3;

/**
 * What to give Pagefind for a query: the distinctive words the matcher picked from its likeliest
 * error line (no values, none of the catalog's common words), or without them (the matcher failed
 * or ran out of time) the first words of the paste that are not values: a timestamp, a path or a
 * number would be no word of any page. Pagefind needs every word in a page and loads a piece of
 * its index for each word.
 */
export function fullTextQuery(raw: string, words: readonly string[] | null): string {
  if (words && words.length > 0) return words.slice(0, FULL_TEXT_WORDS).join(' ');
  // Cut a raw paste before reading it.
  return wordsWithoutValues(raw.slice(0, 4_000)).slice(0, FULL_TEXT_WORDS).join(' ');
}
