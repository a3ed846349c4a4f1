import { describe, expect, it } from 'vitest';
import { isSafeRegexSource } from '../../src/schema/regex-safety.ts';

describe('isSafeRegexSource', () => {
  it.each([
    'unexpected frame! (.+?)',
    'unsupported auxiliary frame\\(s\\): expected 1 frame, got (\\d+)',
    '(\\w+) received pp_rank > 0 handshake metadata',
    '^failed to (open|close) file (.+?): (.+)$',
    'value [a-z]+ at index \\d+',
    '(?<name>\\w+) is not a (?:str|int)',
    'a{2,3}b',
  ])('accepts %s', (source) => {
    expect(isSafeRegexSource(source)).toBeNull();
  });

  it.each<[string, RegExp]>([
    ['(a+)+$', /nested quantifier/],
    ['^(\\w+\\s?)*$', /nested quantifier/],
    ['(.*a){12}', /catastrophic|nested/],
    ['(a|a)*b', /repeated alternation/],
    ['(a|ab)+c', /repeated alternation/],
    ['(\\d+|\\w+)*x', /nested quantifier|repeated alternation/],
    ['.*.*.*.*.*.*.*.*.*=', /unbounded wildcards/],
  ])('flags %s', (source, message) => {
    const problem = isSafeRegexSource(source);
    expect(problem).toMatch(message);
  });

  it('reports a pattern that does not compile', () => {
    expect(isSafeRegexSource('unexpected (frame')).toMatch(/does not compile as a JavaScript RegExp/);
    expect(isSafeRegexSource('[z-a]')).toMatch(/does not compile/);
  });
});
