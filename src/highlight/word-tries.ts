/**
 * Grammar patterns for Oniguruma with their alternations of plain words written as tries.
 *
 * Some grammars name keywords in alternations of a hundred words inside patterns tried at every
 * position of a line: C++'s function calls and definitions begin `(?!\b(?:__has_cpp_attribute|
 * reinterpret_cast|…)\b)`. Oniguruma tries such a list word by word at each position; as a trie
 * (`a(?:lign(?:as|of)|nd(?:|_eq)|sm)|…`) it tries the few words that begin with the character at
 * hand. The matches are the same, so the tokens are: words that begin with different characters never
 * match at one position, so only the order of the words that share a beginning decides, and the trie
 * keeps it (and never groups words across one that ends where the others go on); a word given twice
 * can never match where its first appearance did not, so the second is dropped. Only groups of nothing
 * but words and bars are rewritten, so no capture, back reference or subroutine call changes its
 * number; a pattern with a flag group (case-insensitive or extended words read otherwise) or a quoted
 * span is left as it is. The JavaScript engine gains nothing from it (V8 dispatches on the first
 * character itself).
 */
import type { RegexEngine } from 'shiki';

/** A group of at least five words and nothing else: a plain group, or a non-capturing one or a lookahead. */
const WORD_GROUP = /\((\?:|\?!|\?=)?((?:[A-Za-z0-9_]+\|){4,}[A-Za-z0-9_]+)\)/y;
/** Flag groups and quoted spans change how words read: such patterns are passed over whole. */
const PASSED_OVER = /\(\?[a-zA-Z-]+[:)]|\\Q/;

/** The words (in priority order) as the alternatives of a trie that keeps that order, without the group around them. */
export const wordTrie = (words: readonly string[]): string => trieAlternatives(words).join('|');

function trieAlternatives(words: readonly string[]): string[] {
  const unique = [...new Set(words)];
  // The empty word matches wherever the others do: the words on each side of it are not grouped across it.
  const empty = unique.indexOf('');
  return empty < 0 ? branches(unique) : [...branches(unique.slice(0, empty)), '', ...branches(unique.slice(empty + 1))];
}

/** Words none of which is empty, grouped by their first character in the order each character first begins one. */
function branches(words: readonly string[]): string[] {
  const byFirst = new Map<string, string[]>();
  for (const word of words) {
    const rests = byFirst.get(word[0]!);
    if (rests) rests.push(word.slice(1));
    else byFirst.set(word[0]!, [word.slice(1)]);
  }
  return [...byFirst].map(([first, rests]) => {
    const below = trieAlternatives(rests);
    return below.length === 1 ? first + below[0] : `${first}(?:${below.join('|')})`;
  });
}

/** Where the character class opening at `start` ends (the index after its `]`); classes may nest. */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  // A `]` first in a class is a character of it.
  if (pattern[i] === ']') i++;
  for (let depth = 1; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i + 1;
  }
  return pattern.length;
}

/** The pattern with each group of plain words written as a trie (see above); the same text when there is none. */
export function wordTries(pattern: string): string {
  if (!pattern.includes('|') || PASSED_OVER.test(pattern)) return pattern;
  let out = '';
  let copied = 0;
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i];
    if (c === '\\') i += 2;
    else if (c === '[') i = classEnd(pattern, i);
    else if (c === '(' && pattern.startsWith('(?#', i)) {
      // A comment: to its first `)`.
      const end = pattern.indexOf(')', i);
      i = end < 0 ? pattern.length : end + 1;
    } else if (c === '(') {
      WORD_GROUP.lastIndex = i;
      const m = WORD_GROUP.exec(pattern);
      if (m) {
        out += `${pattern.slice(copied, i)}(${m[1] ?? ''}${wordTrie(m[2]!.split('|'))})`;
        i = copied = i + m[0].length;
      } else i++;
    } else i++;
  }
  return copied === 0 ? pattern : out + pattern.slice(copied);
}

/**
 * A grammar's patterns come back in scanner after scanner (rules include the same ones), so each is
 * rewritten once; the memo is emptied when it grows past MEMO_SIZE, which end patterns that repeat
 * what their begin matched (a new pattern for each text) could make it do in a large build.
 */
const MEMO_SIZE = 20_000;

/** `engine`, its scanners made from the patterns with their word groups as tries. */
export function withWordTries(engine: RegexEngine): RegexEngine {
  const memo = new Map<string, string>();
  const rewrite = (pattern: string): string => {
    let trie = memo.get(pattern);
    if (trie === undefined) {
      if (memo.size >= MEMO_SIZE) memo.clear();
      memo.set(pattern, (trie = wordTries(pattern)));
    }
    return trie;
  };
  return {
    createScanner: (patterns) => engine.createScanner(patterns.map((p) => (typeof p === 'string' ? rewrite(p) : p))),
    createString: (s) => engine.createString(s),
  };
}
