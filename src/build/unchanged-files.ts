/**
 * Writing the files of a stage's folder (the record files, the message index) so that a file the
 * published site already holds byte for byte is a hard link to the published copy, not a new file.
 *
 * Most of those files are the same from build to build, and a new file costs a new inode: on this
 * project's machine (ext4) twice to five times what a link costs, and a build that makes some
 * hundred thousand of them spends most of its system time there (docs/benchmarks.md, "Links, not new
 * files"). A published file is never written to (publish swaps whole folders:
 * src/build/publish-step.ts), so a link is as good as a copy, and the site is the same either way.
 *
 * Whether the published file holds the same bytes is known without reading it when the stage's
 * listing (kept in the build cache) records the file's identity and content hash, and the file still
 * has that identity (src/build/file-proofs.ts: device, inode, size, modification time): the new bytes'
 * hash is compared with the recorded one. Otherwise the published bytes are read and compared. The
 * listing is written at the stage's end, of what it wrote and linked; if that build is not published,
 * its files' identities are not the published ones, and the next build compares bytes instead.
 */
import { closeSync, existsSync, fstatSync, linkSync, mkdirSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { hash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../util/files.ts';
import { sizeOf, statOf } from './file-proofs.ts';

/** What a stage's files are compared with, and where the stage keeps its listing of them. */
export interface PublishedFiles {
  /** The published site's folder; null: none (the first build, or --no-cache). */
  site: string | null;
  /** The stage's listing in the build cache (`publishedFiles`); null: none is kept. */
  listing: string | null;
  /**
   * Folders besides the site whose listed files are linked the same way, each with its listing of
   * them (a merge: each shard's record files, src/build/merge.ts): a path one of them lists is looked
   * for there, not in the site.
   */
  beside?: readonly { site: string; listing: string }[];
  /**
   * The folder written may hold files already: the standby's (src/build/standby.ts), the site before
   * the published one. A file there that is the one the listing lists at its path with the new bytes'
   * hash (the same identity: a link of the published file) is kept as it is, without a look at the
   * published copy; any other is unlinked before its path is linked or written, never written into.
   */
  seeded?: boolean;
}

/**
 * The published site's folder: the output folder, until publish replaces it; null before the first
 * build, and with --no-cache, which uses nothing of an earlier build.
 */
export const publishedFolder = (settings: { outDir: string; useCache: boolean }): string | null =>
  settings.useCache && existsSync(settings.outDir) ? settings.outDir : null;

/** The published site, and the listing of `stage`'s files in the build cache. */
export const publishedFiles = (settings: { outDir: string; useCache: boolean; cacheDir: string }, stage: string): PublishedFiles => ({
  site: publishedFolder(settings),
  listing: join(settings.cacheDir, 'published-files', `${stage}.tsv`),
});

export interface UnchangedFiles {
  /**
   * Writes `data` to `path` (relative to the folder written), or links it to the published site's
   * file at `publishedPath` (`path` unless given) when that holds the same bytes.
   */
  write(path: string, data: string | Uint8Array, publishedPath?: string): void;
  /**
   * Links `path` to the published file of the same path when the listing proves, without reading it,
   * that it holds the bytes whose SHA-1 is `sha1` (base64): it is the file listed, listed with that
   * hash. Otherwise `data()`, which must be those bytes, is written as `write` does. Returns the size.
   */
  writeKnown(path: string, sha1: string, data: () => string | Uint8Array): number;
  /** Writes the listing of the files written and linked, for the next build. */
  save(): void;
  /** Files linked and files written so far; `kept`: of those linked, the files of a seeded folder already in place. */
  readonly counts: { linked: number; written: number; kept: number };
}

/**
 * The listed files: by path in the site, `identity<TAB>hash` (file-proofs' `statOf`, and the SHA-1 of
 * the bytes). Kept as lines of `path<TAB>identity<TAB>hash`, read by slicing: some hundred thousand
 * entries in a quarter of the time that parsing them as JSON or splitting each line takes.
 */
type Listing = Map<string, string>;

function readListing(file: string | null): Listing {
  const listing: Listing = new Map();
  if (file === null || !existsSync(file)) return listing;
  const text = readFileSync(file, 'utf8');
  // Written whole (writeFileAtomic): one that does not end with a newline is not this code's, and none of it is used.
  if (!text.endsWith('\n')) return listing;
  for (let at = 0; at < text.length; ) {
    const end = text.indexOf('\n', at);
    const tab = text.indexOf('\t', at);
    if (tab > at && tab < end) listing.set(text.slice(at, tab), text.slice(tab + 1, end));
    at = end + 1;
  }
  return listing;
}

/** The paths a listing names (none when it is missing or not whole). */
export function listedPaths(file: string): string[] {
  return [...readListing(file).keys()];
}

/** Whether `file` holds exactly `bytes` (false when it cannot be read). */
function sameBytes(file: string, bytes: Uint8Array): boolean {
  const old = bytesOfSize(file, bytes.byteLength);
  return old !== null && old.equals(bytes);
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

/** A writer into `dir` that links what the published site holds already (`published`; null: nothing published, no listing). */
export function unchangedFiles(dir: string, published: PublishedFiles | null): UnchangedFiles {
  const counts = { linked: 0, written: 0, kept: 0 };
  const site = published?.site ?? null;
  const before: Listing = site === null ? new Map() : readListing(published?.listing ?? null);
  /** The folder of each path a `beside` folder lists. */
  const folders = new Map<string, string>();
  for (const other of published?.beside ?? []) {
    for (const [path, listed] of readListing(other.listing)) {
      before.set(path, listed);
      folders.set(path, other.site);
    }
  }
  const after: string[] = [];
  const keep = published?.listing != null;
  /** Notes a file written or linked, with its identity (`stat`: null, to be taken), for the listing. */
  const note = (path: string, stat: string | null, sha1: string): void => {
    if (keep) after.push(`${path}\t${stat ?? statOf(join(dir, path)) ?? ''}\t${sha1}\n`);
  };
  /** The published file at `publishedPath`, its identity when it is still the one listed, and the hash listed with it. */
  const publishedCopy = (publishedPath: string): { source: string; stat: string | null; sha1: string | null } | null => {
    const from = folders.get(publishedPath) ?? site;
    if (from === null) return null;
    const source = join(from, publishedPath);
    const listed = before.get(publishedPath);
    const stat = listed === undefined ? null : statOf(source);
    const tab = listed?.lastIndexOf('\t') ?? -1;
    return stat !== null && listed!.slice(0, tab) === stat ? { source, stat, sha1: listed!.slice(tab + 1) } : { source, stat: null, sha1: null };
  };
  const seeded = published?.seeded === true;
  /**
   * In a seeded folder: true when the file at `path` is already `source` (`stat`: its identity, when
   * known), else none is left there. A file seeded may be a link of a published one: it is unlinked,
   * so that nothing writes into it.
   */
  const settled = (path: string, source: string | null, stat: string | null): boolean => {
    if (!seeded) return false;
    const target = join(dir, path);
    const there = statOf(target);
    if (there === null) return false;
    if (source !== null && there === (stat ?? statOf(source))) {
      counts.kept++;
      return true;
    }
    rmSync(target, { force: true });
    return false;
  };
  /**
   * In a seeded folder: the identity of the file at `path` when it is the file the listing lists at
   * `publishedPath` with the hash `sha1` (the same identity), so it holds those bytes: it stays, and the
   * published copy is not looked at. Null otherwise.
   */
  const inPlace = (path: string, publishedPath: string, sha1: string): string | null => {
    const listed = seeded && !folders.has(publishedPath) ? before.get(publishedPath) : undefined;
    if (listed === undefined) return null;
    const tab = listed.lastIndexOf('\t');
    if (listed.slice(tab + 1) !== sha1 || statOf(join(dir, path)) !== listed.slice(0, tab)) return null;
    counts.linked++;
    counts.kept++;
    note(path, listed.slice(0, tab), sha1);
    return listed.slice(0, tab);
  };
  /** Links `path` to `source`; false when the file system will not (another one, or too many links). */
  const link = (source: string, path: string, stat: string | null, sha1: string): boolean => {
    if (!settled(path, source, stat)) {
      try {
        linkSync(source, join(dir, path));
      } catch {
        return false;
      }
    }
    counts.linked++;
    note(path, stat, sha1);
    return true;
  };
  /** Links `path` to the published copy `from` when it holds `bytes`, else writes them. */
  const put = (path: string, bytes: Uint8Array, from: ReturnType<typeof publishedCopy>, sha1 = hash('sha1', bytes, 'base64')): void => {
    // Listed, and still the file listed: its bytes are known by their hash.
    if (from !== null && (from.sha1 !== null ? from.sha1 === sha1 : sameBytes(from.source, bytes)) && link(from.source, path, from.stat, sha1)) return;
    settled(path, null, null);
    // 'wx': a new file, never the bytes of one that is there (a seeded file may be a published one).
    writeFileSync(join(dir, path), bytes, { flag: 'wx' });
    counts.written++;
    note(path, null, sha1);
  };
  return {
    counts,
    write(path, data, publishedPath = path) {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      const sha1 = hash('sha1', bytes, 'base64');
      if (inPlace(path, publishedPath, sha1) === null) put(path, bytes, publishedCopy(publishedPath), sha1);
    },
    writeKnown(path, sha1, data) {
      const identity = inPlace(path, path, sha1);
      if (identity !== null) return sizeOf(identity);
      const from = publishedCopy(path);
      if (from?.sha1 === sha1 && link(from.source, path, from.stat, sha1)) return sizeOf(from.stat!);
      const text = data();
      const bytes = typeof text === 'string' ? Buffer.from(text) : text;
      put(path, bytes, from);
      return bytes.byteLength;
    },
    save() {
      if (!published?.listing) return;
      mkdirSync(dirname(published.listing), { recursive: true });
      writeFileAtomic(published.listing, after.join(''));
    },
  };
}
