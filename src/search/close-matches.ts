/**
 * Near misses: the candidates whose template the line no longer matches exactly (a typo, a word
 * changed, added or dropped, a paste cut short), ranked by two measures (see `closeMatches`). The
 * costliest part of a query, since every candidate is compared with the likeliest lines.
 */
import Fuse from 'fuse.js/basic';
import { alignTemplate, literalTokenCount, OVER_BUDGET, tokens, type Alignment } from './align.ts';
import { lastClassName } from './class-prefix.ts';
import { withoutValues } from './keys.ts';
import type { IndexEntry } from './message-index.ts';
import type { MatchResult } from './match-result.ts';
import { MAX_LINE, type PastedMessage } from './normalise.ts';
import { literalLength, parseTemplate } from '../schema/message-template.ts';

/** Close matches with more edits than this per literal token of the template are dropped (also fuse.js's threshold). */
export const CLOSE_THRESHOLD = 0.55;

/** Template text with placeholders dropped, for fuzzy comparison. */
export function literalText(template: string): string {
  return parseTemplate(template)
    .map((p) => (p.kind === 'text' ? p.text : ' '))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

export const sameClass = (a: string | null, b: string | null): boolean => {
  if (!a || !b) return false;
  return lastClassName(a).toLowerCase() === lastClassName(b).toLowerCase();
};

export function variants(m: PastedMessage): string[] {
  const text = m.text.slice(0, MAX_LINE);
  return m.withPrefix !== m.text ? [text, m.withPrefix.slice(0, MAX_LINE)] : [text];
}

/**
 * How much fuse.js's score (0 for a perfect match, 1 for none) weighs against the word edits of
 * the alignment when close matches are ranked: one fuse.js point counts as this many edits.
 */
export const FUSE_WEIGHT = 1;
/**
 * Fuse.js compares characters, a 32-character piece of the query at a time, each piece's cost
 * growing with the candidate's length: the line's first two pieces are what it compares (the
 * alignment reads the whole line; fuse.js's part is the characters of the words that start it).
 * On the benchmark's real pastes, 64 to 512 characters rank every paste's first result alike, and
 * 64 costs a long line a quarter of what 256 would.
 */
const FUSE_QUERY_CHARS = 64;

/**
 * Near misses among the candidates: a typo, a word changed, added or dropped, a paste cut short.
 * Two measures, each against the likeliest lines:
 *  - fuse.js over the candidates' literal text and the line without its values: how close the
 *    characters are, wherever they fall (a misspelt identifier, a word glued to another);
 *  - the alignment of the template's words with the line's (align.ts): how many words were edited,
 *    what the placeholders took, where the line was cut.
 * A candidate is a close match when the alignment finds it close (fuse.js's own hits beyond that,
 * more than half their words edited, added only noise: the benchmark's top-1 did not change). They
 * rank by the sum of the edits and the fuse.js score (`FUSE_WEIGHT`; a candidate fuse.js does not
 * find scores 1). `score` is the edits per literal token of the template, which says how close the
 * match is whatever the template's length.
 */
export function closeMatches(messages: PastedMessage[], misses: IndexEntry[], limit: number, common: ReadonlySet<string> | undefined): MatchResult[] {
  const docs = misses.map((entry) => ({ entry, text: literalText(entry.template), size: literalTokenCount(entry.template) })).filter((d) => d.size > 0 && d.text.length > 0);
  if (docs.length === 0) return [];
  // The alignment first, for every likely line: only a candidate it finds close can be a close match.
  const close: { d: (typeof docs)[number]; aligned: Alignment[]; mi: number }[] = [];
  const read = new Set<string>();
  messages.slice(0, 3).forEach((m, mi) => {
    const lines = variants(m);
    // A message that reads as an earlier one, token for token (its doubled spaces made single),
    // would only repeat its costs, a little higher: skipped.
    const same = [...lines.map((l) => tokens(l).map((t) => `${t.kind}:${t.text}`).join('\u0001')), withoutValues(m.text).slice(0, FUSE_QUERY_CHARS)].join('\u0002');
    if (read.has(same)) return;
    read.add(same);
    for (const d of docs) {
      // Text after the whole template does not make it far from the line (a short template then
      // counts as close only if the rest of its words are there; confidence.ts asks more).
      const budget = CLOSE_THRESHOLD * d.size + 1e-9;
      let aligned = lines.map((line) => alignTemplate(d.entry.template, line, common, budget));
      if (aligned.every((a) => a === OVER_BUDGET)) continue;
      // A reading over budget still counts once another is not: only it is aligned again, in full.
      aligned = aligned.map((a, i) => (a === OVER_BUDGET ? alignTemplate(d.entry.template, lines[i]!, common) : a));
      aligned.sort((a, b) => a.cost - b.cost);
      if (Math.min(...aligned.map((a) => a.cost - a.tail)) / d.size <= CLOSE_THRESHOLD) close.push({ d, aligned, mi });
    }
  });
  // Then fuse.js (the costlier measure; its score of one text does not depend on the others, and is
  // at most 1) for those that can still be among the first `limit`: a reading whose edits alone
  // cost more than `limit` candidates cost at most cannot.
  const lower = (c: (typeof close)[number]) => c.aligned[0]!.cost + c.mi * 0.01;
  const upper = new Map<IndexEntry, number>();
  for (const c of close) upper.set(c.d.entry, Math.min(upper.get(c.d.entry) ?? Infinity, lower(c) + FUSE_WEIGHT));
  const bound = upper.size > limit ? [...upper.values()].sort((a, b) => a - b)[limit - 1]! : Infinity;
  const best = new Map<IndexEntry, MatchResult & { cost: number }>();
  messages.slice(0, 3).forEach((m, mi) => {
    const kept = close.filter((c) => c.mi === mi && lower(c) <= bound);
    if (kept.length === 0) return;
    const fuseScores = new Map<IndexEntry, number>();
    const query = withoutValues(m.text).slice(0, FUSE_QUERY_CHARS);
    if (query) for (const hit of fuseOver(kept.map((c) => c.d)).search(query)) fuseScores.set(hit.item.entry, hit.score ?? 1);
    for (const { d, aligned } of kept) {
      const edits = aligned[0]!.cost;
      const cost = edits + FUSE_WEIGHT * (fuseScores.get(d.entry) ?? 1) + mi * 0.01;
      const prev = best.get(d.entry);
      if (!prev || cost < prev.cost) best.set(d.entry, { entry: d.entry, kind: 'close', score: edits / d.size, tailScore: aligned[0]!.tail / d.size, cost, line: m.text, values: null, classMatch: sameClass(d.entry.errorClass, m.errorClass), pastedClass: m.errorClass });
    }
  });
  return [...best.values()]
    .sort((a, b) => a.cost - b.cost || Number(b.classMatch) - Number(a.classMatch) || literalLength(a.entry.template) - literalLength(b.entry.template) || cmp(a.entry.id, b.entry.id))
    .slice(0, limit)
    .map(({ cost: _cost, ...r }) => r);
}

/** Fuse.js over candidates' literal text; a text's score does not depend on the other texts (no field norm, no location). */
function fuseOver<T extends { text: string }>(docs: T[]): Fuse<T> {
  return new Fuse(docs, {
    keys: ['text'],
    includeScore: true,
    ignoreLocation: true,
    ignoreFieldNorm: true,
    threshold: CLOSE_THRESHOLD,
    isCaseSensitive: false,
    shouldSort: false,
  });
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

