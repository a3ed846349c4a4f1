import { describe, expect, it } from 'vitest';
import { fillTemplate, literalLength, parseTemplate, shortenOnWord } from '../../../src/schema/message-template.ts';

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

const values = (template: string, message: string) => fillTemplate(template, message)?.map((v) => [v.name ?? v.raw, v.value]) ?? null;

describe('fillTemplate', () => {

  it('gives each placeholder the value the message put there', () => {
    expect(values('unsupported auxiliary frame(s): expected 1 frame, got {frame_count}', 'unsupported auxiliary frame(s): expected 1 frame, got 3')).toEqual([['frame_count', '3']]);
    expect(values('invalid value %r for %s', "invalid value 'x' for name")).toEqual([['%r', "'x'"], ['%s', 'name']]);
    expect(values('size ${n} exceeds the maximum of ${max}', 'size 12 exceeds the maximum of 10')).toEqual([['n', '12'], ['max', '10']]);
    expect(values('{} not found', 'frame 7 not found')).toEqual([['{}', 'frame 7']]);
    expect(values('unexpected frame! {received_frame = }', "unexpected frame! received_frame = [b'']")).toEqual([['received_frame', "[b'']"]]); // Python's `{x = }` prints `x = value`
  });

  it('returns null when the literal text is not there in order', () => {
    expect(fillTemplate('expected {a} frames, got {b}', 'expected 3 frames')).toBeNull();
    expect(fillTemplate('frame {id} not found', 'frame  not found')).toBeNull(); // an empty value
    expect(fillTemplate('socket closed', 'socket closed!')).toBeNull();
    expect(fillTemplate('a {x} b', 'xa 1 b')).toBeNull();
  });

  it('matches a template without placeholders exactly, white space re-flowed', () => {
    expect(fillTemplate('socket   is\nclosed', 'socket is closed')).toEqual([]);
  });

  it('takes the shortest value that lets the rest match, without backtracking', () => {
    expect(values('{a}: {b}', 'x: y: z')).toEqual([['a', 'x'], ['b', 'y: z']]);
    const long = `${'a: '.repeat(100_000)}end`;
    const started = performance.now();
    expect(fillTemplate('{x}: {y}: {z} stop', long)).toBeNull();
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('literalLength counts the literal characters', () => {
    expect(literalLength('expected {a}, got {b}')).toBe('expected , got '.length);
  });
});
