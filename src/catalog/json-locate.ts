/**
 * A strict JSON scanner that remembers where things are. `JSON.parse` is used for speed on the
 * happy path; this runs only when a file needs a report: to name the line and column of a syntax
 * error, the line of each field so that a problem in a `.json` file points at its field, the keys
 * an object gives twice (JSON.parse keeps the last one silently), and which field holds a given offset.
 */
import { spanOf } from '../util/sorted.ts';
import { FILE_LEVEL, keyInPath, type Problem } from './problems.ts';

export interface DuplicateKey {
  /** Dotted path of the key given twice, e.g. `record.id`. */
  path: string;
  line: number;
  firstLine: number;
}

export type JsonLocation =
  | {
      ok: true;
      /** dotted path (`record.tags.2`) -> 1-based line of its key or array element */
      lines: Map<string, number>;
      duplicates: DuplicateKey[];
      /** The path of the key or string value that holds `options.offset`, if any. */
      pathAt?: string;
      /** When the text is an array: where each of its items starts and ends (character offsets). */
      items: { start: number; end: number }[];
    }
  | { ok: false; line: number; column: number; message: string };

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

class JsonSyntaxError extends Error {
  readonly offset: number;

  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

/**
 * The line of `path` in `lines`, or of its nearest ancestor that has one (`record.tags.3` falls back
 * to `record.tags`, then `record`); `fallback` when none does. `prefix` is put before each path
 * (a top-level array's items are named `.0`, `.1`, …).
 */
export function lineOfPath(lines: ReadonlyMap<string, number> | null, path: string, fallback: number, prefix = ''): number {
  for (let p = path; lines && p; p = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : '') {
    const line = lines.get(`${prefix}${p}`);
    if (line !== undefined) return line;
  }
  return fallback;
}

/** The deepest a catalog value may be nested (a wrapped record is 3 deep); deeper ones are refused when loaded. */
export const MAX_NESTING = 64;
/** The scanner recurses once per level; deeper texts are reported as such, well before the stack ends. */
const SCAN_NESTING = 1_000;

/**
 * How deeply `value` nests arrays and objects (a scalar is 0, `[]` 1), and the keys down to its
 * deepest point; walked without recursion, so any depth JSON.parse reads. Stops going deeper than
 * needed once past `limit` only in that it still counts the depth exactly.
 */
export function nesting(value: unknown, limit = Number.POSITIVE_INFINITY): { depth: number; path: (string | number)[] } {
  let best = { depth: 0, path: [] as (string | number)[] };
  // Each frame: a container, its depth, and the key it sits under in its parent (with the parent frame).
  type Frame = { value: object; depth: number; key: string | number | null; parent: Frame | null };
  const stack: Frame[] = [];
  if (value !== null && typeof value === 'object') stack.push({ value, depth: 1, key: null, parent: null });
  let deepest: Frame | null = null;
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > best.depth) [best, deepest] = [{ depth: frame.depth, path: [] }, frame];
    const children = Array.isArray(frame.value) ? frame.value.entries() : Object.entries(frame.value);
    for (const [key, child] of children) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: frame.depth + 1, key, parent: frame });
    }
  }
  if (best.depth > limit) {
    for (let f = deepest; f?.parent; f = f.parent) best.path.unshift(f.key!);
  }
  return best;
}

/**
 * Whether `value` nests arrays and objects more than `limit` deep (as `nesting` counts). The common
 * answer, no, without `nesting`'s bookkeeping; recursive, but never deeper than `limit` + 1 calls.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit <= 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (nestsDeeperThan(item, limit - 1)) return true;
    return false;
  }
  for (const key in value) if (nestsDeeperThan((value as Record<string, unknown>)[key], limit - 1)) return true;
  return false;
}

/**
 * Where each item of a JSON array text starts and ends (character offsets) and the line it starts on.
 * The text must be JSON that JSON.parse read; one pass without recursion, so any depth.
 */
export function arrayItemSpans(text: string): { start: number; end: number; line: number }[] {
  const spans: { start: number; end: number; line: number }[] = [];
  let depth = 0;
  let line = 1;
  let start = -1;
  let startLine = 1;
  let last = 0; // just after the current item's last character that is not white space
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) line++;
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    if (depth === 1 && start === -1 && c !== 0x2c && c !== 0x5d) [start, startLine] = [i, line];
    if (c === 0x22) {
      for (i++; text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x7d) {
      if (--depth === 0) {
        if (start !== -1) spans.push({ start, end: last, line: startLine });
        break;
      }
    } else if (c === 0x2c && depth === 1) {
      spans.push({ start, end: last, line: startLine });
      start = -1;
      continue;
    }
    last = i + 1;
  }
  return spans;
}

export function locateJson(text: string, options: { offset?: number } = {}): JsonLocation {
  const lines = new Map<string, number>();
  const duplicates: DuplicateKey[] = [];
  const items: { start: number; end: number }[] = [];
  let pathAt: string | undefined;
  const holds = (start: number, end: number) => options.offset !== undefined && options.offset >= start && options.offset < end;
  let pos = 0;
  // Line starts, for offset -> line/column.
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineOf = (offset: number): number => spanOf(lineStarts, offset) + 1;
  const fail = (message: string, at = pos): never => {
    throw new JsonSyntaxError(message, at);
  };
  const describe = (at: number): string => (at >= text.length ? 'end of input' : JSON.stringify(text[at]));
  const ws = () => {
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else break;
    }
  };
  const string = (): string => {
    const start = pos;
    pos++; // opening quote
    while (pos < text.length) {
      const c = text[pos]!;
      if (c === '"') {
        pos++;
        return JSON.parse(text.slice(start, pos)) as string;
      }
      if (c === '\\') {
        const e = text[pos + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) fail('invalid \\u escape in string', pos);
          pos += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) pos += 2;
        else fail(`invalid escape \\${e ?? ''} in string`, pos);
      } else if (c.charCodeAt(0) < 0x20) {
        fail(c === '\n' ? 'unterminated string (a raw line break inside a string; write it as \\n)' : 'raw control character inside a string', pos);
      } else pos++;
    }
    return fail('unterminated string', start);
  };
  const value = (path: string, depth = 1): void => {
    ws();
    const c = text[pos];
    if ((c === '{' || c === '[') && depth > SCAN_NESTING) fail(`nested more than ${SCAN_NESTING} levels deep`);
    if (c === '{') {
      pos++;
      ws();
      if (text[pos] === '}') {
        pos++;
        return;
      }
      const keys = new Set<string>();
      for (;;) {
        ws();
        if (text[pos] !== '"') fail(`expected a property name in double quotes, found ${describe(pos)}`);
        const keyAt = pos;
        const key = string();
        const child = path ? `${path}.${keyInPath(key)}` : keyInPath(key);
        if (holds(keyAt, pos)) pathAt = child;
        if (keys.has(key)) duplicates.push({ path: child, line: lineOf(keyAt), firstLine: lines.get(child) ?? lineOf(keyAt) });
        keys.add(key);
        if (!lines.has(child)) lines.set(child, lineOf(keyAt));
        ws();
        if (text[pos] !== ':') fail(`expected ':' after property name, found ${describe(pos)}`);
        pos++;
        value(child, depth + 1);
        ws();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === '}') {
          pos++;
          return;
        }
        fail(`expected ',' or '}' after a property value, found ${describe(pos)}`);
      }
    }
    if (c === '[') {
      pos++;
      ws();
      if (text[pos] === ']') {
        pos++;
        return;
      }
      for (let i = 0; ; i++) {
        ws();
        const child = `${path}.${i}`;
        lines.set(child, lineOf(pos));
        const start = pos;
        value(child, depth + 1);
        if (path === '') items.push({ start, end: pos });
        ws();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === ']') {
          pos++;
          return;
        }
        fail(`expected ',' or ']' after an array element, found ${describe(pos)}`);
      }
    }
    if (c === '"') {
      const start = pos;
      string();
      if (holds(start, pos)) pathAt = path;
      return;
    }
    const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(pos, pos + 400));
    if (!m) fail(`expected a value, found ${describe(pos)}`);
    pos += m![0].length;
  };
  try {
    value('');
    ws();
    if (pos < text.length) fail(`unexpected ${describe(pos)} after the end of the JSON value`);
    return { ok: true, lines, duplicates, pathAt, items };
  } catch (e) {
    if (e instanceof RangeError) e = new JsonSyntaxError('nested too deeply to read', pos);
    if (!(e instanceof JsonSyntaxError)) throw e;
    const line = lineOf(e.offset);
    return { ok: false, line, column: e.offset - lineStarts[line - 1]! + 1, message: e.message };
  }
}

/** How many object keys `v` holds at every depth; without recursion (a record is not deep, but anything else may be). */
function countKeys(v: unknown): number {
  let n = 0;
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (x === null || typeof x !== 'object') continue;
    if (Array.isArray(x)) for (const child of x) stack.push(child);
    else {
      const values = Object.values(x);
      n += values.length;
      for (const child of values) stack.push(child);
    }
  }
  return n;
}

/**
 * Cheap test before the full scan: every key in the text ends in `"` then `:`, so when the parsed
 * value has as many keys as the text has `":` sequences, no key can have been given twice.
 */
export function mayHaveDuplicateKeys(text: string, value: unknown): boolean {
  let marks = 0;
  for (const _ of text.matchAll(/"\s*:/g)) marks++;
  return marks !== countKeys(value);
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; problem: Problem };

/**
 * JSON.parse of a file's text (or of one line of it, `firstLine` being its line in the file), or the
 * Problem that says where the text stops being JSON. `hint` may add a sentence for a known mistake.
 */
export function parseJson(text: string, file: string, firstLine = 1, hint: (message: string) => string = () => ''): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const loc = locateJson(text);
    if (loc.ok) return { ok: false, problem: { file, line: firstLine, field: FILE_LEVEL, message: 'is not valid JSON', code: 'json' } };
    return { ok: false, problem: { file, line: firstLine + loc.line - 1, field: FILE_LEVEL, message: `malformed JSON at column ${loc.column}: ${loc.message}${hint(loc.message)}`, code: 'json' } };
  }
}
