/**
 * Shards and their merge (src/catalog/shard.ts says how records are dealt; docs/scale.md why).
 *
 * A shard's folder is a build cache's page store: `site/` (its error pages and its full-text parts),
 * `pages.json` (their keys and proofs: src/build/page-reuse.ts) and `shard.json` (which shard, of which
 * catalog, by which code); beside it `records/` (its records' JSON twins and short links, with their
 * listing and what their stage said of them), `list-index/` (its share of the listings' filter
 * indexes, by their keys, with the list of them) and, in shard 1's, the message index with its key. The merge joins the shards' page stores into one, of links
 * (`joinShards`), and runs the one build there is, reading the shards' other files where they are: it
 * reuses every error page, full-text part, record file, filter index and message index the shards
 * made whose key or bytes are the ones it computes, renders the site-wide pages, and publishes with
 * every check. So the merged site is the site a build on one machine makes, byte for byte, by
 * construction.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { displayPath, listCatalogFiles, RESERVED_FILES } from '../catalog/load.ts';
import { shardLabel, type Shard } from '../catalog/shard.ts';
import { listFilesBelow, writeFileAtomic } from '../util/files.ts';
import { LIST_INDEX_DIR } from './stages/list-index.ts';
import { removeInBackground } from './site-folders.ts';
import { keptSite, linkReused, manifestFile, readManifest, writeManifest, type PageManifest } from './page-reuse.ts';

export const SHARD_FILE = 'shard.json';

/**
 * The folder, in a build cache, of what validation and derive keep for the next build of the same
 * code (src/build/stages/validate.ts). Shard 1's folder carries its copy: every shard validates the
 * whole catalog, so the merge, which does too, takes it as its own.
 */
export const catalogMemoDir = (dir: string): string => join(dir, 'catalog');

/**
 * The folder of a shard's record files (its records' JSON twins and short links), beside its page
 * store. With the record files stage's listing of them (src/build/unchanged-files.ts) in
 * `shardRecordsListing`, so that the merge's record files stage links them from there, their bytes
 * known by the listed identity, or compared.
 */
export const SHARD_RECORDS = 'records';
export const shardRecordsListing = (dir: string): string => join(dir, `${SHARD_RECORDS}.tsv`);
/**
 * What the shard's record files stage said of them, with the heads of its short links and the key of
 * what they were made from (src/build/shard-reuse.ts `snapshotKey`): a merge whose own key is the
 * same links them all without making any (src/build/stages/record-files.ts).
 */
export const shardRecordsResult = (dir: string): string => join(dir, `${SHARD_RECORDS}.json`);

/**
 * Shard 1's message index (its stage's folder) and what its stage said of it, with the key of what it
 * was made from: the merge links it when its own key is the same (src/build/stages/message-index.ts).
 */
export const SHARD_MESSAGE_INDEX = 'message-index';
export const shardMessageIndexResult = (dir: string): string => join(dir, `${SHARD_MESSAGE_INDEX}.json`);

/** What a shard's folder says of itself. */
export interface ShardStamp {
  shard: Shard;
  /** The key of the code that built it (codeKey): the merge's must be the same. */
  code: string;
  /** catalogDigest of the catalog it was built from. */
  catalog: string;
  /** The dataset version of records that carry none: the merge builds with it. */
  datasetVersion: string;
  /** Records of the catalog, and of this shard. */
  records: number;
  shardRecords: number;
}

/**
 * The catalog's content, as shards and the merge compare it: each catalog file's path in the folder
 * and bytes, and the folder's own files (classes, URL ledger, ReDoS verdicts) that shape pages.
 */
export function catalogDigest(root: string): string {
  const hash = createHash('sha256');
  const files = [...listCatalogFiles(root), ...[...RESERVED_FILES].map((f) => join(root, f)).filter((f) => existsSync(f))].sort();
  for (const file of files) hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

export class MergeProblem extends Error {}

/** The shards' folders read and checked together: every problem found, in one error. */
export function readShards(dirs: readonly string[], expect: { code: string; catalog: string }): ShardStamp[] {
  const problems: string[] = [];
  const stamps: { dir: string; stamp: ShardStamp }[] = [];
  for (const dir of dirs) {
    const file = join(dir, SHARD_FILE);
    if (!existsSync(file)) {
      problems.push(`${displayPath(dir)} is not a shard's folder: it has no ${SHARD_FILE} (build one with npm run build -- --shard i/n --out ${displayPath(dir)})`);
      continue;
    }
    try {
      stamps.push({ dir, stamp: JSON.parse(readFileSync(file, 'utf8')) as ShardStamp });
    } catch (e) {
      problems.push(`${displayPath(file)}: ${(e as Error).message}`);
    }
  }
  const counts = new Set(stamps.map((s) => s.stamp.shard.count));
  if (counts.size > 1) problems.push(`the shards are of different splits (${[...counts].map((n) => `of ${n}`).join(', ')}): merge the shards of one build`);
  const n = stamps[0]?.stamp.shard.count ?? 0;
  const seen = new Map<number, string>();
  for (const { dir, stamp } of stamps) {
    const label = `${displayPath(dir)} (shard ${shardLabel(stamp.shard)})`;
    const other = seen.get(stamp.shard.index);
    if (other) problems.push(`${label} and ${other} are the same shard`);
    seen.set(stamp.shard.index, label);
    if (stamp.catalog !== expect.catalog) problems.push(`${label} was built from another catalog (its files differ from these): build every shard and the merge from one commit`);
    if (stamp.code !== expect.code) problems.push(`${label} was built by other code (errdex, the site's source or config, or the locked dependencies differ): build every shard and the merge from one commit`);
    if (stamp.datasetVersion !== stamps[0]!.stamp.datasetVersion) {
      problems.push(`${label} has the dataset version ${stamp.datasetVersion}, ${displayPath(stamps[0]!.dir)} ${stamps[0]!.stamp.datasetVersion}: set SOURCE_DATE_EPOCH to one time (the commit's) for every shard`);
    }
    for (const part of [manifestFile(dir), keptSite(dir)]) if (!existsSync(part)) problems.push(`${label} has no ${relative(dir, part)}: was its build stopped?`);
  }
  if (counts.size === 1) {
    const missing = Array.from({ length: n }, (_, i) => i).filter((i) => !seen.has(i));
    if (missing.length > 0) problems.push(`shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i + 1}/${n}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`);
  }
  if (dirs.length === 0) problems.push('no shard folders given');
  if (problems.length > 0) throw new MergeProblem(`The shards cannot be merged:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return stamps.map((s) => s.stamp);
}

/**
 * The merge's page store in its build cache: the shards' folders joined (`joinShards`), read in place
 * of the kept copy of a published site (src/build/page-reuse.ts `keptSite`) for the one build it
 * serves. It links into the shards' folders, so no build writes into it.
 */
export const shardsStore = (cacheDir: string): string => join(cacheDir, 'shards');

/**
 * Joins the shards' page stores into one in the merge's build cache (`shardsStore`), as if one build
 * had published them: their manifests as one, their files as one folder. Their proofs hold there (the
 * same identity, or failing that the same content: src/build/file-proofs.ts). Each shard's share of
 * the listings' filter indexes and shard 1's validation memo go into the cache itself, where the
 * stages look for them. Returns the files.
 */
export function joinShards(dirs: readonly string[], cacheDir: string, code: string): number {
  const store = shardsStore(cacheDir);
  const next = `${store}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  const joined: PageManifest = { code, site: '(merged shards)', files: {}, proofs: {}, heads: {} };
  for (const dir of dirs) {
    const manifest = readManifest(manifestFile(dir));
    if (!manifest) throw new MergeProblem(`${displayPath(manifestFile(dir))} cannot be read: build the shard again`);
    for (const path of Object.keys(manifest.files)) {
      if (path in joined.files) throw new MergeProblem(`${path} is in two shards (${displayPath(dir)} and another): merge the shards of one build`);
    }
    Object.assign(joined.files, manifest.files);
    Object.assign(joined.proofs!, manifest.proofs ?? {});
    Object.assign(joined.heads!, manifest.heads ?? {});
    // Each shard's share of the listings' filter indexes, kept by their keys: the merge's stage finds them there.
    if (existsSync(join(dir, LIST_INDEX_DIR))) cpSync(join(dir, LIST_INDEX_DIR), join(cacheDir, LIST_INDEX_DIR), { recursive: true });
    if (existsSync(catalogMemoDir(dir))) {
      rmSync(catalogMemoDir(cacheDir), { recursive: true, force: true });
      cpSync(catalogMemoDir(dir), catalogMemoDir(cacheDir), { recursive: true });
    }
  }
  joinFolders(dirs.map(keptSite), keptSite(next));
  writeManifest(next, joined);
  rmSync(store, { recursive: true, force: true });
  renameSync(next, store);
  return Object.keys(joined.files).length;
}

/**
 * After a merge is published: its page store goes (links into the shards' folders, which may go
 * next), and so does any kept copy of a site in its build cache, since the next merge joins the
 * shards again. Both are removed in the background, as publish removes the previous site.
 */
export function dropShardsStore(cacheDir: string): void {
  for (const dir of [shardsStore(cacheDir), keptSite(cacheDir)]) {
    if (!existsSync(dir)) continue;
    const old = `${dir}.old-${process.pid}`;
    rmSync(old, { recursive: true, force: true });
    renameSync(dir, old);
    removeInBackground(old);
  }
}

/**
 * Joins `sources` (folders; those missing are skipped) into the folder `into`: an entry that one of
 * them alone has is a symbolic link to it when it is a folder (a hard link when it is a file), and a
 * folder that several have is joined the same way. The shards' error pages are a folder each, most of
 * them in a repository's folder that one shard alone has: joined by their files, they cost a new folder
 * and a link per page (some seconds per 40,000 pages); this way, a link per folder that is one
 * shard's. Where links to folders cannot be made, the folder's files are linked.
 */
function joinFolders(sources: readonly string[], into: string): void {
  mkdirSync(into, { recursive: true });
  const entries = new Map<string, { path: string; folder: boolean }[]>();
  for (const source of sources) {
    if (!existsSync(source)) continue;
    for (const e of readdirSync(source, { withFileTypes: true })) {
      const path = resolve(source, e.name);
      const folder = e.isDirectory() || (e.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isDirectory() === true);
      entries.set(e.name, [...(entries.get(e.name) ?? []), { path, folder }]);
    }
  }
  for (const [name, from] of entries) {
    const target = join(into, name);
    if (from.length > 1) {
      if (!from.every((f) => f.folder)) throw new MergeProblem(`${from.map((f) => displayPath(f.path)).join(' and ')} are one file of two shards: merge the shards of one build`);
      joinFolders(from.map((f) => f.path), target);
    } else if (from[0]!.folder) {
      try {
        symlinkSync(from[0]!.path, target, 'dir');
      } catch {
        linkReused(listFilesBelow(from[0]!.path), from[0]!.path, target);
      }
    } else linkReused([name], dirname(from[0]!.path), into);
  }
}

/** Writes a shard's stamp last, once its folder is whole. */
export function writeStamp(dir: string, stamp: ShardStamp): void {
  writeFileAtomic(join(dir, SHARD_FILE), `${JSON.stringify(stamp, null, 2)}\n`);
}
