/**
 * The paste matcher: from a normalised paste to ranked records. Pure TypeScript shared by the
 * search page's worker and by the benchmark in Node.
 *
 * 1. keys: the words and word pairs of the paste's error lines without their values, each long
 *    word's start after the word before it, and for a short line that names a class, that class
 *    with the first letters of the message (keys.ts), less the keys the manifest lists as too
 *    common to file any record under;
 * 2. candidates: the entries of the shards those keys hash to (fetched by the caller);
 * 3. exact check: each candidate's `messagePattern`, anchored, against each error line, with string
 *    searches when it is literal text and `(.+?)` holes (hole-pattern.ts), else on RE2 (re2js:
 *    linear time, so no pattern and no paste can make it slow; the caller still runs this in a
 *    worker with a deadline, as a last resort), for the patterns whose literal text is in a line
 *    (literals.ts);
 * 4. ranking: exact matches by specificity (characters of literal text), then the class the paste
 *    named; without an exact match, close misses (typos, drift, truncation; close-matches.ts): the
 *    word edits that turn the template into the line (align.ts), with fuse.js's character score.
 */
import { compilePattern } from '../schema/pattern.ts';
import { orderBySite, siteFit, siteMissed } from './frames.ts';
import { classClash, nameFinder } from './class-prefix.ts';
import { alignTemplate, MARK_EDIT } from './align.ts';
import { closeMatches, cmp, literalText, sameClass, variants } from './close-matches.ts';
import { isConfident, noConfidentMatch, possiblyRelated, ruledOut } from './confidence.ts';
import { holdsLiterals, mayMatch } from './literals.ts';
import { firstMatch, fullMatch, parseHolePattern, readable } from './hole-pattern.ts';
import { classKey, isClassKey, isKeyWord, isPrefixPart, keyWords, leadingWord, MAX_QUERY_KEYS, prefixKeys, shardOf, templateLeadingWord, textKeys, withoutValues, wordKey, wordsWithoutValues } from './keys.ts';
import { fromTuple, type EntryTuple, type IndexEntry, type MessageIndexManifest } from './message-index.ts';
import type { MatchKind, MatchResult } from './match-result.ts';
import { normalisePaste, type NormalisedPaste, type PastedMessage } from './normalise.ts';
import { fillTemplate, literalLength, prefixLiteralMatch } from '../schema/message-template.ts';

export type { MatchKind, MatchResult } from './match-result.ts';

/** A pattern found inside a line counts as a match when it covers this share of the line. */
export const CONTAINED_SHARE = 0.7;

/**
 * The keys to look up for a paste, the likeliest error line's first; without the keys the index
 * files no record under (`common`: the manifest's list of keys too common to file under).
 */
export function queryKeys(paste: NormalisedPaste, common: ReadonlySet<string> = new Set()): string[] {
  const keys = new Set<string>();
  // The class key first: a paste cut a few letters into its message has no other (keys.ts `classKey`).
  const ck = classKeyOf(paste);
  if (ck && !common.has(ck)) keys.add(ck);
  for (const m of paste.messages) {
    // Then the pairs that meet once the values are set aside (`queue "x" is` gives `queue is`).
    // And the starts of long words with the word before each: a typo past the start, or a cut.
    // The text too: a message printed in quotes as a whole (`KeyError: '…'`) is a value in `withPrefix`.
    const all = [...new Set([...textKeys(withoutValues(m.withPrefix)), ...textKeys(withoutValues(m.text)), ...prefixKeys(m.text)])];
    // A long message has more keys than a query looks up: its words first, the longest first (records
    // are filed under rare keys, and longer words are rarer; a long template is filed under its words,
    // keys.ts `fileableKeys`), so that the end of the message counts too.
    const words = all.filter((k) => !k.includes(' ')).sort((a, b) => b.length - a.length);
    const ordered = all.length + keys.size > MAX_QUERY_KEYS ? [...words, ...all.filter((k) => k.includes(' '))] : all;
    for (const k of ordered) {
      if (keys.size >= MAX_QUERY_KEYS) return [...keys];
      if (!common.has(k)) keys.add(k);
    }
  }
  return [...keys];
}

/**
 * The class key of the likeliest error line (keys.ts `classKey`), when the line names a class and
 * is short: a line cut a few letters into its message keeps no other key of it, while a longer one
 * keeps enough keys of its own (and the class key's shard would cost it bytes for nothing).
 */
function classKeyOf(paste: NormalisedPaste): string | null {
  const m = paste.messages[0];
  if (!m || wordsWithoutValues(m.text).filter((w) => isKeyWord(w.toLowerCase())).length > CLASS_KEY_WORDS) return null;
  return classKey(m.errorClass, leadingWord(m.text));
}
/** Key words a line may have and still look up its class key. */
const CLASS_KEY_WORDS = 4;

/**
 * The words of the likeliest error line worth a full-text search: no values, none of the catalog's
 * common words (as the manifest lists them), the longest ones (longer words are rarer), in the
 * line's order.
 */
export function distinctiveWords(paste: NormalisedPaste, common: ReadonlySet<string>, max = 3): string[] {
  const line = paste.messages[0]?.text ?? '';
  const words = [...new Set(wordsWithoutValues(line))].filter((w) => isKeyWord(w.toLowerCase()) && !common.has(wordKey(w.toLowerCase())));
  const longest = new Set([...words].sort((a, b) => b.length - a.length).slice(0, max));
  return words.filter((w) => longest.has(w));
}

/** Shard numbers holding the keys, without repeats. */
export function shardsForKeys(keys: string[], manifest: Pick<MessageIndexManifest, 'shards' | 'seed'>): number[] {
  return [...new Set(keys.map((k) => shardOf(k, manifest.shards, manifest.seed)))];
}

interface Compiled {
  /** The whole line is the pattern. */
  full: (line: string) => boolean;
  /** The first match anywhere in the line, or null. */
  find: (line: string) => string | null;
}
const regexCache = new Map<string, Compiled | null>();

/**
 * A pattern of literal text and `(.+?)` holes (hole-pattern.ts: nearly every real one) is matched
 * with string searches, with RE2's answers, and compiled on RE2 only for a line it cannot read.
 * Any other runs on RE2 (re2js): an automaton, linear in the line's length whatever the pattern, so
 * no paste can make a valid catalog pattern slow (JavaScript's backtracking RegExp takes seconds on
 * `(.*) (.*) (.*) (.*) (.*)x` against a 4,000-character line). RE2 has the same syntax for what the
 * catalog uses (groups, lazy quantifiers, classes, escapes, named groups, `\b`); `translateRegExp`
 * rewrites the JavaScript-only spellings. A pattern RE2 cannot compile (lookarounds, back-references)
 * gets no regex check at all, never the backtracking engine: its record can still rank as a close
 * match through its literal text (fuse.js and align.ts).
 */
function compiled(pattern: string): Compiled | null {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    const holes = parseHolePattern(pattern);
    if (holes) {
      let re2: Compiled | null | undefined;
      const fallback = () => (re2 === undefined ? (re2 = onRE2(pattern)) : re2);
      re = {
        full: (line) => (readable(line) ? fullMatch(holes, line) : (fallback()?.full(line) ?? false)),
        find: (line) => (readable(line) ? firstMatch(holes, line) : (fallback()?.find(line) ?? null)),
      };
    } else re = onRE2(pattern);
    if (regexCache.size > 20_000) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re;
}

function onRE2(pattern: string): Compiled | null {
  try {
    const c = compilePattern(pattern);
    const any = c.ok ? c.re : null;
    return any && { full: (line) => any.matches(line), find: (line) => (any.exec(line)?.[0] as string | undefined) ?? null };
  } catch {
    return null; // beyond RE2 (or broken): never matches exactly, see above
  }
}

/** Words (as keys) of a template's literal text; every candidate's are read on every query, and twice. */
function literalWords(template: string): string[] {
  let words = literalWordsCache.get(template);
  if (!words) {
    words = [];
    for (const m of literalText(template).matchAll(WORD)) {
      const w = m[0].toLowerCase();
      if (!isKeyWord(w)) continue;
      const k = wordKey(w);
      if (!words.includes(k)) words.push(k);
    }
    if (literalWordsCache.size >= 20_000) literalWordsCache.clear();
    literalWordsCache.set(template, words);
  }
  return words;
}
const literalWordsCache = new Map<string, string[]>();
const WORD = /[\p{L}\p{N}_]+/gu;

/** Share of a template's literal words the paste has: a regex is tried only when most are there. */
const MIN_WORDS_FOR_REGEX = 0.5;

/**
 * Ranks the candidate entries against the paste. Synchronous and bounded: the CPU part of a query.
 * `common`: the index's common keys (its manifest), which weigh less in close matches (align.ts).
 */
export function rankCandidates(paste: NormalisedPaste, candidates: readonly IndexEntry[], limit = 20, common?: ReadonlySet<string>): MatchResult[] {
  // With frames, ranked beyond the limit first: records sharing the top message are then ordered by
  // them. Without, only as far as shown (close matches past it cost the most time).
  const pool = paste.frames.length > 0 ? Math.max(limit, SITE_POOL) : limit;
  const named = nameFinder(() => paste.lines.join('\n'));
  const rank = (entries: readonly IndexEntry[]): MatchResult[] =>
    firstOfEachRecord(orderBySite(rankByMessage(paste, entries, pool, common), paste.frames))
      .slice(0, limit)
      .map((r) => ({
        ...r,
        classClash: classClash(r.entry.errorClass, r.pastedClass, named),
        ...(paste.frames.length > 0 && { siteFit: siteFit(r.entry, paste.frames), siteMissed: siteMissed(r.entry, paste.frames) }),
      }));
  const results = rank(candidates);
  // Near misses are looked for only when no template fits the line whole. When the ones that fit were
  // raised where the frames do not go, the near misses are looked for without them: one raised where
  // the frames go (its message reworded since) is the answer.
  const missed = paste.frames.length > 0 && !results.some(isConfident) ? results.filter((r) => r.siteMissed && r.kind !== 'close') : [];
  if (missed.length > 0) {
    const ids = new Set(missed.map((r) => r.entry.id));
    const again = rank(candidates.filter((e) => !ids.has(e.id)));
    if (again.some(isConfident)) return belowConfident([...again, ...missed].slice(0, limit));
  }
  return belowConfident(results);
}

/**
 * Results the paste rules out (it names another class, or its frames miss the raise site), moved
 * below the first confident result when one ranks under them: the page and `errdex lookup` open the
 * first result, and a template that fits the words of another error is not it.
 */
function belowConfident(results: MatchResult[]): MatchResult[] {
  const first = results.findIndex(isConfident);
  if (first <= 0 || !results.slice(0, first).some(ruledOut)) return results;
  const above = results.slice(0, first);
  return [...above.filter((r) => !ruledOut(r)), results[first]!, ...above.filter(ruledOut), ...results.slice(first + 1)];
}

/** A record's best result only: a record is in the index once per wording of its message (message-index.ts `wordings`). */
function firstOfEachRecord(results: MatchResult[]): MatchResult[] {
  const seen = new Set<string>();
  return results.filter((r) => !seen.has(r.entry.id) && seen.add(r.entry.id));
}

/** Results ranked before the frames order records that share a message: as many as one message has raise sites, usually. */
const SITE_POOL = 40;

function rankByMessage(paste: NormalisedPaste, candidates: readonly IndexEntry[], limit: number, common?: ReadonlySet<string>): MatchResult[] {
  const messages = paste.messages;
  if (messages.length === 0 || candidates.length === 0) return [];
  const pasteClasses = messages.map((m) => m.errorClass);
  const matched: MatchResult[] = [];
  const misses: IndexEntry[] = [];
  const pasteWords = new Set(messages.flatMap((m) => textKeys(m.withPrefix).filter((k) => !k.includes(' '))));
  const wordsOf = new Map<IndexEntry, string[]>();
  const chainTails = new Set<string>();

  const lines = messages.flatMap(variants);
  for (const entry of candidates) {
    // Compiling and running hundreds of patterns is most of a cold query's time: skip those whose
    // literal words are mostly missing from the paste, and those whose pattern's literal text is
    // not in any line (they cannot match it).
    const words = literalWords(entry.template);
    wordsOf.set(entry, words);
    const shared = words.filter((w) => pasteWords.has(w)).length;
    const re = (words.length === 0 || shared >= MIN_WORDS_FOR_REGEX * words.length) && mayMatch(entry.pattern, lines) ? compiled(entry.pattern) : null;
    let best: MatchResult | null = null;
    if (re) {
      for (let mi = 0; mi < messages.length && (!best || best.kind !== 'exact'); mi++) {
        for (const line of variants(messages[mi]!)) {
          // RE2 runs only on the lines that hold the pattern's literal text.
          if (!holdsLiterals(entry.pattern, line)) continue;
          if (re.full(line)) {
            best = { entry, kind: 'exact', score: mi, line, values: fillTemplate(entry.template, line), classMatch: sameClass(entry.errorClass, pasteClasses[mi] ?? null), pastedClass: pasteClasses[mi] ?? null };
            break;
          }
          if (!best) {
            const found = re.find(line);
            // Only a template that makes up most of the line counts, or one that is the whole cause at
            // the end of a chain of contexts; a short one inside a long line is a near miss at best.
            const tail = found !== null ? chainTail(line, re) : null;
            if (tail !== null) chainTails.add(entry.id);
            const m = tail ?? (found !== null && found.length >= CONTAINED_SHARE * line.length ? found : null);
            if (m !== null) {
              best = { entry, kind: 'contained', score: mi, line: m, values: fillTemplate(entry.template, m), classMatch: sameClass(entry.errorClass, pasteClasses[mi] ?? null), pastedClass: pasteClasses[mi] ?? null };
            }
          }
        }
      }
    }
    if (best) matched.push(best);
    else misses.push(entry);
  }

  // The most specific template first: more literal text means fewer messages it could also describe.
  const specificity = new Map(matched.map((r) => [r.entry, literalLength(r.entry.template)]));
  const byKind = (k: MatchKind) => (k === 'exact' ? 0 : k === 'contained' ? 1 : 2);
  matched.sort(
    (a, b) =>
      byKind(a.kind) - byKind(b.kind) ||
      specificity.get(b.entry)! - specificity.get(a.entry)! ||
      Number(b.classMatch) - Number(a.classMatch) ||
      a.score - b.score ||
      cmp(a.entry.id, b.entry.id),
  );
  const exactCount = matched.filter((r) => r.kind === 'exact').length;
  if (misses.length === 0) return matched.slice(0, limit);
  // A short template whose last placeholder swallowed the rest of the line (`… got {}` matching
  // `… got 7 (in signal adress)`) matches exactly, yet a longer template that explains more of the
  // line with its own literal text, but for one mistyped, changed or cut-off word, is likelier.
  const better = matched.length > 0 ? outdoing(matched[0]!, messages, misses, pasteWords, wordsOf) : [];
  const ahead = better.length > 0 ? closeMatches(messages, better, limit, common) : [];
  const aheadIds = new Set(ahead.map((r) => r.entry.id));
  const rest = matched.filter((r) => !aheadIds.has(r.entry.id));
  // With the template found, other near misses would only be noise after it (and cost the most time).
  if (exactCount > 0) return [...ahead, ...rest].slice(0, limit);

  const others = misses.filter((e) => !aheadIds.has(e.id));
  const top = rest[0];
  // Below a contained match, near misses that explain the line with fewer edits move up: looked for among as many as the frames would be.
  const close = closeMatches(messages, others, top?.kind === 'contained' ? Math.max(limit, SITE_POOL) : limit, common);
  // A template found inside the line leaves some of it unexplained (`rqeuest.zone was already …`
  // holds `zone was already …`): a near miss that explains the whole line with fewer edits goes first.
  if (top?.kind === 'contained' && !chainTails.has(top.entry.id)) {
    const line = messages[top.score]!.text;
    const topCost = alignTemplate(top.entry.template, line, common).cost;
    const fewer = close.filter((r) => r.line === line && alignTemplate(r.entry.template, line, common).cost <= topCost - MARK_EDIT);
    return [...ahead, ...fewer, ...rest, ...close.filter((r) => !fewer.includes(r))].slice(0, limit);
  }
  return [...ahead, ...rest, ...close].slice(0, limit);
}

/** Colons a chain of contexts is read back from. */
const MAX_CHAIN = 8;

/**
 * The end of the line after a colon that the pattern is, whole (a full stop after it aside): the
 * cause at the end of a chain of contexts, as Go's errors, Docker and kubectl print them (`docker:
 * Error response from daemon: …`, `Error from server (BadRequest): …`), however long the chain.
 * The longest such end, or null.
 */
function chainTail(line: string, re: Compiled): string | null {
  const trimmed = line.trimEnd();
  const stop = /[.!]$/.test(trimmed) ? trimmed.slice(0, -1) : null;
  for (let at = line.indexOf(': '), n = 0; at !== -1 && n < MAX_CHAIN; at = line.indexOf(': ', at + 2), n++) {
    // Without a full stop after it first: it belongs to the chain (Docker adds one), not to a value.
    for (const end of stop === null ? [trimmed] : [stop, trimmed]) {
      const tail = end.slice(at + 2);
      if (tail !== '' && re.full(tail)) return tail;
    }
  }
  return null;
}

/** Literal words more than a matched template that a near miss must explain to rank above it. */
const MORE_WORDS = 2;
/** Literal characters more than a matched template that a cut-short start must show to rank above it. */
const MORE_PREFIX = 4;

/**
 * Near misses that explain more of the matched line than the best exact or contained match: all
 * but one of their literal words are in the paste and they have `MORE_WORDS` more of them, or the
 * line reads as their start and shows `MORE_PREFIX` more literal characters (a cut-short paste).
 */
function outdoing(top: MatchResult, messages: PastedMessage[], misses: IndexEntry[], pasteWords: Set<string>, wordsOf: Map<IndexEntry, string[]>): IndexEntry[] {
  const topWords = new Set(wordsOf.get(top.entry) ?? literalWords(top.entry.template)).size;
  const topLength = literalLength(top.entry.template);
  const line = messages[top.score]?.text ?? top.line;
  return misses.filter((e) => {
    const words = new Set(wordsOf.get(e) ?? literalWords(e.template));
    if (words.size < topWords + MORE_WORDS && literalLength(e.template) < topLength + MORE_PREFIX) return false;
    let shared = 0;
    for (const w of words) if (pasteWords.has(w)) shared++;
    if (shared >= topWords + MORE_WORDS && words.size - shared <= 1) return true;
    return literalLength(e.template) >= topLength + MORE_PREFIX && prefixLiteralMatch(e.template, line) >= topLength + MORE_PREFIX;
  });
}

export interface MatchTimings {
  normaliseMs: number;
  /** Waiting for the shards, beyond `warmMs`. */
  fetchMs: number;
  rankMs: number;
  /** Work done while the shards were on their way (`matchPaste`'s `whileFetching`). */
  warmMs: number;
}

export interface PasteMatch {
  paste: NormalisedPaste;
  /** Words for a full-text search (`distinctiveWords`). */
  fullTextWords: string[];
  results: MatchResult[];
  /** When no result is a confident match, those shown as "possibly related" (confidence.ts `possiblyRelated`); else none. */
  related: MatchResult[];
  shards: number[];
  candidates: number;
  timings: MatchTimings;
}

/** Loads one shard's entries; the browser fetches `/search-index/<version>/<n>.json`, Node reads the file. */
export type ShardLoader = (shard: number) => Promise<EntryTuple[]>;

/**
 * The whole query: normalise, fetch the shards of the paste's keys, rank. `whileFetching` runs once
 * the fetches are under way (the worker warms the matcher's code there on its first query).
 */
export async function matchPaste(text: string, manifest: MessageIndexManifest, load: ShardLoader, limit = 20, whileFetching?: () => Promise<unknown>): Promise<PasteMatch> {
  const now = () => performance.now();
  const t0 = now();
  const paste = normalisePaste(text);
  const common = commonKeys(manifest);
  const keys = queryKeys(paste, common);
  const shards = shardsForKeys(keys, manifest);
  const t1 = now();
  const fetching = Promise.all(shards.map(load));
  let warmMs = 0;
  if (whileFetching) {
    // Only a head start: its failure must not fail the query.
    await whileFetching().catch(() => undefined);
    warmMs = now() - t1;
  }
  const loaded = await fetching;
  const t2 = now();
  // By id and template: a record's earlier wordings are entries of their own (message-index.ts `wordings`).
  const byId = new Map<string, IndexEntry>();
  const wanted = new Set(keys.filter((k) => !isClassKey(k)).flatMap(keyWords).filter((w) => !isPrefixPart(w)));
  const classKeys = new Set(keys.filter(isClassKey));
  const seen = new Set<string>();
  for (const tuples of loaded) {
    for (const t of tuples) {
      const key = `${t[0]}\u0000${t[3]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      // A shard also holds entries filed under other keys of the same hash: keep those sharing a
      // word, or the class and first letters (the entry's class is its sixth field).
      if (sharesWord(t[3], wanted) || (t[5] !== null && classKeys.size > 0 && classKeys.has(classKey(t[5], templateLeadingWord(t[3])) ?? ''))) byId.set(key, fromTuple(t));
    }
  }
  const candidates = [...byId.values()];
  const results = rankCandidates(paste, candidates, limit, common);
  const t3 = now();
  return { paste, fullTextWords: distinctiveWords(paste, common), results, related: noConfidentMatch(results) ? possiblyRelated(results, common) : [], shards, candidates: candidates.length, timings: { normaliseMs: t1 - t0, fetchMs: t2 - t1 - warmMs, rankMs: t3 - t2, warmMs } };
}

const commonSets = new WeakMap<MessageIndexManifest, ReadonlySet<string>>();
function commonKeys(manifest: MessageIndexManifest): ReadonlySet<string> {
  let set = commonSets.get(manifest);
  if (!set) commonSets.set(manifest, (set = new Set(manifest.common ?? [])));
  return set;
}

function sharesWord(template: string, words: Set<string>): boolean {
  return literalWords(template).some((w) => words.has(w));
}
