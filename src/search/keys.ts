/**
 * The words the message index is keyed on, computed the same way from a template (at build time)
 * and from a paste (in the browser), so that a paste finds the shards its template was filed under.
 *
 * Keys are lower-case words (identifiers such as `frame_count` or `KVCache` stay whole), each
 * reduced to the set of its characters so that typos keep it (see `wordKey`), pairs of adjacent words,
 * and pairs of the words either side of a placeholder (`queue {} is` gives `queue is`). Values never become keys: words that start with a digit (`3`, `10ms`, `0x1f`)
 * and long hex strings are skipped, and a template's words glued to a placeholder (`{name}s`)
 * are left out because the printed word differs.
 */
import { parseTemplate, type TemplatePart } from '../schema/message-template.ts';
import { lastClassName } from './class-prefix.ts';

const WORD = /[\p{L}\p{N}_]+/gu;

/** A word that can be a key: not a number, hash or single character. */
export function isKeyWord(word: string): boolean {
  if (word.length < 2 || word.length > 60) return false;
  if (/^\p{N}/u.test(word)) return false;
  if (/^[0-9a-f]{8,}$/i.test(word) && /\d/.test(word)) return false;
  return true;
}

/** The words of a run of literal text, with whether each touches the run's start or end. */
function wordsOf(text: string): { word: string; start: number; end: number }[] {
  const out: { word: string; start: number; end: number }[] = [];
  for (const m of text.matchAll(WORD)) out.push({ word: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length });
  return out;
}

/**
 * A word as a key: the set of characters it uses, in order (`validate` -> `adeilt v` sorted). Typos
 * keep it: a transposed (`vlaidate`), doubled (`deadlinnes`) or dropped repeated letter spells
 * the same set, so a mistyped identifier still finds its shard; the regex check stays exact.
 */
export function wordKey(word: string): string {
  let key = wordKeys.get(word);
  if (key === undefined) {
    key = charSet(word);
    if (wordKeys.size >= 50_000) wordKeys.clear();
    wordKeys.set(word, key);
  }
  return key;
}
const wordKeys = new Map<string, string>();

/**
 * A word's characters, each once, in code order: `[...new Set(word)].sort().join('')`, which a
 * fresh page runs for every word of every candidate; for the lower-case ASCII words most are, read
 * off two bit masks instead (digits, `_`, then letters: their code order).
 */
function charSet(word: string): string {
  let digits = 0;
  let letters = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= 97 && c <= 122) letters |= 1 << (c - 97);
    else if (c >= 48 && c <= 57) digits |= 1 << (c - 48);
    else if (c === 95) digits |= 1 << 10;
    else return [...new Set(word)].sort().join('');
  }
  let out = '';
  for (let b = 0; b <= 10; b++) if (digits & (1 << b)) out += b === 10 ? '_' : String.fromCharCode(48 + b);
  for (let b = 0; b < 26; b++) if (letters & (1 << b)) out += String.fromCharCode(97 + b);
  return out;
}

/** Adds single-word keys and adjacent-pair keys (`open socket`) of consecutive key words. */
function addKeys(words: (string | null)[], into: Set<string>): void {
  const keys = words.map((w) => (w ? wordKey(w) : null));
  for (let i = 0; i < keys.length; i++) {
    const w = keys[i];
    if (!w) continue;
    into.add(w);
    const next = keys[i + 1];
    if (next) into.add(`${w} ${next}`);
  }
}

const VALUES = [
  /(?<![\p{L}\p{N}_])(["'`])(?:(?!\1).){0,300}\1(?![\p{L}\p{N}_])/gu, // quoted text (`can't … won't` is not a quote)
  /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, // URLs
  /(?:^|\s)[~.]?\/\S*/g, // paths
  /[[(]\s*[\d.,\s-]*[\])]/g, // bracketed lists of numbers
  /\b(?:0x[0-9a-f]+|\d[\w.:-]*)/gi, // numbers, hex, versions, sizes
];

/**
 * The text with what reads as a value blanked out, character for character: quoted text, URLs,
 * paths, bracketed lists of numbers, numbers. A paste's values are no keys (`/v1/shard` is not the
 * word `shard`); a template's literal text is read the same way, so both sides agree on keys.
 */
export function maskValues(text: string): string {
  let out = text;
  for (const re of VALUES) out = out.replace(re, (m) => ' '.repeat(m.length));
  return out;
}

/** The text without its values (see `maskValues`), spaces collapsed. */
export const withoutValues = (text: string): string => maskValues(text).replace(/\s+/g, ' ').trim();

/** The words of a text that are not part of a value, as written (case kept), in order; a word starts with a letter or `_`. */
export const wordsWithoutValues = (text: string): string[] => withoutValues(text).match(/[\p{L}_][\p{L}\p{N}_]*/gu) ?? [];

/** Letters of a long word that make its start key: a paste cut inside the word keeps them. */
export const PREFIX = 6;

/** The start of a word longer than `PREFIX` letters as a key part (`generator_method` -> `genera~`). */
export const prefixPart = (word: string): string => `${word.slice(0, PREFIX)}~`;

/** Whether a key part is the start of a word (`prefixPart`) rather than a whole word. */
export const isPrefixPart = (part: string): boolean => part.endsWith('~');

const QUOTE_CHARS = `'"\``;

/**
 * A template's text part `i` with the quotes glued to its placeholders blanked (as spaces, so that
 * positions keep): in `'{a}' on '{b}'` the text between the placeholders is ` on `, where it would
 * otherwise read as the quoted value `' on '` and give no word at all.
 */
export function literalPartText(parts: readonly TemplatePart[], i: number): string {
  const part = parts[i]!;
  if (part.kind !== 'text') return '';
  let text = part.text;
  if (parts[i - 1]?.kind === 'hole' && QUOTE_CHARS.includes(text[0]!)) text = ` ${text.slice(1)}`;
  if (parts[i + 1]?.kind === 'hole' && text.length > 0 && QUOTE_CHARS.includes(text[text.length - 1]!)) text = `${text.slice(0, -1)} `;
  return text;
}

/** A template's literal text, each placeholder a space and the quotes glued to them left out (see `literalPartText`). */
export function templateLiteral(template: string): string {
  const parts = parseTemplate(template);
  return parts.map((p, i) => (p.kind === 'text' ? literalPartText(parts, i) : ' ')).join('');
}

/**
 * Index keys of a message template: the words of its literal text, their adjacent pairs, and a
 * word paired with the start of the next one when that one is long (`required genera~` from
 * `required generator_method`): what a paste cut inside the long word, or with a typo past its
 * start, still shows.
 */
export function templateKeys(template: string): string[] {
  const keys = new Set<string>();
  const parts = parseTemplate(template);
  parts.forEach((part, i) => {
    if (part.kind !== 'text') return;
    const glueBefore = parts[i - 1]?.kind === 'hole';
    const glueAfter = parts[i + 1]?.kind === 'hole';
    const words = wordsOf(maskValues(literalPartText(parts, i))).map(({ word, start, end }) => {
      // A word touching a placeholder prints joined to its value: `{n}ms` prints `10ms`.
      if ((glueBefore && start === 0) || (glueAfter && end === part.text.length)) return null;
      return isKeyWord(word) ? word : null;
    });
    addKeys(words, keys);
    for (let j = 1; j < words.length; j++) {
      const [prev, word] = [words[j - 1], words[j]];
      if (prev && word && word.length > PREFIX) keys.add(`${wordKey(prev)} ${prefixPart(word)}`);
    }
  });
  // Pairs across a placeholder (`queue {} is` gives `queue is`): a paste shows them once its values
  // are set aside (see the matcher's queryKeys), and they tell apart templates whose words are common.
  parts.forEach((part, i) => {
    const before = parts[i - 1];
    const after = parts[i + 1];
    if (part.kind !== 'hole' || before?.kind !== 'text' || after?.kind !== 'text') return;
    const last = /([\p{L}\p{N}_]+)\s+$/u.exec(maskValues(literalPartText(parts, i - 1)))?.[1]?.toLowerCase();
    const first = /^\s+([\p{L}\p{N}_]+)/u.exec(maskValues(literalPartText(parts, i + 1)))?.[1]?.toLowerCase();
    if (last && first && isKeyWord(last) && isKeyWord(first)) keys.add(`${wordKey(last)} ${wordKey(first)}`);
  });
  return [...keys];
}

/** Keys of pasted text: every key word and adjacent pair, in order of appearance. */
export function textKeys(text: string): string[] {
  const keys = new Set<string>();
  addKeys(
    wordsOf(text).map(({ word }) => (isKeyWord(word) ? word : null)),
    keys,
  );
  return [...keys];
}

/**
 * Every long word's start paired with the word before it (see `templateKeys`), the last word's
 * too: a typo past a long word's first letters, or a cut inside it, leaves the key.
 */
export function prefixKeys(text: string): string[] {
  const words = wordsOf(maskValues(text));
  const out: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const [prev, word] = [words[i - 1]!.word, words[i]!.word];
    // Templates file the starts of words longer than PREFIX; a word of exactly PREFIX letters can
    // only be such a start when the paste ends with it (a cut), otherwise it is a whole word.
    const long = word.length > PREFIX || (word.length === PREFIX && i === words.length - 1);
    if (long && isKeyWord(word) && isKeyWord(prev)) out.push(`${wordKey(prev)} ${prefixPart(word)}`);
  }
  return out;
}

/** Letters of a message's first word its class key holds (`classKey`). */
export const CLASS_START = 3;

/**
 * A message's class key: the last name of its exception class and the first letters of its first
 * word (`argumenterror inv^` for `ArgumentError: invalid token: {token}`). A paste cut a few letters
 * into the message (`ArgumentError: invalid t`) keeps no other key of it, yet still shows these.
 * Null without a class, or when the message does not start with a word of `CLASS_START` letters
 * (a placeholder first: its value is no word of the template).
 */
export function classKey(errorClass: string | null, firstWord: string | null): string | null {
  if (!errorClass || !firstWord || firstWord.length < CLASS_START) return null;
  const name = lastClassName(errorClass).toLowerCase();
  return name.length >= 2 ? `${name} ${firstWord.slice(0, CLASS_START).toLowerCase()}^` : null;
}

/** Whether a key is a class key (`classKey`). */
export const isClassKey = (key: string): boolean => key.endsWith('^');

const LEADING_WORD = /^[^\p{L}\p{N}_{}%$#]*([\p{L}_][\p{L}\p{N}_]*)/u;

/** A pasted message's first word when the message starts with it (punctuation before it aside; not a word inside a value, `'/root/x' not found`), else null. */
export function leadingWord(text: string): string | null {
  const raw = LEADING_WORD.exec(text);
  const masked = LEADING_WORD.exec(maskValues(text));
  return raw && masked && raw[0].length === masked[0].length ? raw[1]! : null;
}

/** A template's first word when it starts with literal text, and the word is not glued to a placeholder after it (`v{major}`). */
export function templateLeadingWord(template: string): string | null {
  const parts = parseTemplate(template);
  const first = parts[0];
  if (first?.kind !== 'text') return null;
  const m = LEADING_WORD.exec(first.text);
  if (!m) return null;
  return parts.length > 1 && m[0].length === first.text.length ? null : m[1]!;
}

/**
 * Most keys a query looks up: a long paste is represented by its likeliest error lines (matcher.ts
 * `queryKeys`). Each key costs a shard fetch (about 3 KB, more for a key many records share), and
 * the page and `errdex lookup` aim at 200 KB per paste: 32 keeps the costliest real paste under it
 * at 100k records, with the same answers as 64 on the real pastes (docs/search.md).
 */
export const MAX_QUERY_KEYS = 32;

/**
 * The keys a record may be filed under. A paste of a long message has more keys than a query looks
 * up, and looks up its words first, the longest first (matcher.ts `queryKeys`): a template with
 * that many keys is filed under its words alone, the longest of them, so that a paste of it finds it.
 */
export function fileableKeys(keys: string[]): string[] {
  if (keys.length <= MAX_QUERY_KEYS) return keys;
  const words = keys.filter((k) => !k.includes(' '));
  const longest = new Set([...words].sort((a, b) => b.length - a.length).slice(0, LONG_TEMPLATE_WORDS));
  return words.filter((w) => longest.has(w));
}
/** Words of a long template it may be filed under: fewer than a query looks up, since a paste's values add words of their own. */
const LONG_TEMPLATE_WORDS = 24;

/** Words of a key (`open socket` has two). */
export const keyWords = (key: string): string[] => key.split(' ');

/** 32-bit FNV-1a over UTF-16 code units, seeded: a stable shard number for a key in Node and the browser. */
export function hashKey(key: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export const shardOf = (key: string, shards: number, seed: number): number => hashKey(key, seed) % shards;
