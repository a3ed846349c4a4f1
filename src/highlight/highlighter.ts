/**
 * The one Shiki highlighter of a build, and the HTML it renders.
 *
 * Tokens get short class names instead of inline colours: the page CSS gives each class its light
 * and dark colour, so one tokenisation serves both themes and the HTML stays small and CSP-clean.
 */
import {
  applyColorReplacements,
  bundledLanguages,
  createCssVariablesTheme,
  createHighlighter,
  createJavaScriptRegexEngine,
  createOnigurumaEngine,
  type HighlighterGeneric,
} from 'shiki';
import { showBidiControls } from '../schema/text-safety.ts';
import { HighlightStore, highlightCacheFile, highlightKey, storedText } from './cache.ts';
import { PLAIN_TEXT } from './languages.ts';
import { escapeHtml } from '../util/text.ts';

const THEME = 'errdex';

/** CSS-variable colour -> token class (see styles/code.css). */
export const TOKEN_CLASS: Record<string, string> = {
  'var(--shiki-token-keyword)': 'tk',
  'var(--shiki-token-string)': 'ts',
  'var(--shiki-token-string-expression)': 'ts',
  'var(--shiki-token-comment)': 'tc',
  'var(--shiki-token-constant)': 'tn',
  'var(--shiki-token-function)': 'tf',
  'var(--shiki-token-parameter)': 'tp',
  'var(--shiki-token-punctuation)': 'tu',
  'var(--shiki-token-link)': 'tl',
};

/**
 * The languages tokenised by Oniguruma (WebAssembly) rather than Shiki's JavaScript regex engine.
 * Each engine is faster on some grammars (measured on 1,500 synthetic blocks of 14 lines each): C++'s
 * grammar leans on atomic groups and lookbehinds that the JavaScript engine has to emulate, 3.0 ms
 * a block against 1.8 with Oniguruma; JavaScript and TypeScript 1.16 against 1.04; but Python, Rust,
 * Go, Ruby, Java and C take 0.33-0.58 ms with the JavaScript engine and 0.59-0.84 with Oniguruma.
 */
export const ONIGURUMA_LANGS: ReadonlySet<string> = new Set(['cpp', 'typescript', 'tsx', 'javascript', 'jsx']);

/**
 * The shape of the line HTML, part of every cache key: bump the number when highlightLines, the tokenizer
 * options or the engines change. 2: no per-line time limit. 3: Oniguruma for ONIGURUMA_LANGS.
 */
const LINE_FORMAT = `3:${JSON.stringify(TOKEN_CLASS)}:${[...ONIGURUMA_LANGS].join(',')}`;

// Languages and themes are loaded by name at run time, so the highlighter is typed for any of them.
// biome-ignore lint/suspicious/noExplicitAny: Shiki's generic takes the bundled names, which this does not fix
type Highlighter = HighlighterGeneric<any, any>;

/** One highlighter per engine, each made on first use (a worker may only ever need one). */
const highlighters = new Map<'javascript' | 'oniguruma', Promise<Highlighter>>();
const loading = new Map<string, Promise<void>>();

function getHighlighter(lang: string): Promise<Highlighter> {
  const engine = ONIGURUMA_LANGS.has(lang) ? 'oniguruma' : 'javascript';
  let h = highlighters.get(engine);
  if (!h) {
    h = createHighlighter({
      themes: [createCssVariablesTheme({ name: THEME, variablePrefix: '--shiki-' })],
      langs: [],
      engine: engine === 'oniguruma' ? createOnigurumaEngine(import('shiki/wasm')) : createJavaScriptRegexEngine({ forgiving: true }),
    });
    highlighters.set(engine, h);
  }
  return h;
}

/** Loads a language's grammar into the highlighter of its engine and returns that highlighter; null for plain text or an unknown language. */
async function ensureLanguage(lang: string): Promise<Highlighter | null> {
  if (lang === PLAIN_TEXT || !(lang in bundledLanguages)) return null;
  const h = await getHighlighter(lang);
  if (!loading.has(lang)) loading.set(lang, h.loadLanguage(lang as keyof typeof bundledLanguages));
  await loading.get(lang);
  return h;
}

/**
 * Code text as HTML. Each bidirectional control is kept (copying the code copies it) but wrapped in
 * an isolated, labelled span: it can no longer reorder what follows ("Trojan Source"), and the
 * reader sees that it is there.
 */
export function escapeCode(s: string): string {
  return showBidiControls(s, 'html');
}

export interface CodeBlockOptions {
  /** Number the lines from here; no gutter when absent. */
  startLine?: number;
  /** The line (in file numbering) to mark as the thrown line. */
  markLine?: number | null;
  /** Accessible name of the scrollable code region. */
  label: string;
  lang: string;
  /**
   * The lines (in file numbering) shown before the block is expanded: the others get the class `far`,
   * which the page hides until the reader asks for the whole excerpt (styles/code.css).
   */
  near?: { from: number; to: number };
}

/** The colour id in a token's metadata (vscode-textmate's EncodedTokenMetadata: bits 15 to 23). */
const foreground = (metadata: number): number => (metadata & 0xff8000) >>> 15;

/**
 * The token class of each colour id of the highlighter's colour map (undefined: no class), kept per
 * highlighter and made again if its map grows.
 */
const tokenClasses = new WeakMap<Highlighter, (string | undefined)[]>();
function classesOf(h: Highlighter): (string | undefined)[] {
  const { theme, colorMap } = h.setTheme(THEME);
  let classes = tokenClasses.get(h);
  if (!classes || classes.length !== colorMap.length) {
    classes = colorMap.map((c) => TOKEN_CLASS[applyColorReplacements(c, theme.colorReplacements) ?? c]);
    tokenClasses.set(h, classes);
  }
  return classes;
}

/**
 * The HTML of each line of a block: tokens as class-named spans, nothing else; plain text (an unknown
 * language) escaped as it is.
 *
 * Straight from the grammar's binary tokens (what Shiki's codeToTokensBase reads too), line by line
 * from the grammar's initial state, without an object per token: the same HTML, about 4 % less time.
 * No time limit per line (Shiki's default is 500 ms): on a busy machine a line can take longer, and
 * the tokenizer would then leave the rest of it as one token, different from run to run: builds must
 * be byte-identical.
 */
export async function highlightLines(code: string, lang: string): Promise<string[]> {
  const h = await ensureLanguage(lang);
  if (!h) return code.split('\n').map(escapeCode);
  const lines = code.split(/\r?\n/);
  const grammar = h.getLanguage(lang);
  const classes = classesOf(h);
  let state: ReturnType<typeof grammar.tokenizeLine2>['ruleStack'] | null = null;
  return lines.map((line) => {
    // An empty line leaves the state as it is (as in Shiki).
    if (line === '') return '';
    const result = grammar.tokenizeLine2(line, state, 0);
    state = result.ruleStack;
    const tokens = result.tokens;
    const count = tokens.length / 2;
    let html = '';
    for (let j = 0; j < count; j++) {
      const start = tokens[2 * j]!;
      const end = j + 1 < count ? tokens[2 * j + 2]! : line.length;
      if (start === end) continue;
      const text = escapeCode(line.slice(start, end));
      const cls = classes[foreground(tokens[2 * j + 1]!)];
      html += cls ? `<span class="${cls}">${text}</span>` : text;
    }
    return html;
  });
}

/** The cache key of a block's lines. */
export const blockKey = (code: string, lang: string): string => highlightKey(code, lang, LINE_FORMAT);

/**
 * A block's lines from the highlight cache; on a miss, highlighted here and stored, so that the
 * next build finds them.
 */
let store: HighlightStore | undefined;
export async function cachedLines(code: string, lang: string): Promise<string[]> {
  store ??= new HighlightStore(highlightCacheFile());
  const key = blockKey(code, lang);
  const cached = store.get(key);
  if (cached) return cached;
  const lines = await highlightLines(code, lang);
  store.putMany([{ key, text: storedText(lines) }]);
  return lines;
}

/**
 * A highlighted block: a gutter of real line numbers (hidden from assistive tech and from copying)
 * beside the code, with the thrown line marked in both.
 */
export async function renderCodeBlock(code: string, options: CodeBlockOptions): Promise<string> {
  const lines = await cachedLines(code, options.lang);
  const { startLine, markLine, near } = options;
  const far = (n: number) => near !== undefined && (n < near.from || n > near.to);
  const codeLines = lines.map((html, i) => {
    const n = startLine === undefined ? undefined : startLine + i;
    const marked = n !== undefined && n === markLine;
    const cls = `line${marked ? ' marked' : ''}${n !== undefined && far(n) ? ' far' : ''}`;
    return `<span class="${cls}"${marked ? ` id="L${n}"` : ''}>${html}</span>`;
  });
  const gutter =
    startLine === undefined
      ? ''
      : `<pre class="gutter" aria-hidden="true">${lines
          .map((_, i) => {
            const n = startLine + i;
            return n === markLine ? `<span class="marked">${n}</span>` : far(n) ? `<span class="far">${n}</span>` : `<span>${n}</span>`;
          })
          .join('')}</pre>`;
  return (
    `<div class="code-block${gutter ? ' numbered' : ''}" data-lang="${escapeHtml(options.lang)}">${gutter}` +
    `<pre class="code" tabindex="0" aria-label="${escapeHtml(options.label)}"><code>${codeLines.join('')}</code></pre></div>`
  );
}
