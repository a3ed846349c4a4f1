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

const indentOf = (line: string): number => /^\s*/.exec(line)![0].replace(/\t/g, '    ').length;

/** The function (and class) around line `line` of a file whose excerpt starts at `start`. */
export function enclosingScope(source: string, start: number, line: number): string | null {
  const lines = source.split('\n');
  let at = line - start;
  if (at < 0 || at >= lines.length) return null;
  // The raise may span lines (`raise X(` then the message): its first line sets the indentation.
  while (at > 0 && lines[at]!.trim() === '') at--;
  let indent = indentOf(lines[at]!);
  let fn: string | null = null;
  for (let i = at - 1; i >= 0; i--) {
    const text = lines[i]!;
    if (text.trim() === '' || indentOf(text) >= indent) continue;
    indent = indentOf(text);
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

/** The record's raise site. */
export function raiseSite(r: { filePath: string; lineNumber: number | null; sourceCode: string | null; sourceCodeStart: number | null }): RaiseSite {
  const scope = r.sourceCode !== null && r.sourceCodeStart !== null && r.lineNumber !== null ? enclosingScope(r.sourceCode, r.sourceCodeStart, r.lineNumber) : null;
  return { file: r.filePath, line: r.lineNumber, scope };
}
