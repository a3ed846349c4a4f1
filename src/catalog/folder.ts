/**
 * Which files a catalog folder holds: every `.json` and `.jsonl` file in it and its subfolders, in
 * name order. Whatever looks like a catalog file or folder but cannot be read safely becomes a
 * Problem instead of being skipped without a word or crashing the read: a name that is not UTF-8,
 * a FIFO or device, a folder that cannot be listed, a symbolic link that is broken, loops, or
 * leaves the catalog folder. Links inside the folder are followed, and a file or folder reached
 * twice is read once.
 */
import { type Dirent, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { escapedUtf8, firstInvalidUtf8, hexBytes } from '../util/utf8.ts';
import { FILE_LEVEL, type Problem } from './problems.ts';

/** Files at the root of a catalog folder that are not records. */
export const RESERVED_FILES = new Set(['classes.json', 'url-ledger.json', 'redos.json']);

export function displayPath(abs: string): string {
  const rel = relative(process.cwd(), abs);
  return rel && !rel.startsWith('..') ? rel.split(sep).join('/') : abs;
}

export interface FolderScan {
  /** The catalog files to read (absolute paths, as reached: a link keeps its own name), in order. */
  files: string[];
  /**
   * Catalog files and folders that are not read, each with why (errors), and second ways to a file or
   * folder already read, loops among them (warnings). Each error stands for records that are missing.
   */
  problems: Problem[];
}

const CATALOG_FILE = /\.jsonl?$/;
const isInside = (folder: string, path: string) => path === folder || path.startsWith(folder + sep);

/** What a Dirent and a Stats both say about a file's kind. */
type FileKind = Pick<Dirent, 'isFile' | 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>;

const KINDS: [keyof FileKind, string][] = [
  ['isFIFO', 'a FIFO'],
  ['isSocket', 'a socket'],
  ['isCharacterDevice', 'a character device'],
  ['isBlockDevice', 'a block device'],
];

/** The catalog files of `root` (a folder, or one file) and what could not be read; throws only when `root` itself cannot be. */
export function scanCatalogFolder(root: string): FolderScan {
  const st = statSync(root);
  const scan: FolderScan = { files: [], problems: [] };
  const problem = (path: string, message: string, severity?: 'warning') =>
    scan.problems.push({ file: displayPath(path), line: 1, field: FILE_LEVEL, code: 'file', message, ...(severity ? { severity } : {}) });
  if (!st.isDirectory()) {
    // A one-file catalog: read whatever its name, unless it is no file at all.
    if (st.isFile()) scan.files.push(root);
    else problem(root, `is not a regular file (${KINDS.find(([test]) => st[test]())?.[1] ?? 'not a file'}); it is not read`);
    return scan;
  }
  const realRoot = realpathSync(root);
  /** Real path -> the path it was first reached as. */
  const seen = new Map<string, string>();

  /** A file or folder reached a second way (a link to it, or it after a link): read once, said once. */
  const readAlready = (path: string, real: string, viaLink: boolean): boolean => {
    const first = seen.get(real);
    if (first === undefined) {
      seen.set(real, path);
      return false;
    }
    const what = viaLink ? `is a symbolic link to ${displayPath(first)}` : `is the same as ${displayPath(first)} (a symbolic link leads there)`;
    problem(path, `${what}, which is read already; its records are read once`, 'warning');
    return true;
  };

  const walk = (dir: string, ancestors: readonly string[]) => {
    let entries: Dirent<Buffer>[];
    try {
      entries = readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
    } catch (e) {
      problem(dir, `cannot be read: ${(e as Error).message}`);
      return;
    }
    // In name order, links after the rest: a link beside its target names the target as the file read.
    entries.sort((a, b) => Number(a.isSymbolicLink()) - Number(b.isSymbolicLink()) || Buffer.compare(a.name, b.name));
    const realDir = ancestors.at(-1)!;
    for (const entry of entries) {
      const name = entry.name.toString('utf8');
      if (name.startsWith('.') || name === 'node_modules') continue;
      const catalogName = CATALOG_FILE.test(name) && !(ancestors.length === 1 && RESERVED_FILES.has(name));
      const bad = firstInvalidUtf8(entry.name);
      if (bad) {
        // Node reads such a name back with U+FFFD in place of the bytes and could not open it.
        if (entry.isDirectory() || catalogName) {
          const bytes = hexBytes(entry.name.subarray(bad.at, bad.at + bad.length));
          problem(join(dir, escapedUtf8(entry.name)), `has a name that is not valid UTF-8 (the byte${bad.length === 1 ? '' : 's'} ${bytes}); rename it to read it`);
        }
        continue;
      }
      const path = join(dir, name);
      if (entry.isSymbolicLink()) followLink(path, catalogName, ancestors);
      else if (entry.isDirectory()) {
        if (!readAlready(path, join(realDir, name), false)) walk(path, [...ancestors, join(realDir, name)]);
      } else if (catalogName) addFile(path, join(realDir, name), entry, false);
    }
  };

  const addFile = (path: string, real: string, kind: FileKind, viaLink: boolean) => {
    if (!kind.isFile()) {
      const name = KINDS.find(([test]) => kind[test]())?.[1] ?? 'not a file';
      problem(path, `is not a regular file (${name}); it is not read`);
      return;
    }
    if (!readAlready(path, real, viaLink)) scan.files.push(path);
  };

  const followLink = (path: string, catalogName: boolean, ancestors: readonly string[]) => {
    let real: string;
    let kind: FileKind;
    try {
      real = realpathSync(path);
      kind = statSync(real);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (!catalogName && code !== 'ELOOP') return; // a broken link to something that is no catalog file
      if (code === 'ENOENT') problem(path, `is a symbolic link to ${linkTarget(path)}, which does not exist`);
      else if (code === 'ELOOP') problem(path, 'is a symbolic link that loops (ELOOP); it is not read');
      else problem(path, `cannot be read: ${(e as Error).message}`);
      return;
    }
    if (!kind.isDirectory() && !catalogName) return;
    if (!isInside(realRoot, real)) problem(path, `is a symbolic link to ${real}, outside the catalog folder; it is not read`);
    else if (!kind.isDirectory()) addFile(path, real, kind, true);
    else if (ancestors.includes(real)) {
      problem(path, `is a symbolic link to a folder that holds it (${displayPath(seen.get(real) ?? real)}); the loop is not followed`, 'warning');
    }
    else if (!readAlready(path, real, true)) walk(path, [...ancestors, real]);
  };

  seen.set(realRoot, root);
  walk(root, [realRoot]);
  return scan;
}

function linkTarget(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return 'a path';
  }
}

/** The catalog files of `root` (see scanCatalogFolder). */
export function listCatalogFiles(root: string): string[] {
  return scanCatalogFolder(root).files;
}
