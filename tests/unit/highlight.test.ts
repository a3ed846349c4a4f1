import { describe, expect, it } from 'vitest';
import { renderCodeBlock } from '../../src/highlight/highlighter.ts';
import { languageForPath } from '../../src/highlight/languages.ts';

describe('languageForPath', () => {
  it.each([
    ['vllm/distributed/base.py', 'python'],
    ['rust/src/engine-core-client/src/error.rs', 'rust'],
    ['web/App.TSX', 'tsx'],
    ['cmd/main.go', 'go'],
    ['Dockerfile', 'dockerfile'],
    ['build/Makefile', 'make'],
    ['lib/store.widgetlang', 'text'],
    ['README', 'text'],
    ['.bashrc', 'text'],
  ])('%s -> %s', (path, lang) => {
    expect(languageForPath(path)).toBe(lang);
  });
});

describe('renderCodeBlock', () => {
  it('numbers lines from the start line, marks the thrown line and escapes the code', async () => {
    const html = await renderCodeBlock('if x < 1:\n    raise ValueError("<b>")\nreturn', { lang: 'python', label: 'excerpt', startLine: 10, markLine: 11 });
    expect(html).toContain('<pre class="gutter" aria-hidden="true"><span>10</span><span class="marked">11</span><span>12</span></pre>');
    expect(html).toContain('<span class="line marked" id="L11">');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;b&gt;');
    expect(html).toMatch(/<span class="tk">raise<\/span>/);
    expect(html).not.toMatch(/style=/);
  });

  it('falls back to plain text for an unknown language, without a gutter when unnumbered', async () => {
    const html = await renderCodeBlock('a <- b\n', { lang: 'text', label: 'fix' });
    expect(html).not.toContain('gutter');
    expect(html).toContain('<span class="line">a &lt;- b</span><span class="line"></span>');
  });
});
