/**
 * Writing the files of a stage's folder (the record files, the message index) so that a file the
 * published site already holds byte for byte is a hard link to the published copy, not a new file.
 *
 * Most of those files are the same from build to build, and a new file costs a new inode: on this
 * project's machine (ext4) twice to five times what a link costs, and a build that makes some
 * hundred thousand of them spends most of its system time there (docs/benchmarks.md, "Links, not new
 * files"). Comparing first costs a stat and a read of a file the page cache usually holds. A
 * published file is never written to (publish swaps whole folders: src/build/publish-step.ts), so a
 * link is as good as a copy, and the bytes are compared, so the site is the same either way.
 */
import { closeSync, existsSync, fstatSync, linkSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The published site's folder, for `unchangedFiles`: the output folder, until publish replaces it;
 * null before the first build, and with --no-cache, which uses nothing of an earlier build.
 */
export const publishedFolder = (settings: { outDir: string; useCache: boolean }): string | null =>
  settings.useCache && existsSync(settings.outDir) ? settings.outDir : null;

export interface UnchangedFiles {
  /**
   * Writes `data` to `path` (relative to the folder written), or links it to the published site's
   * file at `publishedPath` (`path` unless given) when that holds the same bytes.
   */
  write(path: string, data: string | Uint8Array, publishedPath?: string): void;
  /** Files linked and files written so far. */
  readonly counts: { linked: number; written: number };
}

/** The bytes of `file` when it has exactly `size` of them; null otherwise, or when it cannot be read. */
function bytesOfSize(file: string, size: number): Buffer | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    if (fstatSync(fd).size !== size) return null;
    const buffer = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) return null;
      read += n;
    }
    return buffer;
  } finally {
    closeSync(fd);
  }
}

/** A writer into `dir` that links what the published site (`published`, its folder; null: none) holds already. */
export function unchangedFiles(dir: string, published: string | null): UnchangedFiles {
  const counts = { linked: 0, written: 0 };
  return {
    counts,
    write(path, data, publishedPath = path) {
      const target = join(dir, path);
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      if (published !== null) {
        const source = join(published, publishedPath);
        const old = bytesOfSize(source, bytes.byteLength);
        if (old !== null && old.equals(bytes)) {
          try {
            linkSync(source, target);
            counts.linked++;
            return;
          } catch {
            // Another file system, or too many links: written instead.
          }
        }
      }
      writeFileSync(target, bytes);
      counts.written++;
    },
  };
}
