/**
 * Load: catalog files -> raw entries, each with its origin (file, line). Nothing is validated here
 * beyond what it takes to read the bytes as JSON; every unreadable piece becomes a Problem.
 */
import { constants } from 'node:buffer';
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { decodeUtf8 as decode, firstInvalidUtf8, hexBytes } from '../util/utf8.ts';
import { displayPath, scanCatalogFolder } from './folder.ts';
import { arrayItemSpans, lineAndColumn, locateJson, MAX_NESTING, nesting, nestsDeeperThan, parseJson } from './json-locate.ts';
import { FILE_LEVEL, keyInPath, type Problem } from './problems.ts';

export { displayPath, listCatalogFiles, RESERVED_FILES } from './folder.ts';
export { firstInvalidUtf8 } from '../util/utf8.ts';

/**
 * The largest file the loader reads, in bytes: a `.json` file is one string (V8's longest string, in
 * UTF-16 units, is at least its UTF-8 length); a `.jsonl` file one buffer (Node reads at most 2 GiB - 1
 * at once), and each of its lines a string. Larger files are reported, not read.
 */
export const MAX_FILE_BYTES = { json: constants.MAX_STRING_LENGTH, jsonl: 2 ** 31 - 1 } as const;

export interface LoadOptions {
  /** Size limits (tests make them small). */
  maxBytes?: { json: number; jsonl: number };
  /** Each entry as it is read, instead of kept in `entries` (which stays empty): a caller that checks entries as they come (src/catalog/catalog.ts). */
  onEntry?: (e: RawEntry) => void;
}

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
  /** Files and folders read once though reached twice, and loops of links (src/catalog/folder.ts). */
  warnings: Problem[];
  /** Lines that were not records at all (unreadable JSON, bad bytes): they count as invalid records. */
  unreadable: number;
}

/** The catalog location: `ERRDEX_DATA` or `data/`, relative to the working directory. */
export function catalogPath(env: NodeJS.ProcessEnv): string {
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

const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const BOM = '\uFEFF';

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
  const hex = hexBytes(bytes.subarray(at, at + length));
  return {
    file,
    line: firstLine + line - 1,
    field: loc.ok && loc.pathAt ? loc.pathAt : FILE_LEVEL,
    code: 'utf8',
    message: `is not valid UTF-8: ${length === 1 ? 'the byte' : 'the bytes'} ${hex} at column ${column} ${length === 1 ? 'is' : 'are'} not a UTF-8 character; save the file as UTF-8`,
  };
}

/** Hints for the mistakes that put a JSON Lines file out of step with its records. */
function jsonlHint(message: string): string {
  if (message.startsWith('unexpected "{" after the end')) return '; two records on one line? Put each on its own line';
  if (message === 'unterminated string') return '; a raw line break inside a value splits the record over two lines: write it as \\n';
  return '';
}

export function loadCatalogFiles(root: string, options: LoadOptions = {}): LoadResult {
  const result: LoadResult = { root, files: [], entries: [], problems: [], warnings: [], unreadable: 0 };
  let files: string[];
  try {
    const scan = scanCatalogFolder(root);
    files = scan.files;
    // A file or folder that is not read is reported; each error one invalid record, and its file one of the catalog's.
    for (const p of scan.problems) {
      if (p.severity === 'warning') {
        result.warnings.push(p);
        continue;
      }
      result.problems.push(p);
      result.files.push(p.file);
      result.unreadable++;
    }
  } catch (e) {
    result.problems.push({ file: displayPath(root), line: 1, field: FILE_LEVEL, message: `cannot be read: ${(e as Error).message}` });
    return result;
  }
  if (files.length === 0 && result.problems.length === 0) {
    result.problems.push({ file: displayPath(root), line: 1, field: FILE_LEVEL, message: 'holds no .json or .jsonl catalog files' });
    return result;
  }
  const sink: ReadSink = {
    entry: options.onEntry ?? ((e) => result.entries.push(e)),
    problem: (p) => result.problems.push(p),
    unreadable: () => result.unreadable++,
  };
  for (const abs of files) {
    result.files.push(displayPath(abs));
    readCatalogFile(abs, sink, options.maxBytes);
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
export function readCatalogFile(abs: string, sink: ReadSink, maxBytes: { json: number; jsonl: number } = MAX_FILE_BYTES): void {
  const file = displayPath(abs);
  const kind = abs.endsWith('.jsonl') ? 'jsonl' : 'json';
  let bytes: Buffer;
  try {
    const size = statSync(abs).size;
    if (size > maxBytes[kind]) {
      sink.problem({ file, line: 1, field: FILE_LEVEL, code: 'file', message: `is ${formatBytes(size)}; the largest .${kind} file errdex reads is ${formatBytes(maxBytes[kind])}: split it into several files` });
      sink.unreadable();
      return;
    }
    bytes = readFileSync(abs);
  } catch (e) {
    sink.problem({ file, line: 1, field: FILE_LEVEL, message: `cannot be read: ${(e as Error).message}` });
    sink.unreadable();
    return;
  }
  readCatalogBytes(file, bytes, kind === 'jsonl', sink);
}

/** The bytes of one catalog file (`file` as reports show it) into raw entries and problems. */
export function readCatalogBytes(file: string, bytes: Buffer, isJsonl: boolean, sink: ReadSink): void {
  const fileProblem = (line: number, message: string) => sink.problem({ file, line, field: FILE_LEVEL, message });
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes; // a byte-order mark holds nothing
  if (body.every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09)) {
    fileProblem(1, 'is empty; expected a wrapped record {"record": {...}, "datasetVersion": "..."}' + (isJsonl ? ' per line' : ''));
    sink.unreadable();
    return;
  }
  if (isJsonl) {
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

/** Whether anything is at `abs`, a broken symbolic link included (existsSync says no to one). */
export function pathTaken(abs: string): boolean {
  try {
    lstatSync(abs);
    return true;
  } catch {
    return false;
  }
}

/**
 * The text of one of the catalog's own files (classes.json, url-ledger.json), or the problem that
 * keeps it from being read: not a regular file (a folder, a FIFO), too large, unreadable, not UTF-8.
 */
export function readCatalogOwnFile(abs: string): { ok: true; text: string } | { ok: false; problem: Problem } {
  const file = displayPath(abs);
  const problem = (message: string) => ({ ok: false as const, problem: { file, line: 1, field: FILE_LEVEL, code: 'file', message } });
  let bytes: Buffer;
  try {
    const st = statSync(abs);
    if (!st.isFile()) return problem(`is not a regular file (${st.isDirectory() ? 'a folder' : 'a FIFO, socket or device'}); it is not read`);
    if (st.size > MAX_FILE_BYTES.json) return problem(`is ${formatBytes(st.size)}; the largest file errdex reads is ${formatBytes(MAX_FILE_BYTES.json)}`);
    bytes = readFileSync(abs);
  } catch (e) {
    return problem(`cannot be read: ${(e as Error).message}`);
  }
  const text = decode(bytes);
  if (text === null) return { ok: false, problem: badUtf8Problem(file, bytes, 1) };
  return { ok: true, text: text.startsWith(BOM) ? text.slice(1) : text };
}

/** `2,362,232,012 bytes (2.2 GiB)`. */
function formatBytes(n: number): string {
  const units = n >= 2 ** 30 ? ` (${(n / 2 ** 30).toFixed(1)} GiB)` : n >= 2 ** 20 ? ` (${(n / 2 ** 20).toFixed(1)} MiB)` : '';
  return `${n.toLocaleString('en-US')} bytes${units}`;
}

/**
 * A value nested deeper than any record is refused here, before anything walks it: JSON.parse reads
 * any depth, but the recursive code after it (and JSON.stringify) would overflow the stack. The field
 * named is the wrapper's or the record's, the one the schema knows.
 */
function tooDeep(sink: ReadSink, entry: RawEntry): boolean {
  if (!nestsDeeperThan(entry.value, MAX_NESTING)) return false;
  const found = nesting(entry.value, MAX_NESTING);
  const [top, second] = found.path;
  const field = top === undefined || typeof top === 'number' ? FILE_LEVEL : top === 'record' && typeof second === 'string' ? `record.${keyInPath(second)}` : keyInPath(top);
  const message = `is nested ${found.depth.toLocaleString('en-US')} levels deep; the limit is ${MAX_NESTING} (a record needs 3)`;
  sink.problem({ file: entry.file, line: entry.line, field, code: 'json', message });
  sink.unreadable();
  return true;
}

/**
 * An entry, or, when its value is an array (a `.json` file or a `.jsonl` line may hold several
 * records), each of its items as an entry of its own with its exact text and its line.
 */
function emit(sink: ReadSink, entry: RawEntry): void {
  if (!Array.isArray(entry.value)) {
    if (!tooDeep(sink, entry)) sink.entry(entry);
    return;
  }
  if (entry.value.length === 0) {
    sink.problem({ file: entry.file, line: entry.line, field: FILE_LEVEL, message: 'is an empty array: it holds no records', code: 'shape' });
    sink.unreadable();
    return;
  }
  const items = arrayItemSpans(entry.text);
  entry.value.forEach((value, i) => {
    const { start, end, line } = items[i]!;
    const item = { ...entry, value, text: entry.text.slice(start, end), line: entry.isJsonl ? entry.line : line };
    if (!tooDeep(sink, item)) sink.entry(item);
  });
}

/** A `.jsonl` file that is one pretty-printed JSON value: one problem, not one per line. */
function prettyPrintedJsonl(bytes: Buffer): number | null {
  // Decoded whole only when it starts like one (a bracket, then a line break), and when a string can hold it.
  if (bytes.length > MAX_FILE_BYTES.json || !/^(?:\uFEFF)?\s*[[{]\s*\r?\n/.test(bytes.subarray(0, 256).toString('utf8'))) return null;
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
    if (slice.length > MAX_FILE_BYTES.json) {
      fileProblem(line, `is ${formatBytes(slice.length)} long; the longest line errdex reads is ${formatBytes(MAX_FILE_BYTES.json)}`);
      sink.unreadable();
      continue;
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
