/**
 * Load: catalog files -> raw entries, each with its origin (file, line). Nothing is validated here
 * beyond what it takes to read the bytes as JSON; every unreadable piece becomes a Problem.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { locateJson } from './json-locate.ts';
import { FILE_LEVEL, type Problem } from './problems.ts';

/** Files at the root of a catalog folder that are not records. */
export const RESERVED_FILES = new Set(['classes.json', 'url-ledger.json']);

export interface RawEntry {
  file: string;
  /** The record's line in a `.jsonl` file; 1 in a `.json` file. */
  line: number;
  /** The JSON text of the wrapped record, exactly as given. */
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

function listCatalogFiles(root: string): string[] {
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
const BOM = '\uFEFF';

function decode(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** Line (1-based) of the first byte sequence that is not UTF-8. */
function firstBadUtf8Line(bytes: Uint8Array): number {
  const lenient = new TextDecoder('utf-8').decode(bytes);
  const at = lenient.indexOf('\uFFFD');
  let line = 1;
  for (let i = 0; i < at; i++) if (lenient.charCodeAt(i) === 10) line++;
  return line;
}

function syntaxProblem(file: string, lineBase: number, text: string): Problem {
  const loc = locateJson(text);
  if (loc.ok) return { file, line: lineBase, field: FILE_LEVEL, message: 'is not valid JSON' };
  return {
    file,
    line: lineBase + loc.line - 1,
    field: FILE_LEVEL,
    message: `malformed JSON at column ${loc.column}: ${loc.message}`,
  };
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
  for (const abs of files) {
    const file = displayPath(abs);
    result.files.push(file);
    const bytes = readFileSync(abs);
    const fileProblem = (line: number, message: string) => result.problems.push({ file, line, field: FILE_LEVEL, message });
    if (bytes.length === 0 || bytes.every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09)) {
      fileProblem(1, 'is empty; expected a wrapped record {"record": {...}, "datasetVersion": "..."}' + (abs.endsWith('.jsonl') ? ' per line' : ''));
      result.unreadable++;
      continue;
    }
    if (abs.endsWith('.jsonl')) loadJsonl(bytes, file, result, fileProblem);
    else {
      const decoded = decode(bytes);
      if (decoded === null) {
        fileProblem(firstBadUtf8Line(bytes), 'is not valid UTF-8 (first bad byte sequence on this line); save the file as UTF-8');
        result.unreadable++;
        continue;
      }
      // A byte-order mark is allowed by RFC 8259 and carries no data: read past it.
      const text = decoded.startsWith(BOM) ? decoded.slice(1) : decoded;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        result.problems.push(syntaxProblem(file, 1, text));
        result.unreadable++;
        continue;
      }
      result.entries.push({ file, line: 1, text, value, isJsonl: false });
    }
  }
  return result;
}

function loadJsonl(bytes: Buffer, file: string, result: LoadResult, fileProblem: (line: number, message: string) => void): void {
  let start = 0;
  for (let line = 1; start <= bytes.length; line++) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    let slice = bytes.subarray(start, end);
    start = end + 1;
    if (slice.length > 0 && slice[slice.length - 1] === 0x0d) slice = slice.subarray(0, slice.length - 1); // CRLF
    if (line === 1 && slice[0] === 0xef && slice[1] === 0xbb && slice[2] === 0xbf) slice = slice.subarray(3); // BOM
    if (slice.every((b) => b === 0x20 || b === 0x09)) {
      if (end === bytes.length) break;
      continue; // blank lines separate nothing and hold nothing
    }
    const text = decode(slice);
    if (text === null) {
      fileProblem(line, 'is not valid UTF-8; save the file as UTF-8');
      result.unreadable++;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const p = syntaxProblem(file, line, text);
      const truncated = end === bytes.length && !text.trimEnd().endsWith('}');
      result.problems.push(truncated ? { ...p, message: `${p.message} (the last line looks cut short)` } : p);
      result.unreadable++;
      continue;
    }
    result.entries.push({ file, line, text, value, isJsonl: true });
  }
}
