/**
 * The one Shiki highlighter of a build, and the HTML it renders.
 *
 * Tokens get short class names instead of inline colours: the page CSS gives each class its light
 * and dark colour, so one tokenisation serves both themes and the HTML stays small and CSP-clean.
 * Small matters here: the excerpt is the largest part of an error page, so a run of tokens of one
 * colour is one span, text in the text's own colour (punctuation) none, and lines are plain text
 * between newlines (only the thrown line is an element of its own).
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
import { HighlightStore, highlightKey, storedText } from './cache.ts';
import { PLAIN_TEXT } from './languages.ts';
import { withSharedScanners } from './shared-scanners.ts';
import { withWordTries } from './word-tries.ts';
import { escapeHtml } from '../util/text.ts';

const THEME = 'errdex';

/**
 * CSS-variable colour -> token class (see styles/code.css). Punctuation has none: its colour is the
 * text's, in both themes (styles/tokens.css).
 */
export const TOKEN_CLASS: Record<string, string> = {
  'var(--shiki-token-keyword)': 'tk',
  'var(--shiki-token-string)': 'ts',
  'var(--shiki-token-string-expression)': 'ts',
  'var(--shiki-token-comment)': 'tc',
  'var(--shiki-token-constant)': 'tn',
  'var(--shiki-token-function)': 'tf',
  'var(--shiki-token-parameter)': 'tp',
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
 * options or the engines change. 2: no per-line time limit. 3: Oniguruma for ONIGURUMA_LANGS. 4: runs
 * of one class in one span.
 */
const LINE_FORMAT = `4:${JSON.stringify(TOKEN_CLASS)}:${[...ONIGURUMA_LANGS].join(',')}`;

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
      engine: engine === 'oniguruma' ? createOnigurumaEngine(import('shiki/wasm')).then((e) => withSharedScanners(withWordTries(e))) : createJavaScriptRegexEngine({ forgiving: true }),
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
 * Code text as HTML element content. Each bidirectional control is kept (copying the code copies it)
 * but wrapped in an isolated, labelled span: it can no longer reorder what follows ("Trojan Source"),
 * and the reader sees that it is there. Quotes stay quotes: they are safe in element content, and code
 * is full of them (`&` is escaped first, so no `&quot;` of the code's own is touched).
 */
export function escapeCode(s: string): string {
  return showBidiControls(s, 'html').replaceAll('&quot;', '"');
}

export interface CodeBlockOptions {
  /** Number the lines from here; no gutter when absent. */
  startLine?: number;
  /** The line (in file numbering) to mark as the thrown line. */
  markLine?: number | null;
  /** Accessible name of the scrollable code region. */
  label: string;
  lang: string;
  /** The highlight cache file (cache.ts `highlightCacheFile`; pages get it from src/context.ts `highlightCache`). */
  cache: string;
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

/** White space only: it takes the class of the run it is in. */
const BLANK = /^\s+$/;
const spanOf = (html: string, cls: string | undefined): string => (cls && html ? `<span class="${cls}">${html}</span>` : html);

type Grammar = ReturnType<Highlighter['getLanguage']>;
type RuleStack = ReturnType<Grammar['tokenizeLine2']>['ruleStack'];

/**
 * vscode-textmate's state (StateStackImpl) as the memo reads it: fields and calls its public type
 * hides. A state is a chain of frames, one per rule in force, each pointing at the one below.
 */
interface Frame {
  parent: Frame | null;
  depth: number;
  ruleId: number;
  endRule: string | null;
  beginRuleCapturedEOL: boolean;
  nameScopesList: ScopeList | null;
  contentNameScopesList: ScopeList | null;
  toStateStackFrame(): object;
  constructor: { pushFrame(self: Frame, frame: object): Frame };
}
interface ScopePath {
  parent: ScopePath | null;
  scopeName: string;
}
interface ScopeList {
  tokenAttributes: number;
  scopePath: ScopePath;
  getExtensionIfDefined(base: ScopeList | null): { scopeNames: string[] }[] | undefined;
}
/** The grammar as the memo reads it: its rules (to tell a while rule) and its injections. */
interface GrammarInternals {
  getRule(id: number): object | undefined;
  getInjections(): unknown[];
}

/**
 * A line's HTML and the tokenizer's state after it, by the state before it and the line's text.
 * Tokenizing a line is a function of those two alone (with no time limit), so a line met again in
 * the same state is not tokenized again: excerpts of one file overlap, and code repeats across a
 * catalog's blocks. The state is named by its content (stateId), not its object: two blocks reach
 * equal states by different objects, and so resynchronise after a line that closes what they opened.
 *
 * And by the top of the state alone (`tops`): a line reads only the frames it reaches, down to the
 * lowest one it returns to, and that frame's colours; the frames below are never looked at. Two
 * excerpts of one file that begin on different lines meet a line inside a block at different depths
 * (each counts the braces it saw open): the same top frames, another state. Such a line is taken
 * from the memo too, its new frames put on the current state's (TopEntry).
 */
interface LineMemo {
  lines: Map<string, { html: string; state: RuleStack }>;
  /** Each state's id, by object; ids of parents name their children's (a state's chain is its parent's plus one frame). */
  ids: WeakMap<object, number>;
  /** A state's content (its frame and its parent's id) -> its id. */
  byContent: Map<string, number>;
  /** By the line and its top frame's key: the lines tokenized in states of that top. Null: the grammar has injections, which read every scope in force. */
  tops: Map<string, TopEntry[]> | null;
  /** Each frame's own key's number (frameKey), by object; null: a frame the top memo must not read past (usableFrames). */
  frameKeys: WeakMap<object, number | null>;
  /** A frame's own key -> its number. */
  frameIds: Map<string, number>;
  /** Whether the top memo may be used in a state: no frame of it reads below itself (usableFrames). */
  usable: WeakMap<object, boolean>;
  /** The theme's scopes that a theme rule names as an ancestor (`a b`: `a`): a scope below them can change a colour above. */
  ancestorScopes: readonly string[];
  grammar: GrammarInternals;
}
/** A line tokenized in a state whose top frames were `frames` (their keys, top first): its HTML, and the frames it left above the lowest of them. */
interface TopEntry {
  frames: number[];
  html: string;
  /** The new state's frames above the lowest of `frames`, lowest first (vscode-textmate's StateStackFrame). */
  push: object[];
}
/**
 * The memo of the grammar last used: a highlight worker takes its blocks sorted by language, so an
 * earlier grammar's lines would hardly be met again. Beyond MEMO_LINES lines it starts again, so that
 * a worker's memory stays bounded (some 60 MB).
 */
let current: { grammar: Grammar; memo: LineMemo } | null = null;
const MEMO_LINES = 200_000;
/** Lines taken from a memo (`tops`: by the top of their state), and lines tokenized, since the memos were last reset. */
const memoStats = { hits: 0, tops: 0, misses: 0 };
export const lineMemoStats = (): Readonly<typeof memoStats> => ({ ...memoStats });
/** Forgets the line memo (tests, benchmarks: what a fresh process starts with). */
export function resetLineMemos(): void {
  current = null;
  memoStats.hits = 0;
  memoStats.tops = 0;
  memoStats.misses = 0;
}

function memoOf(grammar: Grammar, h: Highlighter): LineMemo {
  if (!current || current.grammar !== grammar || current.memo.lines.size > MEMO_LINES) {
    const internals = grammar as unknown as GrammarInternals;
    current = {
      grammar,
      memo: {
        lines: new Map(),
        ids: new WeakMap(),
        byContent: new Map(),
        tops: internals.getInjections().length === 0 ? new Map() : null,
        frameKeys: new WeakMap(),
        frameIds: new Map(),
        usable: new WeakMap(),
        ancestorScopes: ancestorScopes(h),
        grammar: internals,
      },
    };
  }
  return current.memo;
}

/**
 * The scopes a rule of the theme names as ancestors (`markup.fenced_code meta.embedded.block`:
 * `markup.fenced_code`). A colour is the theme's match for a scope and its ancestors; with no such
 * ancestor in force, it is the match for the scope alone, whatever lies below.
 */
function ancestorScopes(h: Highlighter): string[] {
  const { theme } = h.setTheme(THEME);
  const selectors = (theme.settings ?? []).flatMap((rule) => (rule.scope === undefined ? [] : [rule.scope].flat()));
  return [...new Set(selectors.flatMap((s) => s.split(',').flatMap((one) => one.trim().split(/\s+/).slice(0, -1)).filter((p) => p !== '>')))];
}

/**
 * The state's id: equal for states the tokenizer cannot tell apart. It takes in every field a state
 * carries across lines (the rule, the end pattern a begin rule captured, whether that capture held the
 * line's end, the scope names in force and those of the rule's content), more than vscode-textmate's
 * own StateStack.equals compares, so two states with one id tokenize every line alike.
 */
function stateId(memo: LineMemo, state: RuleStack): number {
  const own = memo.ids.get(state);
  if (own !== undefined) return own;
  const s = state as unknown as Frame;
  const content = JSON.stringify([
    s.parent ? stateId(memo, s.parent as unknown as RuleStack) : -1,
    s.ruleId,
    s.endRule,
    s.beginRuleCapturedEOL,
    s.nameScopesList?.scopePath?.toString() ?? null,
    s.contentNameScopesList?.scopePath?.toString() ?? null,
  ]);
  let id = memo.byContent.get(content);
  if (id === undefined) {
    id = memo.byContent.size;
    memo.byContent.set(content, id);
  }
  memo.ids.set(state, id);
  return id;
}

/**
 * A frame's key without the frames below it: its rule, end pattern and end-of-line capture, the scopes
 * it adds and the colours (token attributes) they and its content carry. Those colours sum up the
 * frames below, so two frames of one key colour their lines alike. Null when its scopes do not extend
 * its parent's (vscode-textmate's invariant; not met, the frame is not read past).
 */
function frameKey(memo: LineMemo, f: Frame): number | null {
  let id = memo.frameKeys.get(f);
  if (id !== undefined) return id;
  const names = f.nameScopesList?.getExtensionIfDefined(f.parent?.nameScopesList ?? null);
  const content = f.contentNameScopesList?.getExtensionIfDefined(f.nameScopesList);
  if (names === undefined || content === undefined) id = null;
  else {
    const key = JSON.stringify([f.ruleId, f.endRule, f.beginRuleCapturedEOL, names, content, f.nameScopesList?.tokenAttributes ?? null, f.contentNameScopesList?.tokenAttributes ?? null]);
    id = memo.frameIds.get(key);
    if (id === undefined) memo.frameIds.set(key, (id = memo.frameIds.size));
  }
  memo.frameKeys.set(f, id);
  return id;
}

/**
 * Whether a line tokenized in this state reads no frame below the lowest one it returns to. Not so
 * when a frame is a while rule (its condition is tried at the start of every line, however deep it
 * lies), when a scope in force is one a theme rule names as an ancestor (a colour above would depend
 * on it), or when a frame has no key.
 */
function usableFrames(memo: LineMemo, f: Frame): boolean {
  let usable = memo.usable.get(f);
  if (usable !== undefined) return usable;
  const rule = memo.grammar.getRule(f.ruleId);
  usable = (f.parent === null || usableFrames(memo, f.parent)) && !(rule !== undefined && 'whileCaptures' in rule) && frameKey(memo, f) !== null;
  // The scopes this frame adds: its content's path down to its parent's (the parent's own are checked with it).
  const below = f.parent?.contentNameScopesList?.scopePath ?? null;
  for (let path = f.contentNameScopesList?.scopePath ?? null; usable && path && path !== below; path = path.parent) {
    const scope = path.scopeName;
    if (memo.ancestorScopes.some((a) => scope === a || (scope.startsWith(a) && scope[a.length] === '.'))) usable = false;
  }
  memo.usable.set(f, usable);
  return usable;
}

/** The line as the top memo holds it in this state: its HTML and the state after it; null when it holds none. */
function fromTops(memo: LineMemo, state: Frame, line: string): { html: string; state: RuleStack } | null {
  // A state of one frame is all top: the state memo has looked already.
  if (!memo.tops || state.depth === 1 || !usableFrames(memo, state)) return null;
  const entries = memo.tops.get(`${frameKey(memo, state)}\u0000${line}`);
  if (!entries) return null;
  for (const entry of entries) {
    // The entry's frames below the top, against the state's.
    let base: Frame | null = state;
    for (let i = 1; i < entry.frames.length && base; i++) {
      base = base.parent;
      if (base === null || frameKey(memo, base) !== entry.frames[i]) base = null;
    }
    if (!base) continue;
    let next = base;
    for (const frame of entry.push) next = next.constructor.pushFrame(next, frame);
    return { html: entry.html, state: next as unknown as RuleStack };
  }
  return null;
}

/**
 * Keeps a line just tokenized in the top memo: the frames of `before` down to the lowest one the
 * line returned to (the frame `before` and `after` share, by object: the tokenizer pops to a frame
 * and pushes new ones on it), and the frames `after` holds above it.
 */
function keepTop(memo: LineMemo, before: Frame, after: Frame, line: string, html: string): void {
  // In a state of one frame, the line's entry would be the state memo's.
  if (!memo.tops || before.depth === 1 || !usableFrames(memo, before)) return;
  // The frame in common: `after`'s frames above `before`'s depth are new; below it, the two chains meet.
  // A new frame is kept as vscode-textmate describes it (`toStateStackFrame`), which holds its scopes
  // only where they extend its parent's: a frame whose do not (no key) leaves the line to the state memo.
  const push: object[] = [];
  const keep = (f: Frame): boolean => {
    if (frameKey(memo, f) === null) return false;
    push.push(f.toStateStackFrame());
    return true;
  };
  let above: Frame | null = after;
  while (above && above.depth > before.depth) {
    if (!keep(above)) return;
    above = above.parent;
  }
  const frames: number[] = [];
  let base: Frame | null = before;
  while (base && above && base.depth > above.depth) {
    frames.push(frameKey(memo, base)!);
    base = base.parent;
  }
  while (base && above && base !== above) {
    frames.push(frameKey(memo, base)!);
    if (!keep(above)) return;
    base = base.parent;
    above = above.parent;
  }
  // A line that emptied the state (no frame in common) is left to the state memo.
  if (!base || base !== above) return;
  frames.push(frameKey(memo, base)!);
  push.reverse();
  const key = `${frames[0]}\u0000${line}`;
  const entries = memo.tops.get(key);
  if (entries) entries.push({ frames, html, push });
  else memo.tops.set(key, [{ frames, html, push }]);
}

/**
 * The HTML of each line of a block: tokens as class-named spans, nothing else; plain text (an unknown
 * language) escaped as it is. Neighbouring tokens of one class share a span, and so does white space
 * with the token before it (it has no colour to show), so a line has a span per change of colour.
 *
 * Straight from the grammar's binary tokens (what Shiki's codeToTokensBase reads too), line by line
 * from the grammar's initial state, without an object per token: the same HTML, about 4 % less time.
 * No time limit per line (Shiki's default is 500 ms): on a busy machine a line can take longer, and
 * the tokenizer would then leave the rest of it as one token, different from run to run: builds must
 * be byte-identical. A line already tokenized in an equal state, or in a state of the same top
 * frames, is taken from the memo (LineMemo).
 */
export async function highlightLines(code: string, lang: string): Promise<string[]> {
  const h = await ensureLanguage(lang);
  if (!h) return code.split('\n').map(escapeCode);
  const lines = code.split(/\r?\n/);
  const grammar = h.getLanguage(lang);
  const classes = classesOf(h);
  const memo = memoOf(grammar, h);
  let state: RuleStack | null = null;
  return lines.map((line) => {
    // An empty line leaves the state as it is (as in Shiki).
    if (line === '') return '';
    // The first line is tokenized as a first line (`\A` matches there): its own key.
    const key = `${state === null ? 'first' : stateId(memo, state)}\u0000${line}`;
    const seen = memo.lines.get(key);
    if (seen) {
      memoStats.hits++;
      state = seen.state;
      return seen.html;
    }
    const top = state === null ? null : fromTops(memo, state as unknown as Frame, line);
    if (top) {
      memoStats.tops++;
      memo.lines.set(key, top);
      state = top.state;
      return top.html;
    }
    memoStats.misses++;
    const result = grammar.tokenizeLine2(line, state, 0);
    const html = lineHtml(line, result.tokens, classes);
    if (state !== null) keepTop(memo, state as unknown as Frame, result.ruleStack as unknown as Frame, line, html);
    state = result.ruleStack;
    memo.lines.set(key, { html, state });
    return html;
  });
}

/** One line's HTML from its binary tokens (start offset, metadata pairs). */
function lineHtml(line: string, tokens: Uint32Array, classes: readonly (string | undefined)[]): string {
  const count = tokens.length / 2;
  let html = '';
  let run = '';
  let runClass: string | undefined;
  for (let j = 0; j < count; j++) {
    const start = tokens[2 * j]!;
    const end = j + 1 < count ? tokens[2 * j + 2]! : line.length;
    if (start === end) continue;
    const text = line.slice(start, end);
    const cls = BLANK.test(text) ? runClass : classes[foreground(tokens[2 * j + 1]!)];
    if (cls !== runClass) {
      html += spanOf(run, runClass);
      run = '';
      runClass = cls;
    }
    run += escapeCode(text);
  }
  return html + spanOf(run, runClass);
}

/** The cache key of a block's lines. */
export const blockKey = (code: string, lang: string): string => highlightKey(code, lang, LINE_FORMAT);

/**
 * A block's lines from the highlight cache; on a miss, highlighted here and stored, so that the
 * next build finds them.
 */
const stores = new Map<string, HighlightStore>();
export async function cachedLines(code: string, lang: string, cacheFile: string): Promise<string[]> {
  let store = stores.get(cacheFile);
  if (!store) stores.set(cacheFile, (store = new HighlightStore(cacheFile)));
  const key = blockKey(code, lang);
  const cached = store.get(key);
  if (cached) return cached;
  const lines = await highlightLines(code, lang);
  store.putMany([{ key, text: storedText(lines) }]);
  return lines;
}

/**
 * The lines of a block as the inside of a `<pre>`: each line its text, lines apart by newlines; the
 * marked line (`mark`: its index and its whole HTML) an element of its own, a block, with no newline
 * beside it (the block breaks the line already; a newline too would copy as an empty line); the lines
 * outside `near` in a `.far` span on each side, holding the newline between them and the shown lines,
 * so that hiding them leaves no empty line.
 */
function blockLines(lines: readonly string[], mark: { index: number; html: string } | null, far: (i: number) => boolean): string {
  let html = '';
  let inGroup = false;
  for (let i = 0; i < lines.length; i++) {
    const newline = i === 0 || i === mark?.index || i - 1 === mark?.index ? '' : '\n';
    if (far(i) !== inGroup) {
      html += inGroup ? `${newline}</span>` : `<span class="far">${newline}`;
      inGroup = !inGroup;
    } else html += newline;
    html += i === mark?.index ? mark.html : lines[i];
  }
  return inGroup ? `${html}</span>` : html;
}

/**
 * A highlighted block: a gutter of real line numbers (hidden from assistive tech and from copying)
 * beside the code, with the thrown line marked in both.
 */
export async function renderCodeBlock(code: string, options: CodeBlockOptions): Promise<string> {
  const lines = await cachedLines(code, options.lang, options.cache);
  const { startLine, markLine, near } = options;
  const far = (i: number) => near !== undefined && startLine !== undefined && (startLine + i < near.from || startLine + i > near.to);
  const marked = startLine !== undefined && markLine != null && markLine >= startLine && markLine < startLine + lines.length ? markLine - startLine : null;
  const codeHtml = blockLines(lines, marked === null ? null : { index: marked, html: `<span class="line marked" id="L${markLine}">${lines[marked]}</span>` }, far);
  const gutter =
    startLine === undefined
      ? ''
      : `<pre class="gutter" aria-hidden="true">${blockLines(
          lines.map((_, i) => String(startLine + i)),
          marked === null ? null : { index: marked, html: `<span class="marked">${markLine}</span>` },
          far,
        )}</pre>`;
  return (
    `<div class="code-block${gutter ? ' numbered' : ''}" data-lang="${escapeHtml(options.lang)}">${gutter}` +
    `<pre class="code" tabindex="0" aria-label="${escapeHtml(options.label)}"><code>${codeHtml}</code></pre></div>`
  );
}
