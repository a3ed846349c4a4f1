/**
 * The message index as a paste matcher reads it, wherever the files are: the search page's worker
 * fetches them from the site, `errdex lookup` fetches them or reads a built folder. One copy of how
 * they are read, so that both doors fetch the same files for a paste: the manifest once, each shard
 * once and only when a paste's keys name it. A failed read is forgotten (the next query tries again),
 * and a query that fails once the manifest was read reads the manifest again next time: a new build
 * may have replaced the shards it names.
 */
import { matchPaste, type PasteMatch } from './matcher.ts';
import { shardFile, type EntryTuple, type MessageIndexManifest } from './message-index.ts';

/** Reads one JSON file of the index by its path below `search-index/`: `manifest.json`, `shards/<folder>/<n>.json` (message-index.ts `shardFile`). */
export type ReadIndexFile = (path: string) => Promise<unknown>;

export interface IndexSource {
  /** The manifest, read once (again after a failure). */
  manifest(): Promise<MessageIndexManifest>;
  /** Matches a paste (matcher.ts `matchPaste`), reading the shards its keys name that were not read before. */
  match(query: string, limit?: number, whileFetching?: () => Promise<unknown>): Promise<PasteMatch>;
}

export const MANIFEST_FILE = 'manifest.json';

export function indexSource(read: ReadIndexFile): IndexSource {
  let manifest: Promise<MessageIndexManifest> | null = null;
  const shards = new Map<string, Promise<EntryTuple[]>>();

  function loadManifest(): Promise<MessageIndexManifest> {
    if (!manifest) {
      const p = read(MANIFEST_FILE) as Promise<MessageIndexManifest>;
      manifest = p;
      p.catch(() => {
        if (manifest === p) manifest = null;
      });
    }
    return manifest;
  }

  function loadShard(m: MessageIndexManifest, n: number): Promise<EntryTuple[]> {
    const path = shardFile(m, n);
    let p = shards.get(path);
    if (!p) {
      p = read(path) as Promise<EntryTuple[]>;
      p.catch(() => shards.delete(path));
      shards.set(path, p);
    }
    return p;
  }

  return {
    manifest: loadManifest,
    async match(query, limit = 20, whileFetching) {
      const m = await loadManifest();
      try {
        return await matchPaste(query, m, (n) => loadShard(m, n), limit, whileFetching);
      } catch (e) {
        manifest = null;
        throw e;
      }
    },
  };
}
