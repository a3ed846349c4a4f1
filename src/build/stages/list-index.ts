/**
 * The list-index stage, in a child process (it needs the validated catalog, not the pages): the filter
 * index (src/views/list-index.ts) of each listing of more than one page (repositories, failure classes,
 * tags), which the listing's filter fetches instead of its other pages: `list-index/{listing}/index.json`
 * and, in a folder named by a hash of their bytes (so a browser may keep them), the gzipped word, row
 * and quick-filter files. The head is fetched each time. Into a folder of its own, merged into the site
 * by publish.
 *
 * A listing's files are a function of its rows' fields, the classes' titles, its quick filters and the
 * code, so they are kept in the build cache under a hash of those: an edit changes the few listings its
 * record is in, and the others are written from the cache, not indexed and gzipped again. Written as the
 * message index is (src/build/unchanged-files.ts): a file the published site holds the same is linked
 * to it, or kept where the standby's `list-index/` holds it already (src/build/standby.ts).
 *
 * A shard's build (`share`) makes its share of the listings into that cache only, which its folder
 * carries to the merge (src/build/merge.ts) with the list of its listings and the key of the snapshot
 * they were made from. A merge whose snapshot has the same key writes every shard's listings from
 * that list, reading nothing of the catalog; otherwise it finds every listing in the cache under the
 * key it computes itself, and writes them all without indexing one.
 */
import { createHash, hash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { replaceFile, writeFileAtomic } from '../../util/files.ts';
import { plural } from '../../util/text.ts';
import type { SnapshotHead } from '../../catalog/snapshot.ts';
import { textKey, type CatalogEntry } from '../../catalog/entry.ts';
import type { ErrorRecord } from '../../schema/record.ts';
import type { IndexFacet, ListIndexRecord, ListKind } from '../../views/list-index.ts';
import { formatCount } from '../progress.ts';
import { childMain, startStageChild } from '../protocol.ts';
import { stageProcess } from '../plan.ts';
import type { StageContext } from '../pipeline.ts';
import { readShardFile, snapshotKey } from '../shard-reuse.ts';
import type { BuildState, ListIndexResult, MadeListing } from '../state.ts';
import { keepOnly, takeFromStandby } from '../standby.ts';
import { publishedFiles, unchangedFiles, type PublishedFiles } from '../unchanged-files.ts';

export interface ListIndexOptions {
  /** The validated catalog (src/catalog/snapshot.ts) and its head (the failure classes). */
  snapshot: string;
  head: string;
  /** The files go here, to be merged into the site. */
  outDir: string;
  /** The build cache's folder for listings' files and the code's key (src/build/page-reuse.ts `codeKey`); null: none kept or used. */
  cache: { dir: string; code: string } | null;
  /** A shard's build: the listings of this share (by a hash of the listing's path) into the cache, none into `outDir`. */
  share?: { index: number; count: number } | null;
  /** A merge: the shards' folders whose listings were made from the same snapshot (`shardListingsFit`), written from their lists. */
  fromShards?: readonly string[];
  /** The published site's filter indexes, which a file the same is linked to (src/build/unchanged-files.ts); null: none. */
  published?: PublishedFiles | null;
  /** The standby this build claimed (src/build/standby.ts), whose `list-index/` is filled in place; null: none. */
  standby?: string | null;
}

/** A listing's files as kept in the cache: the folder they go in, the head's text and each file, base64. */
interface CachedListing {
  dir: string;
  head: string;
  files: [string, string][];
}

/** The cache key of a listing's files: everything `listIndex` reads, and what shapes its output (the code, zlib). */
function listingKey(
  code: string,
  job: { kind: ListKind; path: string; records: readonly ListIndexRecord[]; facets: readonly IndexFacet[] },
  titles: ReadonlyMap<string, string>,
): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify([code, process.versions.zlib, job.kind, job.path, [...titles], job.facets]));
  for (const r of job.records)
    hash.update(JSON.stringify([r.errorMessage, r.filePath, r.lineNumber, r.severity, r.errorClass, r.slug, r.repo, r.backgroundTag]));
  return hash.digest('hex').slice(0, 40);
}

/** A listing's files from the cache, or null when they are not there (or unreadable: made again). */
function readCached(file: string): CachedListing | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as CachedListing;
  } catch {
    return null;
  }
}

/** A listing to index: its kind, its first page's path, its rows and its quick filters. */
type Job = { kind: ListKind; path: string; records: ListIndexRecord[]; facets: IndexFacet[] };

/** A listing to write: its key in the cache (null: no cache), its rows' count, and what to index it from (none when a shard made it). */
type Listing = Omit<MadeListing, 'key'> & { key: string | null; job?: Job };

/** The listings to write: every listing of the catalog, or a shard's share of them, made from `entries`. */
async function listingJobs(entries: readonly CatalogEntry[], options: ListIndexOptions, titles: ReadonlyMap<string, string>, classes: SnapshotHead['classes']): Promise<Listing[]> {
  // What only the child needs is loaded here, not where the build imports this module (src/build/protocol.ts).
  const [{ browseListings }, { hasListIndex }, { repoListing, repoFacets }, { classListing, tagListing }, { partitionOfId }] = await Promise.all([
    import('../../catalog/derive/index.ts'),
    import('../../views/list-index.ts'),
    import('../../views/repo-listing.ts'),
    import('../../views/collection-listing.ts'),
    import('../../catalog/partition.ts'),
  ]);
  const b = browseListings(entries, classes);
  const jobs: Job[] = [];
  for (const s of b.repos) {
    const l = repoListing(s);
    if (hasListIndex(l)) jobs.push({ kind: 'repo', path: l.pages[0]!.path, records: s.entries.map((e) => e.record), facets: repoFacets(s) });
  }
  for (const s of b.classes) {
    const l = classListing(s);
    if (hasListIndex(l)) jobs.push({ kind: 'class', path: l.pages[0]!.path, records: s.entries.map((e) => e.record), facets: [] });
  }
  for (const s of b.tags) {
    const l = tagListing(s);
    if (hasListIndex(l)) jobs.push({ kind: 'tag', path: l.pages[0]!.path, records: s.entries.map((e) => e.record), facets: [] });
  }
  const share = options.share;
  return (share ? jobs.filter((job) => partitionOfId(job.path, share.count) === share.index) : jobs).map(
    (job): Listing => ({ path: job.path, key: options.cache ? listingKey(options.cache.code, job, titles) : null, rows: job.records.length, job }),
  );
}

/**
 * What the last build's listings were made from, kept in the build cache: each lean record as the
 * listings read it (without its documentation: `browseListings` reads nothing else of an entry),
 * hashed, by the hash of its entry's text; the digest of those in the snapshot's order with the
 * classes, the code and the share; and the listings made. An edit of a record's prose or code leaves
 * the digest as it was, so the listings are the last build's: written from the cache with only the
 * changed records parsed, not the whole lean snapshot.
 */
interface ListingsMemo {
  digest: string;
  rows: Record<string, string>;
  made: MadeListing[];
}

const LISTINGS_MEMO = 'list-index-listings.json';

function readListingsMemo(file: string): ListingsMemo | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ListingsMemo;
  } catch {
    return null;
  }
}

const rowHash = (record: ErrorRecord): string => hash('sha1', JSON.stringify(record), 'base64');

/** The rows by text hash, and their digest in order with what every listing is made from besides them. */
function rowsDigest(options: ListIndexOptions, classes: SnapshotHead['classes'], rows: Iterable<[textKey: string, row: string]>): Pick<ListingsMemo, 'digest' | 'rows'> {
  const byText: Record<string, string> = {};
  const digest = createHash('sha256').update(JSON.stringify([options.cache?.code ?? null, process.versions.zlib, classes, options.share ?? null]));
  for (const [text, row] of rows) {
    byText[text] = row;
    digest.update(row);
  }
  return { digest: digest.digest('hex'), rows: byText };
}

/** The listings to write and how many records were parsed for them: the last build's when what they are made from is the same, else every listing made again. */
async function listingsToWrite(options: ListIndexOptions, titles: ReadonlyMap<string, string>, classes: SnapshotHead['classes']): Promise<{ listings: Listing[]; read: number }> {
  const { leanSnapshotEntries, leanSnapshotTextKeys } = await import('../../catalog/snapshot.ts');
  const memoFile = options.cache && join(options.cache.dir, LISTINGS_MEMO);
  const kept = memoFile ? readListingsMemo(memoFile) : null;
  if (kept && memoFile) {
    let read = 0;
    const now = rowsDigest(
      options,
      classes,
      (function* () {
        for (const [text, record] of leanSnapshotTextKeys(options.snapshot)) {
          let row = kept.rows[text];
          if (row === undefined) {
            row = rowHash(record());
            read++;
          }
          yield [text, row] as [string, string];
        }
      })(),
    );
    const cacheDir = join(options.cache!.dir, LIST_INDEX_DIR);
    if (now.digest === kept.digest && kept.made.every((l) => existsSync(join(cacheDir, `${l.key}.json`)))) {
      if (read > 0 || Object.keys(kept.rows).length !== Object.keys(now.rows).length) replaceFile(memoFile, JSON.stringify({ ...kept, rows: now.rows }));
      return { listings: kept.made, read };
    }
  }
  const entries = [...leanSnapshotEntries(options.snapshot)];
  const listings = await listingJobs(entries, options, titles, classes);
  if (memoFile) {
    const now = rowsDigest(options, classes, entries.map((e): [string, string] => [textKey(e), rowHash(e.record)]));
    replaceFile(memoFile, JSON.stringify({ ...now, made: listings.map(({ path, key, rows }) => ({ path, key: key!, rows })) } satisfies ListingsMemo));
  }
  return { listings, read: entries.length };
}

/** A shard's folder's list of the listings it made (`ListIndexResult.made`) and the key of their snapshot. */
export const shardListings = (dir: string): string => join(dir, `${LIST_INDEX_DIR}.json`);

const readShardListings = (dir: string): ListIndexResult | null => readShardFile<ListIndexResult>(shardListings(dir));

/**
 * Whether the shards' listings are the merge's: every shard's made from a snapshot of this `key`, and
 * each listing's files in the merge's build cache (`cacheDir`, where src/build/merge.ts `joinShards` puts them).
 */
export function shardListingsFit(dirs: readonly string[], key: string, cacheDir: string): boolean {
  return dirs.every((dir) => {
    const made = readShardListings(dir);
    return made?.key === key && made.made !== undefined && made.made.every((l) => existsSync(join(cacheDir, LIST_INDEX_DIR, `${l.key}.json`)));
  });
}

export async function listIndexes(options: ListIndexOptions): Promise<ListIndexResult> {
  const [{ readHead }, { listIndex, listIndexFiles }, { listIndexPath }] = await Promise.all([
    import('../../catalog/snapshot.ts'),
    import('../../views/list-index.ts'),
    import('../../util/urls.ts'),
  ]);
  const { classes } = readHead(options.head);
  const titles = new Map(classes.map((c) => [c.id, c.title]));
  const { listings: made, read } = options.fromShards
    ? { listings: options.fromShards.flatMap((dir): Listing[] => readShardListings(dir)!.made!), read: 0 }
    : await listingsToWrite(options, titles, classes);
  const share = options.share;
  rmSync(options.outDir, { recursive: true, force: true });
  // Publish merges this folder even when no listing has several pages.
  mkdirSync(options.outDir, { recursive: true });
  // Most listings' files are those of the published site: linked to them, or kept where the standby
  // has them already, rather than written anew.
  const seeded = !share && takeFromStandby(options.standby ?? null, LIST_INDEX_DIR, join(options.outDir, LIST_INDEX_DIR));
  const files = share ? null : unchangedFiles(options.outDir, options.published ? { ...options.published, seeded } : null);
  const written = new Set<string>();
  const cacheDir = options.cache && join(options.cache.dir, LIST_INDEX_DIR);
  if (cacheDir) mkdirSync(cacheDir, { recursive: true });
  const used = new Set<string>();
  const result: ListIndexResult = { listings: made.length, cached: 0, read, records: 0, files: 0, bytes: 0, largestBytes: 0 };
  for (const { path, key, rows, job } of made) {
    const cacheFile = cacheDir && key ? join(cacheDir, `${key}.json`) : null;
    let listing = cacheFile ? readCached(cacheFile) : null;
    if (listing) result.cached++;
    else if (!job) throw new Error(`The filter index of ${path}, made by a shard, is not in ${cacheDir}: build the shards again`);
    else {
      const { head, files } = listIndexFiles(listIndex(job.kind, job.records, titles, job.facets));
      const gzipped = files.map((f) => [f.name, gzipSync(f.json, { level: 9 })] as const);
      const hash = createHash('sha256');
      for (const [name, gz] of gzipped) hash.update(name).update(gz);
      const dir = hash.digest('hex').slice(0, 12);
      listing = { dir, head: JSON.stringify({ ...head, dir }), files: gzipped.map(([name, gz]) => [name, gz.toString('base64')]) };
      if (cacheFile) writeFileAtomic(cacheFile, JSON.stringify(listing));
    }
    if (key) used.add(`${key}.json`);
    result.records += rows;
    if (!files) continue;
    const head = listIndexPath(path).slice(1);
    const dir = `${head.slice(0, head.lastIndexOf('/'))}/${listing.dir}`;
    mkdirSync(join(options.outDir, dir), { recursive: true });
    let bytes = 0;
    for (const [name, base64] of listing.files) {
      const gz = Buffer.from(base64, 'base64');
      files.write(`${dir}/${name}`, gz);
      written.add(`${dir}/${name}`);
      bytes += gz.length;
    }
    files.write(head, listing.head);
    written.add(head);
    result.files += listing.files.length + 1;
    result.bytes += bytes + listing.head.length;
    result.largestBytes = Math.max(result.largestBytes, bytes + listing.head.length);
  }
  if (files) {
    files.save();
    if (seeded) {
      keepOnly(join(options.outDir, LIST_INDEX_DIR), written, `${LIST_INDEX_DIR}/`);
      result.inPlace = files.counts.kept;
    }
  }
  // The cache keeps the listings of this build only.
  if (cacheDir) for (const f of readdirSync(cacheDir)) if (!used.has(f)) rmSync(join(cacheDir, f), { force: true });
  // A shard's list of its listings, for the merge.
  if (share) result.made = made.map(({ path, key, rows }) => ({ path, key: key!, rows }));
  return result;
}

/** The listings' files' folder in a build cache (and in a shard's folder). */
export const LIST_INDEX_DIR = 'list-index';
/** Where a build keeps its listings' files: the build cache, or for a shard built without one, its work folder (the shard's folder carries them). */
export const listIndexCache = (s: Pick<BuildState, 'settings' | 'dirs'>): string | null =>
  s.settings.useCache ? s.settings.cacheDir : s.settings.shard ? s.dirs.root : null;

export async function listIndexStage(ctx: StageContext<BuildState>): Promise<void> {
  const s = ctx.state;
  const cache = listIndexCache(s);
  const { shard, fromShards } = s.settings;
  const key = snapshotKey(s);
  const fit = fromShards && key && cache && shardListingsFit(fromShards, key, cache) ? fromShards : undefined;
  const options: ListIndexOptions = {
    snapshot: s.snapshot,
    head: s.head,
    outDir: s.dirs.listIndex,
    cache: cache ? { dir: cache, code: s.code } : null,
    share: shard,
    fromShards: fit,
    published: s.settings.useCache ? publishedFiles(s.settings, 'list-index') : null,
    standby: s.standby,
  };
  const child = startStageChild<ListIndexResult>(import.meta.url, options, () => {}, 'the list-index stage', stageProcess(s.plan, 'list-index'));
  ctx.onCancel(child.kill);
  const r = await child.result;
  s.listIndex = { ...r, key };
  const whose = fit ? " (the shards': made from the same snapshot)" : '';
  s.board.stage('list-index').end({
    summary: shard
      ? `filter indexes of ${formatCount(r.listings)} listings, this shard's share (${formatCount(r.cached)} unchanged; ${plural(r.read, 'record')} read), for the merge`
      : `filter indexes of ${formatCount(r.listings)} listings (${formatCount(r.cached)} unchanged; ${plural(r.read, 'record')} read), the largest ${formatCount(Math.round(r.largestBytes / 1024))} KB${whose}` +
        (r.inPlace === undefined ? '' : `; ${formatCount(r.inPlace)} files already in place in the standby's folder`),
    items: r.records,
    unit: 'rows',
    output: { files: r.files, bytes: r.bytes },
  });
}

childMain(import.meta.url, listIndexes);
