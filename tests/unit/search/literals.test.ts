import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import { holdsLiterals, mayMatch, requiredLiterals } from '../../../src/search/literals.ts';

describe('the literal text a pattern requires', () => {
  it('takes the runs of literal characters outside groups, classes and quantified atoms', () => {
    expect(requiredLiterals('unsupported auxiliary frame\\(s\\): expected 1 frame, got (\\d+)')).toEqual(['unsupported auxiliary frame(s): expected 1 frame, got ']);
    expect(requiredLiterals('timed out after (\\d+)s waiting for handshake')).toEqual(['timed out after ', 's waiting for handshake']);
    expect(requiredLiterals('colou?r is (red|blue)x{2} [a\\]b]yes')).toEqual(['colo', 'r is ', 'yes']);
    expect(requiredLiterals('key (\\w+) equals \\1\\.\\d')).toEqual(['key ', ' equals ']);
  });

  it('gives nothing when it cannot be sure: a top-level alternative, inline flags', () => {
    expect(requiredLiterals('frame lost|frame dropped')).toEqual([]);
    expect(requiredLiterals('(?i)frame lost')).toEqual([]);
  });

  it('never rules out a line the pattern matches', () => {
    const cases: [string, string][] = [
      ['colou?r is (red|blue)x{2}', 'color is redxx'],
      ['a+bc{1,3}d*e', 'bccde'.replace(/^/, 'a')],
      ['lease (?:job-)?(\\w+) expired \\(after \\d+ms\\)', 'lease 7 expired (after 30ms)'],
      ['[{]x[}] \\{y\\}', '{x} {y}'],
      ['^path /var/(\\w+)/x\\.bin$', 'path /var/lib/x.bin'],
      // Escapes with a payload: `\x20` is a space, `\p{Lu}` an upper-case letter, not the text `20` or `{Lu}`.
      ['a\\x20bcd', 'a bcd'],
      ['\\p{Lu} not found', 'X not found'],
      ['code \\u0041 set', 'code A set'],
    ];
    for (const [pattern, line] of cases) {
      expect(RE2JS.compile(RE2JS.translateRegExp(pattern)).matches(line), pattern).toBe(true);
      expect(mayMatch(pattern, [line]), pattern).toBe(true);
    }
    expect(mayMatch('timed out after (\\d+)s waiting for handshake', ['timed out after 3s waiting for lease'])).toBe(false);
  });

  it('tells which lines hold a pattern\'s literal text, so that RE2 runs on those alone', () => {
    const pattern = 'timed out after (\\d+)s waiting for (.+)';
    // A line a part of which matches holds the text too (the matcher also looks for the template inside a line).
    expect(holdsLiterals(pattern, '[pool] timed out after 3s waiting for lease 7 (retrying)')).toBe(true);
    expect(RE2JS.compile(pattern).test('[pool] timed out after 3s waiting for lease 7 (retrying)')).toBe(true);
    expect(holdsLiterals(pattern, 'timed out after 3s')).toBe(false);
    expect(mayMatch(pattern, ['timed out after 3s', 'x timed out after 3s waiting for y'])).toBe(true);
  });
});
