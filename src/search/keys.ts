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
import { parseTemplate } from './template.ts';

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
    key = [...new Set(word)].sort().join('');
    if (wordKeys.size >= 50_000) wordKeys.clear();
    wordKeys.set(word, key);
  }
  return key;
}
const wordKeys = new Map<string, string>();

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

/** Index keys of a message template: the words of its literal text and their adjacent pairs. */
export function templateKeys(template: string): string[] {
  const keys = new Set<string>();
  const parts = parseTemplate(template);
  parts.forEach((part, i) => {
    if (part.kind !== 'text') return;
    const glueBefore = parts[i - 1]?.kind === 'hole';
    const glueAfter = parts[i + 1]?.kind === 'hole';
    const words = wordsOf(part.text).map(({ word, start, end }) => {
      // A word touching a placeholder prints joined to its value: `{n}ms` prints `10ms`.
      if ((glueBefore && start === 0) || (glueAfter && end === part.text.length)) return null;
      return isKeyWord(word) ? word : null;
    });
    addKeys(words, keys);
  });
  // Pairs across a placeholder (`queue {} is` gives `queue is`): a paste shows them once its values
  // are set aside (see the matcher's queryKeys), and they tell apart templates whose words are common.
  parts.forEach((part, i) => {
    const before = parts[i - 1];
    const after = parts[i + 1];
    if (part.kind !== 'hole' || before?.kind !== 'text' || after?.kind !== 'text') return;
    const last = /([\p{L}\p{N}_]+)\s+$/u.exec(before.text)?.[1]?.toLowerCase();
    const first = /^\s+([\p{L}\p{N}_]+)/u.exec(after.text)?.[1]?.toLowerCase();
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
