/**
 * Load: catalog files -> raw entries, each with its origin (file, line). Nothing is validated here
 * beyond what it takes to read the bytes as JSON; every unreadable piece becomes a Problem.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { lineAndColumn, locateJson, parseJson } from './json-locate.ts';
import { FILE_LEVEL, type Problem } from './problems.ts';

/** Files at the root of a catalog folder that are not records. */
export const RESERVED_FILES = new Set(['classes.json', 'url-ledger.json', 'redos.json']);

export interface RawEntry {
  file: string;
  /** The record's line in a `.jsonl` file; in a `.json` file, the line it starts on (1 unless it is an array's item). */
  line: number;
  /** The JSON text of the record (wrapped or bare), exactly as given. */
  text: string;
  value: unknown;
  isJsonl: boolean;
}

export interface LoadResult {
  root: string;
  files: string[];
  entries: RawEntry[];
  problems: Problem[];
  /** Lines that were not records at all (unreadable JSON, bad bytes): they count as invalid records. */
  unreadable: number;
}

/** The catalog location: `ERRDEX_DATA` or `data/`, relative to the working directory. */
export function catalogPath(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.ERRDEX_DATA && env.ERRDEX_DATA.trim() !== '' ? env.ERRDEX_DATA : 'data');
}

/** The folder holding the catalog's own files (classes.json, url-ledger.json): the catalog folder, or the one-file catalog's folder. */
export function catalogFolder(root: string): string {
  try {
    return statSync(root).isDirectory() ? root : dirname(root);
  } catch {
    return dirname(root);
  }
}

export function displayPath(abs: string): string {
  const rel = relative(process.cwd(), abs);
  return rel && !rel.startsWith('..') ? rel.split(sep).join('/') : abs;
}

export function listCatalogFiles(root: string): string[] {
  const st = statSync(root);
  if (st.isFile()) return [root];
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full, depth + 1);
      else if (entry.isFile() && /\.jsonl?$/.test(entry.name) && !(depth === 0 && RESERVED_FILES.has(entry.name))) out.push(full);
    }
  };
  walk(root, 0);
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const BOM = '\uFEFF';

function decode(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** The first byte sequence that is not a well-formed UTF-8 character (offset and length), or null. */
export function firstInvalidUtf8(bytes: Uint8Array): { at: number; length: number } | null {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // Lead byte -> length and the allowed range of the second byte (no overlongs, surrogates or > U+10FFFF).
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) n = 2;
    else if (b >= 0xe0 && b <= 0xef) [n, lo, hi] = [3, b === 0xe0 ? 0xa0 : 0x80, b === 0xed ? 0x9f : 0xbf];
    else if (b >= 0xf0 && b <= 0xf4) [n, lo, hi] = [4, b === 0xf0 ? 0x90 : 0x80, b === 0xf4 ? 0x8f : 0xbf];
    else return { at: i, length: 1 };
    for (let k = 1; k < n; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return { at: i, length: k };
    }
    i += n;
  }
  return null;
}

/**
 * Where the first bad byte is: line and column in the text (`firstLine` is the line the bytes start
 * on), and the field that holds it when the rest reads as JSON.
 */
function badUtf8Problem(file: string, bytes: Uint8Array, firstLine: number): Problem {
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (utf16) return { file, line: firstLine, field: FILE_LEVEL, code: 'utf8', message: 'is UTF-16 encoded (it starts with a UTF-16 byte-order mark); save the file as UTF-8' };
  const { at, length } = firstInvalidUtf8(bytes) ?? { at: 0, length: 1 };
  let text = lenientUtf8.decode(bytes);
  let offset = lenientUtf8.decode(bytes.subarray(0, at)).length;
  if (text.startsWith(BOM)) [text, offset] = [text.slice(1), offset - 1];
  const { line, column } = lineAndColumn(text, offset);
  const loc = locateJson(text, { offset });
  const hex = [...bytes.subarray(at, at + length)].map((b) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`);
  return {
    file,
    line: firstLine + line - 1,
    field: loc.ok && loc.pathAt ? loc.pathAt : FILE_LEVEL,
    code: 'utf8',
    message: `is not valid UTF-8: ${length === 1 ? 'the byte' : 'the bytes'} ${hex.join(' ')} at column ${column} ${length === 1 ? 'is' : 'are'} not a UTF-8 character; save the file as UTF-8`,
  };
}

/** Hints for the mistakes that put a JSON Lines file out of step with its records. */
function jsonlHint(message: string): string {
  if (message.startsWith('unexpected "{" after the end')) return '; two records on one line? Put each on its own line';
  if (message === 'unterminated string') return '; a raw line break inside a value splits the record over two lines: write it as \\n';
  return '';
}

export function loadCatalogFiles(root: string): LoadResult {
  const result: LoadResult = { root, files: [], entries: [], problems: [], unreadable: 0 };
  let files: string[];
  try {
    files = listCatalogFiles(root);
  } catch (e) {
    result.problems.push({ file: displayPath(root), line: 1, field: FILE_LEVEL, message: `cannot be read: ${(e as Error).message}` });
    return result;
  }
  if (files.length === 0) {
    result.problems.push({ file: displayPath(root), line: 1, field: FILE_LEVEL, message: 'holds no .json or .jsonl catalog files' });
    return result;
  }
  const sink: ReadSink = {
    entry: (e) => result.entries.push(e),
    problem: (p) => result.problems.push(p),
    unreadable: () => result.unreadable++,
  };
  for (const abs of files) {
    result.files.push(displayPath(abs));
    readCatalogFile(abs, sink);
  }
  return result;
}

/** Where the reading of one file goes, piece by piece, so that a caller may keep only what it needs. */
export interface ReadSink {
  entry(e: RawEntry): void;
  problem(p: Problem): void;
  /** A piece of the file that is no record at all (unreadable JSON, bad bytes): it counts as an invalid record. */
  unreadable(): void;
}

/**
 * Reads one catalog file (`abs`, shown in reports as displayPath(abs)) into raw entries and problems:
 * the only reader of catalog files, used by validation and by the early highlighting alike.
 */
export function readCatalogFile(abs: string, sink: ReadSink): void {
  const file = displayPath(abs);
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (e) {
    sink.problem({ file, line: 1, field: FILE_LEVEL, message: `cannot be read: ${(e as Error).message}` });
    sink.unreadable();
    return;
  }
  const fileProblem = (line: number, message: string) => sink.problem({ file, line, field: FILE_LEVEL, message });
  if (bytes.length === 0 || bytes.every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09)) {
    fileProblem(1, 'is empty; expected a wrapped record {"record": {...}, "datasetVersion": "..."}' + (abs.endsWith('.jsonl') ? ' per line' : ''));
    sink.unreadable();
    return;
  }
  if (abs.endsWith('.jsonl')) {
    readJsonl(bytes, file, sink, fileProblem);
    return;
  }
  const decoded = decode(bytes);
  if (decoded === null) {
    sink.problem(badUtf8Problem(file, bytes, 1));
    sink.unreadable();
    return;
  }
  // A byte-order mark is allowed by RFC 8259 and carries no data: read past it.
  const text = decoded.startsWith(BOM) ? decoded.slice(1) : decoded;
  const parsed = parseJson(text, file);
  if (!parsed.ok) {
    sink.problem(parsed.problem);
    sink.unreadable();
    return;
  }
  emit(sink, { file, line: 1, text, value: parsed.value, isJsonl: false });
}

/**
 * An entry, or, when its value is an array (a `.json` file or a `.jsonl` line may hold several
 * records), each of its items as an entry of its own with its exact text and its line.
 */
function emit(sink: ReadSink, entry: RawEntry): void {
  if (!Array.isArray(entry.value)) {
    sink.entry(entry);
    return;
  }
  const loc = locateJson(entry.text);
  if (!loc.ok) throw new Error('JSON.parse read a text the scanner cannot'); // both read RFC 8259: never
  if (entry.value.length === 0) {
    sink.problem({ file: entry.file, line: entry.line, field: FILE_LEVEL, message: 'is an empty array: it holds no records', code: 'shape' });
    sink.unreadable();
    return;
  }
  entry.value.forEach((value, i) => {
    const { start, end } = loc.items[i]!;
    sink.entry({ ...entry, value, text: entry.text.slice(start, end), line: entry.isJsonl ? entry.line : (loc.lines.get(`.${i}`) ?? 1) });
  });
}

/** A `.jsonl` file that is one pretty-printed JSON value: one problem, not one per line. */
function prettyPrintedJsonl(bytes: Buffer): number | null {
  const text = decode(bytes);
  if (text === null || !/^\uFEFF?\s*[[{]\s*\r?\n/.test(text)) return null;
  try {
    JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return null;
  }
  return text.trimEnd().split('\n').length;
}

function readJsonl(bytes: Buffer, file: string, sink: ReadSink, fileProblem: (line: number, message: string) => void): void {
  const prettyLines = prettyPrintedJsonl(bytes);
  if (prettyLines !== null) {
    fileProblem(1, `holds one JSON value spread over ${prettyLines} lines; a .jsonl file needs each wrapped record on a single line (or name the file .json)`);
    sink.unreadable();
    return;
  }
  let start = 0;
  for (let line = 1; start <= bytes.length; line++) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    let slice = bytes.subarray(start, end);
    start = end + 1;
    if (slice.length > 0 && slice[slice.length - 1] === 0x0d) slice = slice.subarray(0, slice.length - 1); // CRLF
    if (slice[0] === 0xef && slice[1] === 0xbb && slice[2] === 0xbf) {
      // A byte-order mark starts the file (RFC 8259 lets readers ignore it); anywhere else it is a
      // leftover of files joined together, and JSON.parse would reject the line with a puzzling error.
      if (line === 1) slice = slice.subarray(3);
      else {
        fileProblem(line, 'starts with a byte-order mark (U+FEFF), which belongs only at the start of a file; was another file appended here? Remove it');
        sink.unreadable();
        continue;
      }
    }
    if (slice.every((b) => b === 0x20 || b === 0x09)) {
      if (end === bytes.length) break;
      continue; // blank lines separate nothing and hold nothing
    }
    const text = decode(slice);
    if (text === null) {
      sink.problem(badUtf8Problem(file, slice, line));
      sink.unreadable();
      continue;
    }
    const truncated = end === bytes.length && !text.trimEnd().endsWith('}');
    const parsed = parseJson(text, file, line, truncated ? undefined : jsonlHint);
    if (!parsed.ok) {
      const p = parsed.problem;
      sink.problem(truncated ? { ...p, message: `${p.message} (the last line looks cut short)` } : p);
      sink.unreadable();
      continue;
    }
    emit(sink, { file, line, text, value: parsed.value, isJsonl: true });
  }
}
