/**
 * Stack frames of a pasted trace (Python with IPython's and pytest's forms, JavaScript/TypeScript,
 * Rust panics and backtraces, Go, Java/Kotlin, Ruby) and how well a record's raise site
 * (raise-site.ts) fits them: the matcher uses it to order records that share one message, so the
 * record raised where the trace says comes first, and to tell a trace that never went through a
 * record's raise site (`siteMissed`).
 *
 * Paths in a trace are installed paths (`…/site-packages/pkg/mod.py`, `node_modules/pkg/lib/x.js`
 * built from `packages/pkg/src/x.ts`), not repository paths: they are compared by their longest
 * common suffix of folder and file names, leaving out build and install folders (`src`, `lib`,
 * `dist`, `site-packages`, …) and file extensions. The frame's function name and line count too.
 */
import type { RaiseSite } from './raise-site.ts';

export interface Frame {
  /** Path as printed; for Java, the class's package path and the file (`com/acme/Foo.java`). */
  path: string;
  line: number | null;
  /** The function or method name (last part), if the frame shows one. */
  fn: string | null;
}

/** Most frames read from a paste: the ones nearest the error matter. */
const MAX_FRAMES = 40;

const lastName = (qualified: string): string | null => {
  const parts = qualified.split(/::|\.|#/).filter((p) => /^[A-Za-z_$<][\w$<>]*$/.test(p) && !/^(?:<[^>]*>|\{\{closure\}\}|new|async|Object)$/.test(p));
  return parts.pop() ?? null;
};

// One pattern per frame format, each anchored; the match gives the path, line and function.
// `innermostLast`: the format prints the frame nearest the error last (Python's tracebacks).
const FORMATS: { re: RegExp; read: (m: RegExpExecArray) => Frame; innermostLast?: true }[] = [
  // Python: File "/x/y.py", line 12, in name
  { re: /^\s*File "([^"]{1,500})", line (\d+)(?:, in ([\w<>.]+))?/, read: (m) => ({ path: m[1]!, line: Number(m[2]), fn: m[3] && !m[3].startsWith('<') ? m[3] : null }), innermostLast: true },
  // IPython and Jupyter: File ~/venv/lib/python3.11/site-packages/x/y.py:753, in Class.name(self, url)
  { re: /^File (\S{1,500}\.pyx?):(\d+), in ([\w<>.]{1,200})/, read: (m) => ({ path: m[1]!, line: Number(m[2]), fn: m[3]!.startsWith('<') ? null : lastName(m[3]!) }), innermostLast: true },
  // A notebook's cell: Cell In[3], line 5 (IPython 8); older IPython names it File "<ipython-input-3-…>", above
  { re: /^Cell (In\[\d+\]), line (\d+)/, read: (m) => ({ path: `Cell ${m[1]!}`, line: Number(m[2]), fn: null }), innermostLast: true },
  // pytest's short tracebacks: .venv/lib/python3.12/site-packages/x/y.py:330: in name
  { re: /^(\S{1,500}\.py):(\d+): in ([\w<>.]{1,200})\s*$/, read: (m) => ({ path: m[1]!, line: Number(m[2]), fn: m[3]!.startsWith('<') ? null : m[3]! }), innermostLast: true },
  // JavaScript (V8): at name (/x/y.js:12:3), at async name (file:///x/y.mjs:1:2), at /x/y.js:12:3
  {
    re: /^\s*at (?:async )?(?:(.{1,200}?) \()?(?:file:\/\/)?([^\s()]{1,500}?):(\d+)(?::\d+)?\)?\s*$/,
    read: (m) => ({ path: m[2]!, line: Number(m[3]), fn: m[1] ? lastName(m[1].replace(/ \[as [^\]]+\]$/, '').replace(/^new /, '')) : null }),
  },
  // JavaScript (Firefox, Safari): name@http://x/y.js:12:3
  { re: /^\s*([\w$.<>/]{0,200})@(\S{1,500}?):(\d+)(?::\d+)?\s*$/, read: (m) => ({ path: m[2]!, line: Number(m[3]), fn: m[1] ? lastName(m[1]) : null }) },
  // Java, Kotlin, Scala: at com.acme.Foo.bar(Foo.java:12), at com.acme.Foo$Inner.lambda$run$0(Foo.kt:3)
  {
    re: /^\s*at (?:[\w.-]+\/)*((?:[\w$]+\.)*)([\w$]+)\.([\w$<>]+)\(([\w$-]+\.\w+):(\d+)\)/,
    read: (m) => ({ path: `${m[1]!.replace(/\./g, '/')}${m[4]!}`, line: Number(m[5]), fn: m[3]!.replace(/^lambda\$([\w]+)\$\d+$/, '$1') }),
  },
  // Rust panic location: thread 'main' panicked at src/x.rs:12:5
  { re: /^\s*thread '[^']*' panicked at (?:'.*', )?([^\s:]{1,500}\.rs):(\d+):\d+/, read: (m) => ({ path: m[1]!, line: Number(m[2]), fn: null }) },
  // Rust backtrace location line: at ./src/x.rs:12:5 (its function is on the line before)
  { re: /^\s*at ([^\s:]{1,500}\.rs):(\d+)(?::\d+)?\s*$/, read: (m) => ({ path: m[1]!, line: Number(m[2]), fn: null }) },
  // Go: /x/y.go:12 +0x1d (its function is on the line before)
  { re: /^\s*([^\s:]{1,500}\.go):(\d+)(?: \+0x[0-9a-f]+)?\s*$/, read: (m) => ({ path: m[1]!, line: Number(m[2]), fn: null }) },
  // Ruby: /x/y.rb:12:in 'name', from /x/y.rb:12:in `block in name'
  { re: /^\s*(?:from )?([^\s:]{1,500}\.rb):(\d+):in [`']([^']{1,200})'/, read: (m) => ({ path: m[1]!, line: Number(m[2]), fn: lastName(m[3]!.replace(/^block (?:\(\d+ levels\) )?in /, '')) }) },
  // A path and line at the start of a line (Node prints the throwing file, compilers their position): /x/y.js:12
  { re: /^([^\s:()]{1,500}\.[A-Za-z]{1,5}):(\d+)(?::\d+)?:?\s*$/, read: (m) => ({ path: m[1]!, line: Number(m[2]), fn: null }) },
];

// The function line before a Rust or Go location: `  12: tokio::runtime::park::Inner::park`, `main.(*T).run(0x1, …)`.
const RUST_FN = /^\s*\d+: (?:0x[0-9a-f]+ - )?([\w:<>{}$ ]{1,300}?)(?:::h[0-9a-f]{16})?\s*$/;
const GO_FN = /^\s*([\w./*()-]{1,300})\((?:0x[0-9a-f]+|\.\.\.|, )*\)\s*$/;

/** The frames of a paste, innermost (nearest the error) first. */
export function pasteFrames(lines: readonly string[]): Frame[] {
  const found: { frame: Frame; at: number }[] = [];
  // Python prints the innermost frame last; the others first.
  let lastFirst = 0;
  for (let i = 0; i < lines.length && found.length < MAX_FRAMES * 4; i++) {
    // Runs of spaces inside a line read as one (a copy or a terminal can double them): `File  "x.py"`.
    const line = lines[i]!.replace(/(\S) {2,}/g, '$1 ');
    for (const f of FORMATS) {
      const m = f.re.exec(line);
      if (!m) continue;
      const frame = f.read(m);
      if (frame.fn === null && i > 0) {
        const prev = lines[i - 1]!;
        const before = RUST_FN.exec(prev) ?? GO_FN.exec(prev);
        if (before) frame.fn = lastName(before[1]!.replace(/\([^)]*\)/g, '').trim());
      }
      if (f.innermostLast) lastFirst++;
      found.push({ frame, at: i });
      break;
    }
  }
  if (lastFirst > 0 && lastFirst >= found.length / 2) found.reverse();
  return found.slice(0, MAX_FRAMES).map((f) => f.frame);
}

// Folders that installing or building adds or drops: not evidence either way.
const NEUTRAL = new Set(['src', 'lib', 'lib64', 'dist', 'build', 'out', 'esm', 'cjs', 'es', 'umd', 'node_modules', 'site-packages', 'dist-packages', 'packages', 'app', 'target', 'debug', 'release', '.', '..', '~', '']);
const EXTENSION = /\.(?:[cm]?[jt]sx?|pyc?|pyi|rs|go|java|kt|scala|rb|d\.ts)$/;

/** A path's meaningful parts: folders and the file name without its extension, build folders left out. */
export function pathParts(path: string): string[] {
  const parts = path.replace(/\\/g, '/').replace(/[?#].*$/, '').split('/');
  const file = (parts.pop() ?? '').replace(EXTENSION, '');
  return [...parts.filter((p) => !NEUTRAL.has(p.toLowerCase()) && !/^python\d/.test(p)), file];
}

/** How many trailing parts two paths share (0 when the file names differ). */
export function commonSuffix(a: string[], b: string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/**
 * How well a raise site fits the frames: the best frame's score, a frame further from the error
 * counting a little less. A frame scores by the path parts it shares with the site's file (the file
 * name at least), its function being the site's, and its line being near the site's (lines move
 * between versions, so near counts, and nearer more). 0 when no frame is in the site's file or function.
 */
export function siteFit(site: Pick<RaiseSite, 'file' | 'line' | 'scope'>, frames: readonly Frame[]): number {
  if (frames.length === 0) return 0;
  const file = pathParts(site.file);
  const fn = site.scope ? lastName(site.scope) : null;
  let best = 0;
  frames.forEach((f, i) => {
    const shared = commonSuffix(file, pathParts(f.path));
    const sameFn = fn !== null && f.fn !== null && f.fn === fn;
    if (shared === 0 && !sameFn) return;
    let score = Math.min(shared, 4) + (sameFn ? 2 : 0);
    if (shared > 0 && f.line !== null && site.line !== null) {
      const d = Math.abs(f.line - site.line);
      score += d === 0 ? 1.5 : d <= 5 ? 1 : d <= 50 ? 0.5 : 0;
    }
    best = Math.max(best, score - 0.05 * i);
  });
  return best;
}

/**
 * Files of languages whose traces show where the error was raised, in paths that keep the source's
 * folders once installed: a Python, Ruby or JVM exception records its frames where it is raised (or
 * made), and installed packages keep their folders (`site-packages/pkg/mod.py`, `gems/pkg-1.2/lib/pkg/x.rb`,
 * the class's package). Not JavaScript (bundled: `dist/chunks/dep-a1b2.js`), Rust or Go (a panic's
 * frames are where an error value was unwrapped, not where it was made).
 */
const RAISED_WHERE_TRACED = /\.(?:py|rb|java|kt|scala)$/;
/** A notebook's cell, as IPython names it in a frame: Python code too. */
const NOTEBOOK_CELL = /^(?:Cell In\[\d+\]|<ipython-input-[\w-]+>)$/;
const traced = (f: Frame): boolean => RAISED_WHERE_TRACED.test(f.path) || NOTEBOOK_CELL.test(f.path);

/**
 * True when the paste's frames show where its error went and none of them is in the record's raise
 * site: the frames are of a traced language (RAISED_WHERE_TRACED, or a notebook's cell), as the site's file is, and no
 * frame is in the site's function or in its file and folder (the file name alone is no evidence:
 * `app/main.py` is not `pydantic/main.py`). The error was then raised somewhere else: by the
 * language itself (`'str' object has no attribute 'decode'`) or by other code printing the same words.
 * Not when the frame nearest the error is in the record's own package as installed: the code raising
 * it moved between the version pasted and the version catalogued.
 */
export function siteMissed(site: Pick<RaiseSite, 'file' | 'scope'> & { repo?: string }, frames: readonly Frame[]): boolean {
  const nearest = frames.find(traced);
  if (!RAISED_WHERE_TRACED.test(site.file) || !nearest) return false;
  const file = pathParts(site.file);
  // Raised inside the record's own package, installed (`site-packages/sqlalchemy/orm/query.py` of
  // sqlalchemy/sqlalchemy), in another file than the record's: the code moved between versions.
  const own = site.repo?.split('/')[1]?.toLowerCase().replace(/-/g, '_');
  if (own && file.length > 1 && file[0]!.toLowerCase() === own && installedIn(nearest.path, own)) return false;
  const enough = Math.min(2, file.length);
  const fn = site.scope ? lastName(site.scope) : null;
  return !frames.some((f) => commonSuffix(file, pathParts(f.path)) >= enough || (fn !== null && f.fn === fn));
}

const INSTALLED = new Set(['site-packages', 'dist-packages', 'node_modules']);

/** Whether a frame's path is in the installed package `name` (right after `site-packages/` and the like), not a folder of the user's named alike. */
function installedIn(path: string, name: string): boolean {
  const parts = path.replace(/\\/g, '/').split('/');
  return parts.some((p, i) => i > 0 && p.toLowerCase() === name && INSTALLED.has(parts[i - 1]!));
}

/**
 * Results in the same order, except that records printing the same message (the same template
 * text, whatever its placeholders are called) are ordered among themselves by how well their raise
 * site fits the frames, and gathered where the first of them stood.
 */
export function orderBySite<T extends { entry: Pick<RaiseSite, 'file' | 'line' | 'scope'> & { template: string } }>(results: readonly T[], frames: readonly Frame[]): T[] {
  if (frames.length === 0 || results.length < 2) return [...results];
  const groups = new Map<string, T[]>();
  for (const r of results) {
    const key = printedShape(r.entry.template);
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  const out: T[] = [];
  for (const g of groups.values()) {
    if (g.length === 1) out.push(g[0]!);
    else out.push(...g.map((r, i) => ({ r, i, fit: siteFit(r.entry, frames) })).sort((a, b) => b.fit - a.fit || a.i - b.i).map((x) => x.r));
  }
  return out;
}

/** A template's literal text with each placeholder as one mark: two templates print alike when these are equal. */
const printedShape = (template: string): string => template.replace(/\{[^{}]*\}|%(?:\([\w.]+\))?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|\$\{[^{}]*\}/g, '\u0000');
