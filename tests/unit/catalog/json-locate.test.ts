import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locateJson, nesting, nestsDeeperThan } from '../../../src/catalog/json-locate.ts';

describe('locateJson', () => {
  it('maps every field path to its line', () => {
    const text = '{\n  "record": {\n    "id": "x",\n    "tags": [\n      "a",\n      "b"\n    ]\n  },\n  "datasetVersion": "v"\n}';
    const loc = locateJson(text);
    expect(loc.ok).toBe(true);
    if (!loc.ok) return;
    expect(loc.lines.get('record')).toBe(2);
    expect(loc.lines.get('record.id')).toBe(3);
    expect(loc.lines.get('record.tags')).toBe(4);
    expect(loc.lines.get('record.tags.1')).toBe(6);
    expect(loc.lines.get('datasetVersion')).toBe(9);
  });

  it.each([
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, /expected ',' or '}'/],
    ['{"a": [1, 2,]}', 1, 13, /expected a value/],
    ['{"a": "unterminated\n}', 1, 20, /raw line break inside a string/],
    ['{"a": 1} x', 1, 10, /after the end/],
    ["{'a': 1}", 1, 2, /property name in double quotes/],
    ['{"a": tru}', 1, 7, /expected a value/],
  ])('places the syntax error in %j', (text, line, column, message) => {
    const loc = locateJson(text);
    expect(loc.ok).toBe(false);
    if (loc.ok) return;
    expect([loc.line, loc.column]).toEqual([line, column]);
    expect(loc.message).toMatch(message);
  });

  it('survives absurd nesting', () => {
    const loc = locateJson('['.repeat(200_000));
    expect(loc.ok).toBe(false);
  });
});

describe('nestsDeeperThan', () => {
  it('says what nesting says, for any value and limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 8 }), (value, limit) => {
        expect(nestsDeeperThan(value, limit)).toBe(nesting(value).depth > limit);
      }),
      { numRuns: 2000 },
    );
  });

  it('answers for a value nested far deeper than the stack, without overflowing it', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(nestsDeeperThan(deep, 64)).toBe(true);
    expect(nestsDeeperThan(JSON.parse('{"__proto__": {"a": [[1]]}}') as unknown, 3)).toBe(true);
    expect(nestsDeeperThan(JSON.parse('{"__proto__": {"a": [[1]]}}') as unknown, 4)).toBe(false);
  });
});
