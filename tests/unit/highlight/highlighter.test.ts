import { type BundledLanguage, createCssVariablesTheme, createHighlighter, createJavaScriptRegexEngine, createOnigurumaEngine, type ThemedToken } from 'shiki';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeCode, highlightLines, lineMemoStats, ONIGURUMA_LANGS, renderCodeBlock, resetLineMemos, TOKEN_CLASS } from '../../../src/highlight/highlighter.ts';
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

/** A highlight cache of the tests' own. */
const CACHE = join(mkdtempSync(join(tmpdir(), 'errdex-highlight-')), 'highlight.sqlite');

describe('renderCodeBlock', () => {
  it('numbers lines from the start line, marks the thrown line and escapes the code', async () => {
    const html = await renderCodeBlock('if x < 1:\n    raise ValueError("<b>")\nreturn', { lang: 'python', label: 'excerpt', startLine: 10, markLine: 11, cache: CACHE });
    expect(html).toContain('<pre class="gutter" aria-hidden="true">10<span class="marked">11</span>12</pre>');
    expect(html).toContain('<span class="line marked" id="L11">');
    // Lines are text between newlines; no newline beside the marked line's block.
    expect(html).toMatch(/<code><span class="tk">if<\/span>[^\n]*:<span class="line marked" id="L11">[^\n]*\)<\/span><span class="tk">return<\/span><\/code>/);
    expect(html).not.toContain('<b>');
    expect(html).toContain('"&lt;b&gt;"');
    expect(html).toMatch(/<span class="tk">raise <\/span>/);
    expect(html).not.toMatch(/style=/);
  });

  it('falls back to plain text for an unknown language, without a gutter when unnumbered', async () => {
    const html = await renderCodeBlock('a <- b\n', { lang: 'text', label: 'fix', cache: CACHE });
    expect(html).not.toContain('gutter');
    expect(html).toContain('<code>a &lt;- b\n</code>');
  });

  it('puts the lines outside `near` in a far span on each side, with the newlines next to them, so hiding them leaves no empty line', async () => {
    const code = ['a = 1', 'b = 2', 'c = 3', 'raise X("d")', 'e = 5', 'f = 6'].join('\n');
    const html = await renderCodeBlock(code, { lang: 'text', label: 'x', startLine: 1, markLine: 4, near: { from: 3, to: 5 }, cache: CACHE });
    const inner = (tag: string) => new RegExp(`<pre class="${tag}"[^>]*>(?:<code>)?(.*?)(?:</code>)?</pre>`, 's').exec(html)![1]!;
    const text = (s: string) => s.replace(/<span class="line marked"[^>]*>(.*?)<\/span>/, '\n$1\n').replace(/<span class="marked">(.*?)<\/span>/, '\n$1\n').replace(/<[^>]+>/g, '').replace(/\n+/g, '\n').trim();
    const shown = (s: string) => text(s.replace(/<span class="far">.*?<\/span>/gs, ''));
    expect(inner('code')).toBe('<span class="far">a = 1\nb = 2\n</span>c = 3<span class="line marked" id="L4">raise X("d")</span>e = 5<span class="far">\nf = 6</span>');
    expect(inner('gutter')).toBe('<span class="far">1\n2\n</span>3<span class="marked">4</span>5<span class="far">\n6</span>');
    expect(text(inner('code'))).toBe(code);
    expect(shown(inner('code'))).toBe('c = 3\nraise X("d")\ne = 5');
    expect(shown(inner('gutter'))).toBe('3\n4\n5');
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
  // Runs of one class in one span; white space joins the run before it.
  const lineHtml = (tokens: ThemedToken[]) => {
    const runs: { cls: string | undefined; text: string }[] = [];
    for (const t of tokens) {
      const last = runs.at(-1);
      const cls = /^\s+$/.test(t.content) && last ? last.cls : TOKEN_CLASS[t.color ?? ''];
      if (last && last.cls === cls) last.text += t.content;
      else runs.push({ cls, text: t.content });
    }
    return runs.map((r) => (r.cls ? `<span class="${r.cls}">${escapeCode(r.text)}</span>` : escapeCode(r.text))).join('');
  };

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

  // Excerpts of one file overlap: every window of a file whose lines open and close multi-line
  // strings, comments and blocks, highlighted one after another with the line memo warm, reads as
  // Shiki tokenizes that window alone. A window starting inside a string must not take the lines the
  // memo holds from a window that started before it (same text, another state).
  const files: [BundledLanguage, string][] = [
    ['python', 'class A:\n    """Doc\n    raise ValueError("in doc")\n    """\n    def f(self, x):\n        if x is None:\n            raise ValueError(f"bad {x!r}")\n        s = """\n        raise ValueError("in doc")\n        """\n        return s'],
    ['typescript', 'export class A {\n  f(x: number) {\n    /* note\n    throw new Error("in comment");\n    */\n    if (x < 0) {\n      throw new Error(`bad ${x}`);\n    }\n    const t = `\n    throw new Error("in template");\n    `;\n    return t;\n  }\n}'],
    // `} catch (err) {` after a try block's line, and inside a function expression left open in one: the
    // same top frame (a block), and below it what the line returns to, read otherwise (`catch` a keyword
    // or a call).
    ['typescript', 'try {\n  g();\n} catch (err) {\n  h(err);\n}\ntry {\n  if (function.dtype == null) {\n} catch (err) {\n  h(err);\n}'],
    ['cpp', 'namespace n {\nint f(int x) {\n  /* a\n  throw std::runtime_error("c");\n  */\n  if (x < 0) {\n    throw std::runtime_error("bad");\n  }\n  return x;\n}\n}'],
    ['rust', 'impl A {\n    fn f(&self) -> Result<()> {\n        let s = r#"\n        panic!("in raw");\n        "#;\n        panic!("bad {}", s);\n    }\n}'],
  ];
  it.each(files)('%s: overlapping windows read alike with the line memo as without it', async (lang, file) => {
    const shiki = await createHighlighter({
      themes: [theme],
      langs: [lang],
      engine: ONIGURUMA_LANGS.has(lang) ? createOnigurumaEngine(import('shiki/wasm')) : createJavaScriptRegexEngine({ forgiving: true }),
    });
    const lines = file.split('\n');
    const windows: string[] = [];
    for (let from = 0; from < lines.length; from++) for (const to of [from + 4, lines.length]) windows.push(lines.slice(from, to).join('\n'));
    resetLineMemos();
    for (const code of windows) expect(await highlightLines(code, lang)).toEqual(shiki.codeToTokensBase(code, { lang, theme, tokenizeTimeLimit: 0 }).map(lineHtml));
    // The memo served lines (so the comparison covered it), and not all of them.
    const { hits, tops, misses } = lineMemoStats();
    expect(hits).toBeGreaterThan(misses);
    expect(misses).toBeGreaterThanOrEqual(lines.length);
    // Windows of a file with blocks meet a line at several depths: served by its top frames too.
    if (lang === 'typescript' || lang === 'cpp') expect(tops).toBeGreaterThan(0);
  });

  it('plain text: each line escaped as it is', async () => {
    expect(await highlightLines('a <b>\r\n\u2067c', 'text')).toEqual(['a &lt;b&gt;\r', expect.stringContaining('data-cp="U+2067"')]);
  });
});
