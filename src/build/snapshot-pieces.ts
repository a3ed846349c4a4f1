/**
 * The build cache's snapshot pieces (`snapshot/`): a hard link of each piece of the snapshot the last
 * build wrote (src/catalog/snapshot.ts), under its key, with the identity each file had
 * (src/build/file-proofs.ts `statOf`) and the code's key in `pieces.json`. The next build of the same
 * code takes a piece whose kept files still have those identities (a hard link into its snapshot
 * folder, a copy across file systems) instead of writing it, so an edit writes the piece or two its
 * records are in, not the whole snapshot. A kept file that is not as it was is not trusted: its piece
 * is written again. What the build's snapshot does not use is removed when it is saved.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PieceFiles, PieceStore } from '../catalog/snapshot.ts';
import { linkOrCopy, linkOrCopyAtomic, writeFileAtomic } from '../util/files.ts';
import { statOf } from './file-proofs.ts';

interface Kept {
  code: string;
  pieces: Record<string, { full: string; lean: string }>;
}

const KEPT_FILE = 'pieces.json';

/** Where a build cache keeps its snapshot pieces. */
export const snapshotPiecesDir = (cacheDir: string): string => join(cacheDir, 'snapshot');

function readKept(dir: string, code: string): Kept['pieces'] {
  try {
    const kept = JSON.parse(readFileSync(join(dir, KEPT_FILE), 'utf8')) as Kept;
    return kept.code === code && typeof kept.pieces === 'object' && kept.pieces !== null ? kept.pieces : {};
  } catch {
    return {};
  }
}

/**
 * The store of the cache folder `dir` for a build of the code `code`; `save` writes what this build's
 * snapshot used and removes the rest. `taken`, `written`: the pieces taken and written so far.
 */
export function snapshotPieceStore(dir: string, code: string): PieceStore & { save: () => void; taken: number; written: number } {
  const kept = readKept(dir, code);
  const used: Kept['pieces'] = {};
  const keptFiles = (key: string) => ({ full: join(dir, `${key}.jsonl`), lean: join(dir, `${key}-lean.jsonl`) });
  const store = {
    taken: 0,
    written: 0,
    take(key: string, files: PieceFiles): boolean {
      const proof = kept[key];
      const from = keptFiles(key);
      if (!proof || statOf(from.full) !== proof.full || statOf(from.lean) !== proof.lean) return false;
      linkOrCopy(from.full, files.full);
      linkOrCopy(from.lean, files.lean);
      used[key] = proof;
      store.taken++;
      return true;
    },
    keep(key: string, files: PieceFiles): void {
      mkdirSync(dir, { recursive: true });
      const to = keptFiles(key);
      for (const which of ['full', 'lean'] as const) linkOrCopyAtomic(files[which], to[which]);
      const full = statOf(to.full);
      const lean = statOf(to.lean);
      if (full !== null && lean !== null) used[key] = { full, lean };
      store.written++;
    },
    save(): void {
      mkdirSync(dir, { recursive: true });
      writeFileAtomic(join(dir, KEPT_FILE), JSON.stringify({ code, pieces: used } satisfies Kept));
      const files = new Set([KEPT_FILE, ...Object.keys(used).flatMap((key) => [`${key}.jsonl`, `${key}-lean.jsonl`])]);
      for (const name of readdirSync(dir)) if (!files.has(name)) rmSync(join(dir, name), { force: true, recursive: true });
    },
  };
  return store;
}
