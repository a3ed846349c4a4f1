import { describe, expect, it } from 'vitest';
import { alignTemplate, literalTokenCount, oneSlip, OVER_BUDGET, templateTokens, tokens, CUT, HOLE_EXTRA_MAX, TAIL, TAIL_TOKEN, TYPO_EDIT, WORD_EDIT } from '../../../src/search/align.ts';

const cost = (template: string, line: string) => alignTemplate(template, line).cost;

describe('word alignment of a line with a template', () => {
  it('reads values as one token each, and words and marks around them', () => {
    expect(tokens("got 'a b' from http://x.io/y, at /var/lib/z.bin: [1, 2] 0x1f 3.2.1 10ms").map((t) => `${t.kind}:${t.text}`)).toEqual([
      'word:got', "value:'a b'", 'word:from', 'value:http://x.io/y', 'mark:,', 'word:at', 'value:/var/lib/z.bin', 'mark::', 'value:[1, 2]', 'value:0x1f', 'value:3.2.1', 'value:10ms',
    ]);
    // A word glued to a placeholder prints joined to its value; quotes glued to one may go.
    expect(templateTokens("waited {n}ms for '{name}'").map((t) => (t.kind === 'hole' ? '{}' : t.optional ? `(${t.text})` : t.text))).toEqual(['waited', '{}', 'for', "(')", '{}', "(')"]);
    expect(literalTokenCount("waited {n}ms for '{name}'")).toBe(2);
    // Between two quoted placeholders: words, not one quoted value.
    expect(templateTokens("'{a}' on relationship '{b}': gone").map((t) => (t.kind === 'hole' ? '{}' : t.optional ? `(${t.text})` : t.text))).toEqual(["(')", '{}', "(')", 'on', 'relationship', "(')", '{}', "(')", ':', 'gone']);
  });

  it('costs nothing for the template itself with values in its placeholders', () => {
    expect(cost('failed to open socket {path}: {err}', 'failed to open socket /tmp/x.sock: connection refused')).toBeLessThan(0.5);
    expect(cost("unknown option '{name}'", 'unknown option abc')).toBeLessThan(0.01);
  });

  it('counts a typo as less than a changed word, and a changed, added or dropped word as one edit', () => {
    const t = 'failed to attach promise: {}';
    expect(cost(t, 'failed to attah promise: 3')).toBeCloseTo(TYPO_EDIT, 2);
    expect(cost(t, 'failed to detach promise: 3')).toBeCloseTo(WORD_EDIT, 2);
    expect(cost(t, 'failed to promise: 3')).toBeCloseTo(WORD_EDIT, 2);
    expect(cost(t, 'failed to attach the promise: 3')).toBeCloseTo(WORD_EDIT, 2);
    expect(oneSlip('attach', 'atatch')).toBe(true);
    expect(oneSlip('attach', 'detach')).toBe(false);
  });

  it('reads a line cut short as the start of the template, its last word possibly cut too', () => {
    const t = 'timed out after {} waiting for handshake (in engine core)';
    const a = alignTemplate(t, 'timed out after 30s waiting for hand');
    expect(a.cut).toBe(true);
    expect(a.cost).toBeCloseTo(CUT, 2);
    // A template the cut line does not start: an edit more.
    expect(cost('timed out after {} waiting for lease (in engine core)', 'timed out after 30s waiting for hand')).toBeGreaterThan(a.cost + 0.5);
  });

  it('reads a line that goes on after the whole template as one added word, whatever its length', () => {
    expect(alignTemplate('This Connection is closed', 'This Connection is closed (see logs)')).toMatchObject({ cut: false, tail: TAIL + 4 * TAIL_TOKEN });
    expect(cost('This Connection is closed', 'This Connection is closed (see logs)')).toBeLessThan(cost('This {name} cannot be used directly as a column expression', 'This Connection is closed (see logs)'));
    // Of two templates, the one explaining more of the line with its own words.
    expect(cost('invalid value for {x}', 'invalid value for x: expected 3')).toBeLessThan(cost('invalid value', 'invalid value for x: expected 3'));
  });

  it('knows a placeholder printing an integer takes a number', () => {
    const line = 'timed out after (61, 1234) waiting for dimension (i';
    expect(cost('timed out after ${t} waiting for dimension (in generator context)', line)).toBeLessThan(cost('timed out after %d waiting for dimension (in lease buffer)', line));
    expect(cost('timed out after %d waiting for dimension', 'timed out after 61 waiting for dimension')).toBeLessThan(0.01);
    expect(cost('timed out after %d waiting for dimension', 'timed out after -61 waiting for dimension')).toBeLessThan(0.5);
    expect(cost('took {n:d}ms', 'took 61ms')).toBeLessThan(0.01); // a word glued on: no longer only a number
  });

  it('lets a placeholder take a long value for a bounded price, and reads a long line’s end too', () => {
    const long = `failed to load model: ${'no such file or directory '.repeat(12)}(os error 2)`;
    expect(cost('failed to laod model: {err}', long)).toBeLessThan(TYPO_EDIT + HOLE_EXTRA_MAX + 0.1); // a typo and a 60-token value
    const huge = `shard ${'a '.repeat(1_980)}overflowed`;
    expect(cost('shard {a} overflowed', huge)).toBeLessThan(HOLE_EXTRA_MAX + 0.5);
    expect(cost('shard {a} exploded', huge)).toBeGreaterThan(HOLE_EXTRA_MAX + 0.5); // its last word counts
  });

  it('does not let a placeholder swallow the words another template explains', () => {
    const line = "window 'shard_7' is not a entry lock";
    expect(cost('window %v is not a valid lock', line)).toBeLessThan(cost('window {shape:?} not found', line));
    const drift = 'unsupported version [4, 5, 7] (supported: 172ms) ( cluster node)';
    expect(cost('unsupported version {} (supported: {}) (during cluster node)', drift)).toBeLessThan(cost('unsupported version %q (supported: %d)', drift));
  });

  it('stops at a budget only when every reading costs more, and otherwise aligns as without one', () => {
    const templates = ['failed to open socket {path}: {err}', "unknown option '{name}' (expected one of {choices})", 'timed out after {secs}s waiting for {what}', '{x} is not a valid {y}', 'Row was unpickled; lookup by ColumnElement is unsupported'];
    const lines = ['failed to open socket /tmp/a.sock: refused', 'failed to opn', "unknown optoin 'verbose' (expected one of [a, b])", 'timed out after 30s waiting', 'Row was unpickled; lookup by ColumnElement currently unsupported', 'nothing alike here at all, not one word', 'x', ''];
    let stopped = 0;
    for (const t of templates) {
      for (const line of lines) {
        const full = alignTemplate(t, line);
        for (const budget of [0, 0.5, 1, 2, 3.5, 8]) {
          const a = alignTemplate(t, line, undefined, budget);
          if (a === OVER_BUDGET) {
            stopped++;
            expect(full.cost - full.tail, `${t} / ${line} / ${budget}`).toBeGreaterThan(budget);
          } else expect(a, `${t} / ${line} / ${budget}`).toEqual(full);
        }
      }
    }
    expect(stopped).toBeGreaterThan(20);
  });

  it('reads a hyphenated compound as one word: changed or dropped, it costs one edit', () => {
    expect(tokens('non-integer port --write-profiles a - b').map((t) => `${t.kind}:${t.text}`)).toEqual(['word:non-integer', 'word:port', 'mark:-', 'mark:-', 'word:write-profiles', 'word:a', 'mark:-', 'word:b']);
    const t = 'Received non-integer port arguments: {ports}';
    expect(cost(t, 'Received given port arguments: foo')).toBeCloseTo(WORD_EDIT, 2);
    expect(cost(t, 'Received port arguments: foo')).toBeCloseTo(WORD_EDIT, 2);
    expect(cost(t, 'Received non-intger port arguments: foo')).toBeCloseTo(TYPO_EDIT, 2);
  });
});
