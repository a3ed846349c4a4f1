/**
 * Proof that a published file is the one a build wrote: its content hash, and the identity it had on
 * disk (device, inode, size, modification time). The page cache reuses a published file only when
 * the cache's own copy of it (`site/` in the cache) still has the recorded identity or, failing that,
 * the recorded content (src/build/page-reuse.ts): a cache restored from a backup, or put together from
 * two runs, is read, and whatever differs is rendered again. A reused file is a hard link, and publishing renames
 * folders, so an unchanged file keeps its identity from build to build and is not read again.
 *
 * A folder (a full-text index's part) is proven by its own files together.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { listFilesBelow } from '../util/files.ts';

export interface FileProof {
  sha256: string;
  /** `dev:ino:size:mtimeNs`, or for a folder the hash of its files' identities. */
  stat: string;
}

/** A folder's own files (a Pagefind part: not the parts inside the root part, nor the parts list). */
export type OwnFiles = (relativePath: string) => boolean;

function fileStat(path: string): string | null {
  try {
    const st = statSync(path, { bigint: true });
    return st.isFile() ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}` : null;
  } catch {
    return null;
  }
}

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** The files of a folder that a proof covers, sorted. */
const ownFiles = (dir: string, notOwn?: OwnFiles): string[] => listFilesBelow(dir, notOwn);

/** The identity of a file or folder as it is now; null when it is not there. */
export function statOf(path: string, notOwn?: OwnFiles): string | null {
  if (!path.endsWith('/')) return fileStat(path);
  const hash = createHash('sha256');
  let files = 0;
  for (const f of ownFiles(path, notOwn)) {
    const st = fileStat(join(path, f));
    if (st === null) return null;
    hash.update(f).update('\0').update(st).update('\0');
    files++;
  }
  return files > 0 ? hash.digest('hex') : null;
}

/** The size a file's identity (`statOf`) states. */
export const sizeOf = (identity: string): number => Number(identity.split(':')[2]);

/** The content hash of a file or folder (a path ending in '/'). */
export function contentOf(path: string, notOwn?: OwnFiles): string {
  if (!path.endsWith('/')) return sha256(path);
  const hash = createHash('sha256');
  for (const f of ownFiles(path, notOwn)) hash.update(f).update('\0').update(sha256(join(path, f))).update('\0');
  return hash.digest('hex');
}

/**
 * How the file or folder at `path` is the one `proof` describes: by the same identity ('identity',
 * and then the proof still states it exactly), else by the same content ('content'); null when it is not.
 */
export function proofHolds(path: string, proof: FileProof | undefined, notOwn?: OwnFiles): 'identity' | 'content' | null {
  if (!proof) return null;
  const stat = statOf(path, notOwn);
  if (stat === null) return null;
  if (stat === proof.stat) return 'identity';
  return contentOf(path, notOwn) === proof.sha256 ? 'content' : null;
}

/**
 * The proof of the file or folder at `path` as it is now; `known` is an earlier proof, whose content
 * hash is kept when the identity is the same (a reused file: not read again).
 */
export function proofOf(path: string, known: FileProof | undefined, notOwn?: OwnFiles): FileProof {
  const stat = statOf(path, notOwn);
  if (stat === null) throw new Error(`${path} is not in the site just published`);
  return { sha256: known && known.stat === stat ? known.sha256 : contentOf(path, notOwn), stat };
}

/** The proof of a file whose content hash its writer took of the bytes it wrote: only its identity is read. */
export function writtenProof(path: string, sha256: string): FileProof {
  const stat = fileStat(path);
  if (stat === null) throw new Error(`${path} is not in the site just published`);
  return { sha256, stat };
}
