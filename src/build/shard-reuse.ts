/**
 * What a merge takes as a shard made it (src/build/merge.ts): the key that tells a shard's validated
 * snapshot is the merge's (`snapshotKey`), and what a shard's folder says of a stage's output
 * (`readShardFile`). The stages that use them (record files, filter indexes, message index) decide
 * for themselves what matching keys let them skip.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { siteConfig } from '../../errdex.config.mjs';
import { ledgerPlanFile } from '../catalog/snapshot.ts';
import type { BuildState } from './state.ts';

/** What a JSON file of a shard's folder says; null when it cannot be read (the merge then makes that part itself). */
export function readShardFile<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** Adds a file's bytes to `hash`, a few megabytes at a time (a snapshot holds the whole catalog). */
function hashFile(hash: Hash, file: string): void {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(4 << 20);
    for (let n: number; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0; ) hash.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}

/**
 * The hash of what the stages beside the render read (the validated snapshot, its head and ledger:
 * the records, the URL ledger's plan, the catalog's folder), of the settings every page carries and
 * of errdex's code. Every shard validates the whole catalog, so a shard's and the merge's are the same
 * when they validated the same catalog the same way: what a shard made from it (its record files, shard
 * 1's message index) is then what the merge would make. Taken once per build; undefined for a build
 * that is neither a shard nor a merge, whose stages carry nothing to another build.
 */
export function snapshotKey(s: BuildState): string | undefined {
  if (s.settings.shard === null && s.settings.fromShards === undefined) return undefined;
  if (s.snapshotKey === undefined) {
    const hash = createHash('sha256').update(JSON.stringify([s.code, s.settings.datasetVersion, siteConfig]));
    for (const file of [s.head, ledgerPlanFile(s.head), s.snapshot]) hashFile(hash, file);
    s.snapshotKey = hash.digest('hex');
  }
  return s.snapshotKey;
}
