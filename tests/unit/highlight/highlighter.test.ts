import { type BundledLanguage, createCssVariablesTheme, createHighlighter, createJavaScriptRegexEngine, createOnigurumaEngine, type ThemedToken } from 'shiki';
import { describe, expect, it } from 'vitest';
import { escapeCode, highlightLines, ONIGURUMA_LANGS, renderCodeBlock, TOKEN_CLASS } from '../../../src/highlight/highlighter.ts';
import { languageForPath } from '../../../src/highlight/languages.ts';

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

describe('highlightLines', () => {
  // The lines as Shiki's own codeToTokensBase tokenises them, each token a class-named span: what
  // highlightLines makes straight from the grammar's binary tokens.
  const samples: [BundledLanguage, string][] = [
    ['python', 'def f(x):\r\n    """doc\n\n    still doc"""\n    return x < 1 and "<b>" # \u202e comment\n\n'],
    ['cpp', '/* open\n comment */ template <typename T>\nint f(T& x) { return x->y(); } // done\n#define X(a) a'],
    ['typescript', 'const s = `line\n${a + 1} tail`;\nfunction g<T>(v: T): T { return v; }'],
    ['tsx', 'export const A = () => <div className="x">{"<&>"}</div>;'],
    ['javascript', 'let re = /a+b/g; // x\nconsole.log(re.test("aab"))'],
    ['rust', 'fn main() -> Result<(), Box<dyn Error>> {\n    let s = r#"raw "str""#;\n    Ok(())\n}'],
    ['go', 'func f() (int, error) {\n\treturn 0, fmt.Errorf("bad %d", 1)\n}'],
    ['ruby', 'x = <<~EOS\n  heredoc #{y}\nEOS\nputs x'],
    ['java', 'public class A { @Override public String toString() { return "a"; } }'],
  ];
  const theme = createCssVariablesTheme({ name: 'errdex', variablePrefix: '--shiki-' });
  const lineHtml = (tokens: ThemedToken[]) =>
    tokens.map((t) => (TOKEN_CLASS[t.color ?? ''] ? `<span class="${TOKEN_CLASS[t.color!]}">${escapeCode(t.content)}</span>` : escapeCode(t.content))).join('');

  it.each(samples)('%s: the HTML of Shiki\'s own tokens, line for line', async (lang, code) => {
    const shiki = await createHighlighter({
      themes: [theme],
      langs: [lang],
      engine: ONIGURUMA_LANGS.has(lang) ? createOnigurumaEngine(import('shiki/wasm')) : createJavaScriptRegexEngine({ forgiving: true }),
    });
    const expected = shiki.codeToTokensBase(code, { lang, theme, tokenizeTimeLimit: 0 }).map(lineHtml);
    expect(await highlightLines(code, lang)).toEqual(expected);
    expect(expected.join('')).toMatch(/class="t[a-z]"/);
  });

  it('plain text: each line escaped as it is', async () => {
    expect(await highlightLines('a <b>\r\n\u2067c', 'text')).toEqual(['a &lt;b&gt;\r', expect.stringContaining('data-cp="U+2067"')]);
  });
});
