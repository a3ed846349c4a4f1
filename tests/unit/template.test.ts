import { describe, expect, it } from 'vitest';
import { parseTemplate, shortenOnWord } from '../../src/search/template.ts';

const holes = (t: string) => parseTemplate(t).filter((p) => p.kind === 'hole').map((p) => [p.raw, p.kind === 'hole' ? p.name : null]);

describe('parseTemplate', () => {
  it.each([
    ['unexpected frame! {received_frame = }', [['{received_frame = }', 'received_frame']]],
    ['expected 1 frame, got {frame_count}', [['{frame_count}', 'frame_count']]],
    ['{type(self).__name__} received pp_rank > 0', [['{type(self).__name__}', 'type(self).__name__']]],
    ['timed out after {timeout:?}', [['{timeout:?}', 'timeout']]],
    ['data parallel size ({}) exceeds', [['{}', null]]],
    ['HTTP request failed: {0}', [['{0}', '0']]],
    ['invalid value %r for %s', [['%r', null], ['%s', null]]],
    ['%(name)s is %5.2f%% done', [['%(name)s', 'name'], ['%5.2f', null]]],
    ['widget ${id} missing', [['${id}', 'id']]],
    ['bad #{name} given', [['#{name}', 'name']]],
    ['got %v, want %q', [['%v', null], ['%q', null]]],
    ['literal {{braces}} only', []],
    ['100% sure, 50 %', []],
  ])('%s', (template, expected) => {
    expect(holes(template)).toEqual(expected);
  });

  it('keeps what the program prints and how the template writes it', () => {
    expect(parseTemplate('a {{b}} %% {c}')).toEqual([
      { kind: 'text', text: 'a {b} % ', raw: 'a {{b}} %% ' },
      { kind: 'hole', raw: '{c}', name: 'c' },
    ]);
  });
});

describe('shortenOnWord', () => {
  it('leaves short text alone', () => {
    expect(shortenOnWord('short message', 70)).toBe('short message');
  });

  it('cuts on a word boundary and never inside a placeholder', () => {
    const text = '{type(self).__name__} received pp_rank > 0 handshake metadata but does not support PP-disaggregated KV transfer.';
    const cut = shortenOnWord(text, 60);
    expect(cut.length).toBeLessThanOrEqual(60);
    expect(cut.endsWith('…')).toBe(true);
    expect(text.startsWith(cut.slice(0, -1))).toBe(true);
    expect(text[cut.length - 1]).toBe(' ');
    const mid = shortenOnWord('unsupported auxiliary frame(s): expected 1 frame, got {frame_count}', 60);
    expect(mid).toBe('unsupported auxiliary frame(s): expected 1 frame, got…');
  });
});
