/**
 * Where a record's error is raised, as the message index carries it: the file, the line, and the
 * function (with its class, when the code shows one) that encloses the raise in the record's
 * source excerpt. The matcher compares them with the frames of a pasted stack trace (frames.ts) to
 * tell apart records that share one message, and each result row shows them.
 *
 * Read from the excerpt by the shape of definitions (`def`, `fn`, `func`, `function`, methods,
 * arrow functions bound to a name), walking up from the raise line to the first definition indented
 * less than it: no parser per language, so a definition it cannot read leaves the scope unknown.
 */

export interface RaiseSite {
  file: string;
  /** Null when the record has none. */
  line: number | null;
  /** `Class.method`, `function` or null when the excerpt does not show it. */
  scope: string | null;
}

const NOT_NAMES = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'with', 'elif', 'else', 'match', 'loop', 'try', 'do', 'new', 'typeof', 'await', 'super', 'constructor_', 'function', 'synchronized']);

// Definitions: Python `def f(` and `async def f(`, Rust `fn f(` / `fn f<`, Go `func (r T) f(` / `func f(`,
// JavaScript `function f(`, `f = (…) =>`, `f: function`, methods `f(…) {` and Java's `Type f(…) {`.
const DEFINITION: RegExp[] = [
  /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/,
  /^\s*(?:pub(?:\([\w:\s]+\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"\w+"\s+)?fn\s+([A-Za-z_]\w*)\s*[<(]/,
  /^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*[[(]/,
  /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*[<(]/,
  /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)/,
  /^\s*([A-Za-z_$][\w$]*)\s*:\s*(?:async\s+)?function\b/,
  /^\s*(?:(?:public|private|protected|static|final|abstract|override|readonly|async|get|set|synchronized|native)\s+)*(?:[\w<>[\],.?]+\s+)?#?([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^;]*\)\s*(?::\s*[^{;]+)?(?:throws\s+[\w.,\s]+)?\{\s*$/,
];
const CLASS = /^\s*(?:export\s+)?(?:default\s+)?(?:(?:public|private|protected|abstract|final|static|pub(?:\([\w:\s]+\))?)\s+)*(?:class|struct|impl(?:<[^>]*>)?(?:\s+[\w:<>]+\s+for)?|interface|object|trait)\s+([A-Za-z_$][\w$]*)/;

/** Leading whitespace's width, a tab counting four. */
function indentOf(line: string): number {
  let width = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 9) width += 4;
    else if (c === 32 || (c >= 10 && c <= 13)) width++;
    else if (c > 127 && /\s/.test(line[i]!)) width++;
    else break;
  }
  return width;
}

/** The function (and class) around line `line` of a file whose excerpt starts at `start`. */
export function enclosingScope(source: string, start: number, line: number): string | null {
  const lines = new Map<number, string>();
  source.split('\n').forEach((text, i) => lines.set(start + i, text));
  return scopeAt(lines, line);
}

/**
 * The function (and class) around line `line`, in the lines known of a file (by line number; gaps
 * allowed) of which `first` is the lowest (found when not given: callers asking for many lines of one
 * file pass it).
 */
export function scopeAt(lines: ReadonlyMap<number, string>, line: number, first = lowestKey(lines)): string | null {
  if (!lines.has(line)) return null;
  // The raise may span lines (`raise X(` then the message): its first line sets the indentation.
  let at = line;
  while (at > first && isBlank(lines.get(at) ?? '')) at--;
  let indent = indentOf(lines.get(at) ?? '');
  let fn: string | null = null;
  for (let i = at - 1; i >= first; i--) {
    const text = lines.get(i);
    if (text === undefined || isBlank(text)) continue;
    const width = indentOf(text);
    if (width >= indent) continue;
    indent = width;
    if (fn === null) {
      for (const re of DEFINITION) {
        const m = re.exec(text);
        if (m && !NOT_NAMES.has(m[1]!)) {
          fn = m[1]!;
          break;
        }
      }
      if (fn !== null) continue;
    }
    const cls = CLASS.exec(text);
    if (cls) return fn ? `${cls[1]}.${fn}` : cls[1]!;
    if (indent === 0) break;
  }
  return fn;
}

const lowestKey = (lines: ReadonlyMap<number, string>): number => {
  let first = Infinity;
  for (const n of lines.keys()) if (n < first) first = n;
  return first;
};

const isBlank = (line: string): boolean => indentOf(line) === line.length;

/** What a record's raise site is read from. */
export type SiteFields = { repo: string; filePath: string; lineNumber: number | null; sourceCode: string | null; sourceCodeStart: number | null };

/**
 * Each record's raise site, the scope read from the excerpts of every record of the same file put
 * together: one record's excerpt may start below its function's definition while another's shows it.
 */
export function raiseSites(records: readonly SiteFields[]): RaiseSite[] {
  const files = new Map<string, Map<number, string>>();
  const key = (r: SiteFields) => `${r.repo}\u0000${r.filePath}`;
  for (const r of records) {
    if (r.sourceCode === null || r.sourceCodeStart === null) continue;
    let lines = files.get(key(r));
    if (!lines) files.set(key(r), (lines = new Map()));
    const start = r.sourceCodeStart;
    r.sourceCode.split('\n').forEach((text, i) => lines!.set(start + i, text));
  }
  const firsts = new Map<Map<number, string>, number>();
  return records.map((r) => {
    const lines = files.get(key(r));
    if (!lines || r.lineNumber === null) return { file: r.filePath, line: r.lineNumber, scope: null };
    let first = firsts.get(lines);
    if (first === undefined) firsts.set(lines, (first = lowestKey(lines)));
    return { file: r.filePath, line: r.lineNumber, scope: scopeAt(lines, r.lineNumber, first) };
  });
}

/** The record's raise site. */
export function raiseSite(r: Omit<SiteFields, 'repo'>): RaiseSite {
  const scope = r.sourceCode !== null && r.sourceCodeStart !== null && r.lineNumber !== null ? enclosingScope(r.sourceCode, r.sourceCodeStart, r.lineNumber) : null;
  return { file: r.filePath, line: r.lineNumber, scope };
}
