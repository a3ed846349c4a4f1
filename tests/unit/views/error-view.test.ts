import { describe, expect, it } from 'vitest';
import { pageTitle, pageDescription, reportIssueUrl } from '../../../src/views/error-view.ts';
import { proseSegments, describe as describeText } from '../../../src/util/text.ts';

describe('page titles', () => {
  it('is `Class: message — owner/repo`, shortened on a word boundary', () => {
    expect(pageTitle({ errorClass: 'HandshakeError', errorMessage: 'unexpected frame! {received_frame = }', repo: 'vllm-project/vllm' })).toBe(
      'HandshakeError: unexpected frame! {received_frame = } — vllm-project/vllm',
    );
    expect(
      pageTitle({
        errorClass: 'ValueError',
        errorMessage: '{type(self).__name__} received pp_rank > 0 handshake metadata but does not support PP-disaggregated KV transfer.',
        repo: 'vllm-project/vllm',
      }),
    ).toBe('ValueError: {type(self).__name__} received pp_rank > 0 handshake… — vllm-project/vllm');
  });

  it('leaves out the class when there is none and folds white space', () => {
    expect(pageTitle({ errorClass: null, errorMessage: 'disk\nfull', repo: 'a/b' })).toBe('disk full — a/b');
  });
});

describe('text helpers', () => {
  it('splits prose into text and `code` spans without interpreting anything else', () => {
    expect(proseSegments('Call `f(x)` then <b>`g`</b> and `unclosed')).toEqual([
      { code: false, text: 'Call ' },
      { code: true, text: 'f(x)' },
      { code: false, text: ' then <b>' },
      { code: true, text: 'g' },
      { code: false, text: '</b> and `unclosed' },
    ]);
  });

  it('reads ``double`` backticks as one span, as Markdown does, and leaves unmatched runs as text', () => {
    // A Python docstring (a real record's): RST's double backticks, not four empty spans.
    expect(proseSegments("figure out if it's ``Mapped[something]`` and if so, return the ``something`` part.")).toEqual([
      { code: false, text: "figure out if it's " },
      { code: true, text: 'Mapped[something]' },
      { code: false, text: ' and if so, return the ' },
      { code: true, text: 'something' },
      { code: false, text: ' part.' },
    ]);
    // A span holding a backtick, one space inside each end dropped; a run closes only a run of its length.
    expect(proseSegments('use `` a`b `` or ```x`` then `y`')).toEqual([
      { code: false, text: 'use ' },
      { code: true, text: 'a`b' },
      { code: false, text: ' or ```x`` then ' },
      { code: true, text: 'y' },
    ]);
    // Not across lines.
    expect(proseSegments('a ``b\nc`` d')).toEqual([{ code: false, text: 'a ``b\nc`` d' }]);
    // Runs of every length up to 1,500, none closed (over a million characters): all text, read in one pass.
    const runs = Array.from({ length: 1_500 }, (_, i) => '`'.repeat(i + 1)).join('x');
    expect(proseSegments(runs)).toEqual([{ code: false, text: runs }]);
  });

  it('cuts descriptions on a word boundary', () => {
    const d = describeText('word '.repeat(100), 40);
    expect(d.length).toBeLessThanOrEqual(40);
    expect(d).toMatch(/word…$/);
    expect(pageDescription({ documentation: 'Short.' })).toBe('Short.');
  });

  it('prefills the report URL with the id, the message and the page', () => {
    const url = new URL(reportIssueUrl({ id: 'b024d3d9177721a3', errorMessage: 'unexpected frame! {x}', repo: 'o/r' }, 'https://errdex.dev/o/r/s/'));
    expect(url.searchParams.get('title')).toBe('Entry b024d3d9177721a3: unexpected frame! {x}');
    expect(url.searchParams.get('body')).toContain('https://errdex.dev/o/r/s/');
  });
});
