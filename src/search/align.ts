/**
 * How far a pasted line is from a template, in edits of whole words: one of the paste matcher's two
 * close-match measures (matcher.ts; the other is fuse.js's character score) for pastes the
 * template's regex no longer matches.
 *
 * Both are read as tokens: words, punctuation marks, and whole values (a quoted string, a URL, a
 * path, a number, a bracketed list of numbers). In the template a placeholder stands between them.
 * A placeholder takes one token of the line (its value) almost for nothing, and each further token
 * at a price, since a placeholder could otherwise swallow any text (capped at two words' edits,
 * since values can be long). Each edit costs too: a word added, dropped or changed 1, a misspelt word
 * (one letter added, dropped, changed, or two swapped) less, a punctuation mark less; quotes glued
 * to a placeholder (`'{name}'`) may go.
 * A line may also stop early (a paste cut short): what it does not reach of the template costs one
 * fixed amount, and its last word may be the start of the template's word there.
 *
 * Quadratic in the number of tokens, so a line keeps at most `MAX_LINE_TOKENS` tokens: its first
 * and its last.
 */
import { literalPartText, wordKey } from './keys.ts';
import { parseTemplate } from '../schema/message-template.ts';

/** A word added to or dropped from the template, or changed into another. */
export const WORD_EDIT = 1;
/**
 * A word of the line the template does not explain (added, or in place of one of the template's),
 * when it is one of the catalog's common words: such a word slips into a message more easily than a
 * rare one, so a template that leaves a rare word of the line unexplained is the less likely.
 */
export const COMMON_WORD_EDIT = 0.75;
/** A word misspelt: one letter added, dropped or changed, or two neighbours swapped. */
export const TYPO_EDIT = 0.5;
/** A punctuation mark added, dropped or changed. */
export const MARK_EDIT = 0.5;
/** A placeholder printing an integer that took something else. */
export const WRONG_VALUE = 1;
/** A placeholder that took nothing. */
export const EMPTY_HOLE = 0.5;
/** Each token a placeholder takes after its first: four cost as much as a word added. */
export const HOLE_EXTRA = 0.25;
/** The most a placeholder's further tokens cost together: a value may be long (a list, another program's message). */
export const HOLE_EXTRA_MAX = 2;
/**
 * Each token a placeholder takes, next to nothing: of two readings with as many edits, the one that
 * explains more of the line with the template's own text wins.
 */
export const HOLE_TOKEN = 0.001;
/** The line stops before the template ends. */
export const CUT = 0.5;
/**
 * The line goes on after the whole template (a later version's added hint, a tool's note after the
 * message): one fixed amount, as a word added, and a little per token so that of two templates the
 * one explaining more of the line wins.
 */
export const TAIL = 1;
export const TAIL_TOKEN = 0.01;
/** Longest line (in tokens) aligned: a longer one keeps its first and last tokens. */
export const MAX_LINE_TOKENS = 200;
const KEEP_LAST_TOKENS = 50;

type Kind = 'word' | 'mark' | 'value';
interface Token {
  text: string;
  kind: Kind;
  /** A quote glued to a placeholder in the template: dropping it costs nothing. */
  optional?: boolean;
  /** What the line's token costs when the template does not explain it. */
  cost?: number;
}
/** A placeholder; `integer`: it prints an integer (`%d`, `{:d}`) and nothing glued to it. */
interface Hole {
  kind: 'hole';
  integer: boolean;
}
type TemplateToken = Token | Hole;

/** printf's and Python's integer conversions: `%d`, `%5lld`, `%zu`, `%(n)d`, `{:d}`, `{count:>4d}`. */
const INTEGER_HOLE = /^(?:%(?:\d+\$)?[-+ 0#']*(?:\d+|\*)?(?:hh|h|ll|l|L|q|j|z|t)?[diu]|%\([^)]*\)[-+ 0#]*\d*[diu]|\{[^{}:]*:[^{}]*d\})$/;
/** Quotes around a placeholder: some programs print them, some values bring their own. */
const QUOTE = /^['"`]$/;
/** A value a placeholder printing an integer can start with. */
const INTEGER_START = /^(?:[-+]|\d+)$/;

// Values first (each one token), then words, then single marks. Quotes open and close outside words
// (`can't` is a word), numbers and URLs and paths do not end in the punctuation that follows them.
const VALUE_END = `[^\\s'"\`.,;:)\\]]`;
const TOKEN = new RegExp(
  [
    `(?<![\\p{L}\\p{N}_])(["'\`])(?:(?!\\1)[^\\n]){0,300}\\1(?![\\p{L}\\p{N}_])`,
    `\\b[a-z][a-z0-9+.-]*:\\/\\/(?:[^\\s'"\`]*${VALUE_END})?`,
    `(?<!\\S)[~.]?\\/(?:[^\\s'"\`]*${VALUE_END})?`,
    `[[(]\\s*\\d[\\d.,\\s-]*[\\])]`,
    `\\b(?:0x[0-9a-f]+|\\d(?:[\\w.:-]*\\w)?)`,
    `[\\p{L}\\p{N}_]+(?:-[\\p{L}\\p{N}_]+)*`,
    `[^\\s\\p{L}\\p{N}_]`,
  ].join('|'),
  'giu',
);
// A hyphenated compound (`non-integer`, `read-only`) is one word: a message's wording changes it,
// or drops it, as one.
const WORD = /^[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*$/u;

/** A text's tokens, words lower-cased. */
export function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const t = m[0];
    const kind: Kind = WORD.test(t) && !/^\d/.test(t) ? 'word' : t.length === 1 ? 'mark' : 'value';
    out.push({ text: kind === 'word' ? t.toLowerCase() : t, kind });
  }
  return out;
}

const templateTokensCache = new Map<string, TemplateToken[]>();

/**
 * The template's tokens. A word glued to a placeholder (`{n}ms`, `v{major}`) prints joined to its
 * value, so the placeholder stands for both; quotes glued to one (`'{name}'`) may be left out.
 */
export function templateTokens(template: string): TemplateToken[] {
  let out = templateTokensCache.get(template);
  if (out) return out;
  const list: TemplateToken[] = [];
  const hole = (integer: boolean) => {
    const prev = list[list.length - 1];
    if (prev?.kind === 'hole') prev.integer = false; // two side by side, or a word glued on: anything
    else list.push({ kind: 'hole', integer });
  };
  const parts = parseTemplate(template);
  parts.forEach((p, i) => {
    if (p.kind === 'hole') return hole(INTEGER_HOLE.test(p.raw));
    // Quotes glued to a placeholder are read apart from the text between them (`'{a}' on '{b}'`
    // is not the quoted value `' on '`), and may be left out.
    const text = literalPartText(parts, i);
    const quote = (at: number): Token[] => (text[at] === p.text[at] ? [] : [{ text: p.text[at]!, kind: 'mark', optional: true }]);
    const ts = [...quote(0), ...tokens(text), ...(p.text.length > 1 ? quote(p.text.length - 1) : [])];
    const glueBefore = i > 0 && /^\S/.test(p.text);
    const glueAfter = i + 1 < parts.length && /\S$/.test(p.text);
    ts.forEach((t, j) => {
      const glued = (glueBefore && j === 0) || (glueAfter && j === ts.length - 1);
      if (glued && t.kind === 'word') hole(false);
      else list.push(glued && t.kind === 'mark' && QUOTE.test(t.text) ? { ...t, optional: true } : t);
    });
  });
  out = list;
  if (templateTokensCache.size >= 20_000) templateTokensCache.clear();
  templateTokensCache.set(template, out);
  return out;
}

/** How many words, marks and values of literal text a template has: what a close match's edits are measured against. */
export function literalTokenCount(template: string): number {
  let n = 0;
  for (const t of templateTokens(template)) if (t.kind !== 'hole' && !t.optional) n++;
  return n;
}

/** Whether two different words are one slip of the keyboard apart (optimal string alignment distance 1). */
export function oneSlip(a: string, b: string): boolean {
  if (a.length < 4 || b.length < 4 || Math.abs(a.length - b.length) > 1) return false;
  // Compared in place, without slicing: every candidate's words meet every word of the line.
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (a.length === b.length) {
    if (sameFrom(a, i + 1, b, i + 1)) return true; // one letter changed
    return a[i] === b[i + 1] && a[i + 1] === b[i] && sameFrom(a, i + 2, b, i + 2); // two swapped
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return sameFrom(long, i + 1, short, i); // one letter added or dropped
}

/** Whether `a` from `i` on equals `b` from `j` on. */
function sameFrom(a: string, i: number, b: string, j: number): boolean {
  if (a.length - i !== b.length - j) return false;
  for (; i < a.length; i++, j++) if (a.charCodeAt(i) !== b.charCodeAt(j)) return false;
  return true;
}

const editCost = (t: Token): number => (t.kind === 'mark' ? MARK_EDIT : WORD_EDIT);
const dropCost = (t: Token): number => (t.optional ? 0 : editCost(t));

function change(t: Token, p: Token): number {
  if (t.text === p.text) return 0;
  // One word in place of another: as likely as the line's word is to slip in (see COMMON_WORD_EDIT).
  if (t.kind === 'word' && p.kind === 'word') return oneSlip(t.text, p.text) ? TYPO_EDIT : p.cost!;
  return Math.max(dropCost(t), p.cost!);
}

/** The line's tokens with what each costs unexplained; the last few lines' are kept (every candidate reads them). */
const lineCache = new Map<string, { common: ReadonlySet<string> | undefined; tokens: Token[] }>();
function lineTokens(line: string, common: ReadonlySet<string> | undefined): Token[] {
  const hit = lineCache.get(line);
  if (hit && hit.common === common) return hit.tokens;
  const all = tokens(line);
  const kept = all.length <= MAX_LINE_TOKENS ? all : [...all.slice(0, MAX_LINE_TOKENS - KEEP_LAST_TOKENS), ...all.slice(-KEEP_LAST_TOKENS)];
  const out = kept.map((t) => ({ ...t, cost: t.kind === 'word' && common?.has(wordKey(t.text)) ? COMMON_WORD_EDIT : editCost(t) }));
  if (lineCache.size >= 16) lineCache.clear();
  lineCache.set(line, { common, tokens: out });
  return out;
}

export interface Alignment {
  /** Total cost of the edits (see the constants above); 0 when the line reads as the template. */
  cost: number;
  /** The line stops before the template's end. */
  cut: boolean;
  /** What the line's tokens after the whole template cost (`TAIL`, `TAIL_TOKEN`), 0 if it ends with the template. */
  tail: number;
}

/** What `alignTemplate` returns once every reading of the line costs more than its `budget`. */
export const OVER_BUDGET: Alignment = { cost: Infinity, cut: false, tail: 0 };

/**
 * The cheapest alignment of a line with a template. `common`: the catalog's common words (as keys,
 * see keys.ts), which cost less when the template leaves them unexplained. With a `budget`, it
 * stops as soon as every reading (text after the template not counted) must cost more, and returns
 * `OVER_BUDGET`: no row of the table costs less than the one before it, so its cheapest cell
 * bounds what is left (most candidates are far from the line, and this is most of a query's time).
 */
export function alignTemplate(template: string, line: string, common?: ReadonlySet<string>, budget = Infinity): Alignment {
  const t = templateTokens(template);
  const p = lineTokens(line, common);
  const n = t.length;
  const m = p.length;
  // prev[j]: cost of the template's first i tokens against the line's first j tokens.
  let prev = new Float64Array(m + 1);
  let cur = new Float64Array(m + 1);
  for (let j = 1; j <= m; j++) prev[j] = prev[j - 1]! + p[j - 1]!.cost!;
  const last = p[m - 1];
  // Best cost of a line that ends with template tokens left over (a cut).
  let cut = Infinity;
  for (let i = 1; i <= n; i++) {
    const ti = t[i - 1]!;
    // The line ends before template token i.
    cut = Math.min(cut, prev[m]! + CUT);
    if (ti.kind === 'hole') {
      // A placeholder takes tokens j'..j-1 of the line: the first almost for nothing (unless it
      // cannot start what the placeholder prints), each further one at HOLE_EXTRA, HOLE_EXTRA_MAX
      // at most for them all.
      let run = Infinity; // min over j' < j of prev[j'] + first(j') + (HOLE_EXTRA + HOLE_TOKEN) * (j - j' - 1)
      let start = Infinity; // min over j' < j of prev[j'] + first(j')
      for (let j = 0; j <= m; j++) {
        cur[j] = Math.min(prev[j]! + EMPTY_HOLE, run, start + HOLE_EXTRA_MAX);
        const first = prev[j]! + (ti.integer && j < m && !INTEGER_START.test(p[j]!.text) ? WRONG_VALUE : HOLE_TOKEN);
        run = Math.min(run + HOLE_EXTRA + HOLE_TOKEN, first);
        start = Math.min(start, first);
      }
    } else {
      cur[0] = prev[0]! + dropCost(ti);
      for (let j = 1; j <= m; j++) {
        const pj = p[j - 1]!;
        cur[j] = Math.min(prev[j - 1]! + change(ti, pj), prev[j]! + dropCost(ti), cur[j - 1]! + pj.cost!);
      }
      // The line's last word cut inside this template word.
      if (last?.kind === 'word' && ti.kind === 'word' && ti.text.length > last.text.length && ti.text.startsWith(last.text)) {
        cut = Math.min(cut, prev[m - 1]! + CUT);
      }
    }
    [prev, cur] = [cur, prev];
    if (cut > budget) {
      let least = Infinity;
      for (let j = 0; j <= m; j++) if (prev[j]! < least) least = prev[j]!;
      if (least > budget) return OVER_BUDGET;
    }
  }
  let whole = prev[m]!;
  let tail = 0;
  for (let j = 1; j < m; j++) {
    const extra = TAIL + TAIL_TOKEN * (m - j);
    if (prev[j]! + extra < whole) {
      whole = prev[j]! + extra;
      tail = extra;
    }
  }
  return whole <= cut ? { cost: whole, cut: false, tail } : { cost: cut, cut: true, tail: 0 };
}
