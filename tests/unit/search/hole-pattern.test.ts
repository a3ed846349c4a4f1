import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { escapeRegex } from '../../../src/scan/message.ts';
import { firstMatch, fullMatch, parseHolePattern, readable } from '../../../src/search/hole-pattern.ts';

const RUNS = Number(process.env.ERRDEX_FUZZ_RUNS) || 5_000;

/** What the matcher asks RE2 for, as the matcher asks it (src/schema/pattern.ts compiles this way). */
function re2(pattern: string) {
  const re = RE2JS.compile(RE2JS.translateRegExp(pattern));
  return { full: (line: string) => re.matches(line), find: (line: string) => (re.exec(line)?.[0] as string | undefined) ?? null };
}

/** Few letters, so that literals recur in lines and overlap each other: where placing them goes wrong. */
const letters = fc.constantFrom('a', 'b', 'ab', 'ba', 'aa', ' ', '.', '(', ')', 'é', '?', '{', '\t');
const literal = fc.array(letters, { maxLength: 4 }).map((l) => l.join(''));
const hole = fc.constantFrom('(.+?)', '(.*?)', '(?:.+?)', '(?<name>.*?)', '(?P<name>.+?)');
/** A pattern as the scanner writes them: literal text (escaped) and holes, in any order, holes side by side too. */
const pattern = fc
  .tuple(literal, fc.array(fc.tuple(hole, literal), { maxLength: 4 }))
  .map(([first, rest]) => escapeRegex(first) + rest.map(([h, l], i) => h.replace('<name>', `<n${i}>`) + escapeRegex(l)).join(''));
const line = fc.array(fc.constantFrom('a', 'b', 'ab', 'ba', ' ', '.', '(', ')', 'é', '?', '{', '\t', 'x'), { maxLength: 14 }).map((l) => l.join(''));

describe('hole patterns', () => {
  it('reads literal text and lazy holes, and nothing else', () => {
    expect(parseHolePattern('Argument `(.+?)` is undefined')).toEqual({ literals: ['Argument `', '` is undefined'], minimum: [1] });
    expect(parseHolePattern('(.*?)\\(s\\) at (?<at>.+?)\\.')).toEqual({ literals: ['', '(s) at ', '.'], minimum: [0, 1] });
    expect(parseHolePattern('tab\\there\\n')).toEqual({ literals: ['tab\there\n'], minimum: [] });
    for (const other of ['got (\\d+)', 'got (.+)', 'got (.*)', '^got', 'got$', 'a|b', 'colou?r', '[ab]', 'x{2}', 'a.b', '\\bword', '(?i)x', '(?=x)', 'é\\x41', '(.+?', '\\', '(?<a>.+?) (?<a>.+?)', '\uD83D\uDE00 (.+?)']) {
      expect(parseHolePattern(other), other).toBeNull();
    }
  });

  it('reads every escaped ASCII punctuation character as that character, as RE2 does', () => {
    for (let c = 33; c < 127; c++) {
      const ch = String.fromCharCode(c);
      if (/[A-Za-z0-9]/.test(ch)) continue;
      const p = `a\\${ch}b (.+?)`;
      expect(parseHolePattern(p), p).toEqual({ literals: [`a${ch}b `, ''], minimum: [1] });
      expect(re2(p).full(`a${ch}b x`), p).toBe(true);
    }
  });

  it('matches the whole line and finds the first match as RE2 does', () => {
    const cases: [string, string][] = [
      ['Argument `(.+?)` is undefined', 'Argument `id` is undefined'],
      ['Argument `(.+?)` is undefined', 'panicked: Argument `id` is undefined at src/x.rs'],
      ['a(.+?)a', 'aa'],
      ['ab(.*?)ba', 'aba'],
      ['(.+?) not found', 'x not found not found'],
      ['key (.+?)', 'key value here'],
    ];
    for (const [p, l] of cases) {
      const h = parseHolePattern(p)!;
      expect([fullMatch(h, l), firstMatch(h, l)], `${p} on ${l}`).toEqual([re2(p).full(l), re2(p).find(l)]);
    }
  });

  it('gives RE2’s answers on any pattern and line it reads (property)', () => {
    fc.assert(
      fc.property(pattern, line, (p, l) => {
        const h = parseHolePattern(p);
        expect(h).not.toBeNull();
        const re = re2(p);
        expect(fullMatch(h!, l)).toBe(re.full(l));
        expect(firstMatch(h!, l)).toBe(re.find(l));
      }),
      { numRuns: RUNS },
    );
  });

  it('gives RE2’s answers on lines made from the pattern’s own text (property)', () => {
    // Filling the holes and cutting, doubling or dropping a piece: lines that nearly match.
    fc.assert(
      fc.property(pattern, fc.array(line, { minLength: 5, maxLength: 5 }), fc.nat(), (p, fills, cut) => {
        const h = parseHolePattern(p)!;
        const filled = h.literals.map((lit, i) => (i === 0 ? lit : fills[i % 5]! + lit)).join('');
        const re = re2(p);
        for (const l of [filled, filled.slice(cut % (filled.length + 1)), filled.slice(0, cut % (filled.length + 1)), filled + filled, fills[0] + filled]) {
          expect(fullMatch(h, l), `${p} on ${JSON.stringify(l)}`).toBe(re.full(l));
          expect(firstMatch(h, l), `${p} on ${JSON.stringify(l)}`).toBe(re.find(l));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('leaves to RE2 the lines whose line breaks or surrogates it would count differently', () => {
    for (const l of ['a\nb', 'a\r', '\u2028', '\u0085', '\uD83D\uDE00', '\uD800']) expect(readable(l)).toBe(false);
    expect(readable('plain é line\twith tab')).toBe(true);
  });
});
