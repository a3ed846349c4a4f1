/**
 * Files: listing a built site's files (tests, the link checker, measurements, reused full-text parts),
 * and writing a state file (the URL ledger, the build cache's page manifest, reports) so that a crash
 * or a full disk leaves either the old file or the new one, never a part of one.
 */
import { closeSync, copyFileSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

/**
 * Every file below a folder, as paths relative to it with '/' separators, sorted. `skip`: files and
 * folders (given their relative path) to leave out; a folder left out is not read. A link to a folder
 * is that folder (the merge's page store links to the shards' folders: src/build/merge.ts).
 */
export function listFilesBelow(dir: string, skip?: (path: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      const path = relative(dir, full).split('\\').join('/');
      if (skip?.(path)) continue;
      if (e.isDirectory() || (e.isSymbolicLink() && statSync(full, { throwIfNoEntry: false })?.isDirectory())) walk(full);
      else out.push(path);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort();
}

/**
 * A new file at `to` (what was there removed) with the bytes of `from`: a hard link, or a copy across
 * file systems. Neither file may be written through afterwards: they may be one.
 */
export function linkOrCopy(from: string, to: string): void {
  rmSync(to, { force: true });
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** `linkOrCopy` under a temporary name beside `to`, then renamed over it: `to` is the old file or the new one, never a part of one. */
export function linkOrCopyAtomic(from: string, to: string): void {
  const temp = tempFileFor(to);
  linkOrCopy(from, temp);
  renameSync(temp, to);
}

/** Where `writeFileAtomic` writes before the rename: beside the file, so that the rename stays on one file system. */
export const tempFileFor = (path: string): string => join(dirname(path), `.${basename(path)}.tmp-${process.pid}`);

/** Flushes a folder's entries (a rename in it) to disk; a no-op where folders cannot be opened (Windows). */
export function fsyncDir(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder; the rename is then as durable as they make it.
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `path` whole or not at all: the text goes to a temporary file beside it, which is flushed to
 * disk and then renamed over `path` (a rename replaces a file in one step). On failure (a full disk)
 * the temporary file is removed, `path` is as it was, and the error is thrown.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const temp = tempFileFor(path);
  try {
    writeDurably(temp, data);
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
  fsyncDir(dirname(path));
}

/**
 * Writes `path` whole or not at all, as writeFileAtomic does, but flushes nothing to disk: for a cache
 * file whose copy torn by a crash is found unreadable and made again. Its folder is made if need be.
 */
export function replaceFile(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = tempFileFor(path);
  writeFileSync(temp, data);
  renameSync(temp, path);
}

/** Writes a file and flushes it to disk before returning (the first half of writeFileAtomic). */
export function writeDurably(path: string, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const fd = openSync(path, 'w');
  try {
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
