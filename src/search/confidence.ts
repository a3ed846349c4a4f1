/**
 * Whether the matcher found the pasted error with confidence, or the catalog has no entry for it:
 * then the search page says so plainly, shows at most a few "possibly related" rows and offers
 * the full-text search, instead of a list of unrelated near misses.
 *
 * A near miss's edits per template token (its score) do not say it alone: a long template that
 * starts with a placeholder takes any short paste as its start, cut short, for few edits. So a match
 * must also explain the paste: most of the pasted line's words are the template's own words, and
 * enough of them. An exact match must have enough literal text, or make up most of the line, since
 * `{name} is required` matches many messages of other programs. The thresholds are chosen on the
 * benchmark's negatives (pastes of records left out of the catalog, and of other tools' errors),
 * keeping its positives (docs/benchmarks.md).
 */
import { templateLiteral, wordKey, wordsWithoutValues } from './keys.ts';
import type { MatchResult } from './match-result.ts';
import { literalLength } from '../schema/message-template.ts';

/** A near miss must score at most this (edits per literal token, align.ts). */
export const CONFIDENT_CLOSE_SCORE = 0.3;
/** A near miss whose raise site fits the frames must score at most this. */
export const CONFIDENT_SITE_CLOSE_SCORE = 0.45;
/** Share of the pasted line's words a near miss's template must have. */
export const CONFIDENT_EXPLAINED = 0.6;
/**
 * Share of a near miss's template words the line must show: a short line read as the start of a
 * long template, cut short, shows few of them (`Unknown package "x"` and `unknown package {} for
 * dimension_value_interval {}`).
 */
export const CONFIDENT_COVERED = 0.5;
/** Words of the line a near miss's template must share with it. */
export const CONFIDENT_SHARED_WORDS = 2;
/** An exact match with less literal text than this must make up `CONFIDENT_EXACT_SHARE` of the line. */
export const CONFIDENT_EXACT_LITERAL = 14;
export const CONFIDENT_EXACT_SHARE = 0.6;
/** Rows shown under "possibly related" when nothing matched with confidence. */
export const POSSIBLY_RELATED = 3;

export interface MatchEvidence {
  /** Words of the pasted line (values left out) the template's literal text has. */
  shared: number;
  /** `shared` over the line's words. */
  explained: number;
  /** The template's literal characters over the line's length. */
  literalShare: number;
  /** `shared` over the template's literal words: how much of the template the line shows. */
  covered: number;
}

const keySet = (words: string[], common: ReadonlySet<string>) => new Set(words.filter((w) => w.length >= 2).map((w) => wordKey(w.toLowerCase())).filter((k) => !common.has(k)));
const NONE: ReadonlySet<string> = new Set();

/** The words of a result's line (values left out; `common` words too) and how many of them its template's literal text has. */
function sharedWords(r: MatchResult, common: ReadonlySet<string>): { shared: number; lineWords: number; templateWords: number } {
  const literalWords = wordsWithoutValues(templateLiteral(r.entry.template)).map((w) => w.toLowerCase());
  const templateWords = keySet(literalWords, common);
  const words = wordsWithoutValues(r.line);
  const lineWords = [...keySet(words, common)];
  let shared = lineWords.filter((w) => templateWords.has(w)).length;
  // A paste cut inside a word: its last word is the start of one of the template's.
  const last = words[words.length - 1]?.toLowerCase();
  if (last && !common.has(wordKey(last)) && !templateWords.has(wordKey(last)) && literalWords.some((w) => w.length > last.length && w.startsWith(last))) shared++;
  return { shared, lineWords: lineWords.length, templateWords: templateWords.size };
}

export function evidence(r: MatchResult): MatchEvidence {
  const { shared, lineWords, templateWords } = sharedWords(r, NONE);
  return {
    shared,
    explained: lineWords ? shared / lineWords : 0,
    literalShare: r.line.length ? literalLength(r.entry.template) / r.line.length : 0,
    covered: templateWords ? Math.min(1, shared / templateWords) : 0,
  };
}

/** Words a possibly related row must share with the paste's line, the catalog's common words left out. */
export const RELATED_SHARED_WORDS = 2;

/**
 * The rows shown as "possibly related" when nothing matched with confidence: the first
 * POSSIBLY_RELATED results, in the matcher's order, that share with the paste's line words that say
 * something (`common`: the message index's words too common to file records under, from its
 * manifest): RELATED_SHARED_WORDS of them, or every word of the template, or half the line's. The
 * alignment finds any template that starts with a placeholder close to a short line, read as the
 * template cut short; such a row shares one word of many with a paste from another program, or only
 * words like "is" and "not", and is no lead. A template that fits the line whole but belongs to
 * another error than the paste names (`classClash`), or is raised where the paste's trace does not
 * go (`siteMissed`), is shown first, whatever its words.
 */
export function possiblyRelated(results: readonly MatchResult[], common: ReadonlySet<string>): MatchResult[] {
  const leads = results.filter(fitsButElsewhere);
  const others = results.filter((r) => {
    if (fitsButElsewhere(r)) return false;
    const { shared, lineWords, templateWords } = sharedWords(r, common);
    return shared >= RELATED_SHARED_WORDS || (shared > 0 && (shared >= templateWords || 2 * shared >= lineWords));
  });
  return [...leads, ...others].slice(0, POSSIBLY_RELATED);
}

/**
 * The whole template fits the line, but the paste names another error or shows it raised elsewhere:
 * the nearest thing to a match, listed first whatever its words (the matcher may rank a near miss
 * above a template whose placeholder took most of the line), with the reason on its row.
 */
const fitsButElsewhere = (r: MatchResult): boolean => r.kind !== 'close' && ruledOut(r);

/** The paste rules the result out: it names another error (`classClash`), or its frames miss the raise site (`siteMissed`). */
export const ruledOut = (r: MatchResult): boolean => r.classClash === true || r.siteMissed === true;

/**
 * A raise site fitting the paste's frames this well (frames.ts `siteFit`: the file and its line, or
 * the file and its function) confirms a match the message alone leaves in doubt (`timer error: {e}`
 * is short, yet the panic's location is its raise site).
 */
export const CONFIDENT_SITE_FIT = 2.5;

/** Whether one result is a confident match for the paste. */
export function isConfident(r: MatchResult): boolean {
  if ((r.siteFit ?? 0) >= CONFIDENT_SITE_FIT && (r.kind !== 'close' || r.score <= CONFIDENT_SITE_CLOSE_SCORE)) return true;
  // The text fits, but the paste says it is another error (one the catalog may not hold), or shows it raised elsewhere.
  if (ruledOut(r)) return false;
  const e = evidence(r);
  if (r.kind !== 'close') return literalLength(r.entry.template) >= CONFIDENT_EXACT_LITERAL || e.literalShare >= CONFIDENT_EXACT_SHARE;
  // Text after the whole template (a hint a later version added) counts against it only when some of the template is missing too.
  const score = e.covered >= 1 ? r.score - (r.tailScore ?? 0) : r.score;
  return score <= CONFIDENT_CLOSE_SCORE && e.explained >= CONFIDENT_EXPLAINED && e.covered >= CONFIDENT_COVERED && (e.shared >= CONFIDENT_SHARED_WORDS || e.explained === 1);
}

/** True when no result is a confident match: the page then says the catalog has no entry for this error. */
export function noConfidentMatch(results: readonly MatchResult[]): boolean {
  return !results.some(isConfident);
}
