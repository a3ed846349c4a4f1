/**
 * Patterns made only of literal text and lazy "anything" holes (`(.+?)`, `(.*?)`), which is what
 * the scanner writes and nearly every real record has, matched with `indexOf` instead of RE2.
 * In the browser, compiling hundreds of candidates' patterns on RE2 was the largest cost of a
 * first paste; this reads a pattern in one pass and matches in a few string searches.
 *
 * The answers are RE2's (a property test holds them to it). Why placing each literal at its
 * earliest position is exact: a hole matches any run of at least its minimum length, so a literal
 * placed earlier leaves the rest of the pattern at least as much room; and a lazy hole takes the
 * shortest run after which the rest matches (leftmost-first, as in RE2 and JavaScript), which is
 * that earliest placement. A hole never holds a line break, so `readable` leaves lines with one
 * (and lines with surrogates, whose code points RE2 counts differently) to RE2, as it does every
 * pattern with any other construct.
 */

/** `literals[0]`, hole 1, `literals[1]`, …, hole k, `literals[k]`; `minimum[i]`: hole i+1's least length. */
export interface HolePattern {
  literals: string[];
  minimum: number[];
}

/** The groups read as holes, with the least length of what they match. */
const HOLES: ReadonlyMap<string, number> = new Map([
  ['.+?', 1],
  ['.*?', 0],
]);
/** A group's opening: capturing, non-capturing, or named. */
const GROUP_OPENING = /^\((?:\?:|\?P?<[A-Za-z_][A-Za-z0-9_]*>)?/;
/** Characters with a meaning of their own in a pattern. */
const SPECIAL = /[\\^$.|?*+()[\]{}]/;
/** The escapes that stand for their character: ASCII punctuation (`\d`, `\b`, `\x41` do not). */
const ESCAPED_LITERAL = /[!-/:-@[-`{-~]/;
/** The escapes of characters the scanner writes (src/scan/message.ts `escapeRegex`). */
const ESCAPED_CONTROL: Readonly<Record<string, string>> = { n: '\n', t: '\t' };
const SURROGATE = /[\uD800-\uDFFF]/;

/** The pattern as literals and holes, or null when it holds anything else. */
export function parseHolePattern(pattern: string): HolePattern | null {
  if (SURROGATE.test(pattern)) return null;
  const literals: string[] = [];
  const minimum: number[] = [];
  const names = new Set<string>();
  let literal = '';
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1];
      const char = next === undefined ? undefined : ESCAPED_LITERAL.test(next) ? next : ESCAPED_CONTROL[next];
      if (char === undefined) return null;
      literal += char;
      i += 2;
    } else if (c === '(') {
      const opening = GROUP_OPENING.exec(pattern.slice(i, i + 40))![0];
      const body = pattern.slice(i + opening.length, i + opening.length + 4);
      const least = body.endsWith(')') ? HOLES.get(body.slice(0, -1)) : undefined;
      // Two groups of one name do not compile on RE2, so they never match there.
      const name = /<(.*)>/.exec(opening)?.[1];
      if (least === undefined || (name !== undefined && names.has(name))) return null;
      if (name !== undefined) names.add(name);
      literals.push(literal);
      minimum.push(least);
      literal = '';
      i += opening.length + 4;
    } else if (SPECIAL.test(c)) return null;
    else {
      literal += c;
      i++;
    }
  }
  literals.push(literal);
  return { literals, minimum };
}

/** Whether a hole pattern reads this line as RE2 would: no line break, no surrogate. */
export function readable(line: string): boolean {
  return !UNREADABLE.test(line);
}
const UNREADABLE = /[\n\r\u0085\u2028\u2029\uD800-\uDFFF]/;

/** Where the literals after the first, placed each as early as it can be from `from`, end; -1 if one is missing. */
function placeRest(p: HolePattern, line: string, from: number, last: number): number {
  let pos = from;
  for (let i = 1; i < last; i++) {
    const lit = p.literals[i]!;
    const at = lit === '' ? pos + p.minimum[i - 1]! : line.indexOf(lit, pos + p.minimum[i - 1]!);
    if (at < 0 || at > line.length) return -1;
    pos = at + lit.length;
  }
  return pos;
}

/** Whether the whole line is the pattern (RE2 `matches`). */
export function fullMatch(p: HolePattern, line: string): boolean {
  const first = p.literals[0]!;
  const k = p.minimum.length;
  if (k === 0) return line === first;
  if (!line.startsWith(first)) return false;
  const last = p.literals[k]!;
  if (!line.endsWith(last)) return false;
  // The middle literals as early as they go; the last one is at the end, after its hole.
  const pos = placeRest(p, line, first.length, k);
  return pos >= 0 && pos + p.minimum[k - 1]! <= line.length - last.length;
}

/** The pattern's first match in the line (RE2 `exec`), or null. */
export function firstMatch(p: HolePattern, line: string): string | null {
  const first = p.literals[0]!;
  const k = p.minimum.length;
  // Only the first place the first literal is can start a match: from any later one the rest has
  // less room. A pattern that starts with a hole starts at the line's start, for the same reason.
  const start = first === '' ? 0 : line.indexOf(first);
  if (start < 0) return null;
  // The last literal goes as early as it can too (a lazy hole before it); a last hole takes its least.
  const pos = placeRest(p, line, start + first.length, k + 1);
  return pos < 0 ? null : line.slice(start, pos);
}
