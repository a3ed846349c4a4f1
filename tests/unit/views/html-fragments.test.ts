import { describe, expect, it } from 'vitest';
import { proseHtml, sectionHeadingHtml, templateHtml } from '../../../src/views/html-fragments.ts';

describe('proseHtml', () => {
  it('makes a paragraph of each run of text between blank lines, backtick spans inline code', () => {
    expect(proseHtml('First `a.b()` here.\nSame paragraph.\n\n  \nSecond.')).toBe('<p>First <code>a.b()</code> here.\nSame paragraph.</p><p>Second.</p>');
  });

  it('inline: no paragraphs, blank lines kept as text', () => {
    expect(proseHtml('Set `x`\n\nthen retry', { inline: true })).toBe('Set <code>x</code>\n\nthen retry');
  });

  it('never takes the text as HTML, in code spans neither', () => {
    expect(proseHtml('<script>alert(1)</script> & `<b>"x"</b>`')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; <code>&lt;b&gt;&quot;x&quot;&lt;/b&gt;</code></p>');
  });

  it('an unmatched backtick or one across lines stays text', () => {
    expect(proseHtml('a `b\nc` d', { inline: true })).toBe('a `b\nc` d');
    expect(proseHtml('a ` b', { inline: true })).toBe('a ` b');
  });

  it('nothing for blank text', () => {
    expect(proseHtml(' \n\n ')).toBe('');
  });
});

describe('sectionHeadingHtml', () => {
  it('a heading with its anchor and a link to it', () => {
    expect(sectionHeadingHtml('meaning', 'What it means')).toBe(
      '<div class="heading-wrap level-2"><h2 id="meaning">What it means</h2>' +
        '<a class="anchor-link" href="#meaning" data-copy-link aria-label="Link to this section"><span aria-hidden="true">#</span></a></div>',
    );
  });

  it('level 3, with the title escaped', () => {
    expect(sectionHeadingHtml('try-catch', 'Try / catch <b>', 3)).toMatch(/^<div class="heading-wrap level-3"><h3 id="try-catch">Try \/ catch &lt;b&gt;<\/h3>/);
  });
});

describe('templateHtml', () => {
  it('marks each placeholder as <var>, as the template writes it', () => {
    expect(templateHtml('expected 1 frame, got {frame_count}')).toBe(
      'expected 1 frame, got <var class="placeholder" title="placeholder: filled in at run time">{frame_count}</var>',
    );
    expect(templateHtml('literal {{braces}} and %s')).toBe('literal {{braces}} and <var class="placeholder" title="placeholder: filled in at run time">%s</var>');
  });

  it('escapes the text and the placeholders', () => {
    expect(templateHtml('got <{value}> for "%s" & more')).toBe(
      'got &lt;<var class="placeholder" title="placeholder: filled in at run time">{value}</var>&gt; for &quot;' +
        '<var class="placeholder" title="placeholder: filled in at run time">%s</var>&quot; &amp; more',
    );
  });
});
