/**
 * The build's "index" stage: writes the search artefacts into the output folder.
 *  - `search-index/`: the paste matcher's sharded message index (src/search/message-index.ts);
 *  - `pagefind/`: Pagefind's full-text index over one small document per error (src/search/pagefind-document.ts).
 * Used by scripts/build.ts and by the search benchmark, so both search the same index.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import { messagePath } from '../catalog/derive/message-groups.ts';
import { fnv1a } from '../catalog/partition.ts';
import type { ErrorRecord } from '../schema/record.ts';
import { buildMessageIndex, INDEX_FORMAT, SHARD_DIR, shardFile, type BuiltMessageIndex, type MessageIndexManifest, type MessageIndexOptions } from '../search/message-index.ts';
import { pagefindDocument, type PagefindDocument } from '../search/pagefind-document.ts';
import { listFilesBelow } from '../util/files.ts';
import { checkFragmentBundles, fragmentFiles, PAGEFIND_DIR, PAGEFIND_PARTS_FILE, type FragmentFiles } from './pagefind-bundle.ts';
import { linkReused, notOwnOf } from './page-reuse.ts';
import { keepOnly } from './standby.ts';
import { unchangedFiles, type PublishedFiles } from './unchanged-files.ts';

export const MESSAGE_INDEX_DIR = 'search-index';

/** The published site's message index manifest, when this errdex reads its format; else null. */
function publishedManifest(published: string | null): MessageIndexManifest | null {
  if (published === null) return null;
  try {
    const m = JSON.parse(readFileSync(join(published, MESSAGE_INDEX_DIR, 'manifest.json'), 'utf8')) as MessageIndexManifest;
    return m.format === INDEX_FORMAT && Array.isArray(m.folders) ? m : null;
  } catch {
    return null;
  }
}

/**
 * Writes the message index into `outDir`. With the published site (`published`), a shard file the
 * same as the published index's shard of that number is linked to it (src/build/unchanged-files.ts):
 * an edit changes a few shards, and the names of their folders. With `published.seeded`, `outDir`
 * holds the standby's index already: it is filled in place (`inPlace`: the shard files that were
 * there already), and what this index does not hold goes.
 */
export function writeMessageIndex(records: readonly ErrorRecord[], outDir: string, options?: MessageIndexOptions, published: PublishedFiles | null = null): BuiltMessageIndex & { inPlace?: number } {
  return writeBuiltIndex(buildMessageIndex(records, { messagePage: messagePath, ...options }), outDir, published);
}

/** Writes a message index made (`buildMessageIndex`, or `messageIndex` of items kept) into `outDir`, as `writeMessageIndex` does. */
export function writeBuiltIndex(built: BuiltMessageIndex, outDir: string, published: PublishedFiles | null = null): BuiltMessageIndex & { inPlace?: number } {
  const dir = join(outDir, MESSAGE_INDEX_DIR);
  // Seeded: the standby's index is there (src/build/standby.ts), filled in place.
  if (!published?.seeded) rmSync(dir, { recursive: true, force: true });
  for (const folder of new Set(built.manifest.folders)) mkdirSync(join(dir, SHARD_DIR, folder), { recursive: true });
  const files = unchangedFiles(outDir, published);
  const previous = publishedManifest(published?.site ?? null);
  const made = new Set(['manifest.json']);
  built.shards.forEach((text, i) => {
    const path = shardFile(built.manifest, i);
    made.add(path);
    files.write(`${MESSAGE_INDEX_DIR}/${path}`, text, previous && i < previous.shards ? `${MESSAGE_INDEX_DIR}/${shardFile(previous, i)}` : undefined);
  });
  // Of the shards: the manifest is not counted among the index's files.
  const inPlace = files.counts.kept;
  files.write(`${MESSAGE_INDEX_DIR}/manifest.json`, `${JSON.stringify(built.manifest)}\n`);
  files.save();
  if (!published?.seeded) return built;
  keepOnly(dir, made);
  return { ...built, inPlace };
}

export interface PagefindIndexOptions {
  /** At most this many fragment files (`--max-fragments`): Pagefind bundles the fragments (src/build/pagefind-bundle.ts). */
  maxFragments?: number | undefined;
  /**
   * The published site and the keys of its full-text parts (by site path: `pagefind/`,
   * `pagefind/part-01/`): a part whose key is unchanged is linked from there instead of indexed again.
   */
  previous?: { site: string; keys: Record<string, string> } | undefined;
  /** Records per Pagefind index, at most (PAGEFIND_PART_RECORDS unless a setting says otherwise). */
  partRecords?: number | undefined;
  /** A shard's build indexes only the parts it owns (src/catalog/shard.ts), and lists none: the merge writes the whole index. */
  owns?: ((part: number) => boolean) | undefined;
}

/**
 * Records per Pagefind index, at most. Pagefind holds a whole index in memory while it writes it,
 * and more than in proportion: 1.3 GB for 12,500 of our documents, 2.3 GB for 25,000, about 6 GB for
 * 100,000. A larger catalog is indexed in parts, one after the other (each Pagefind process ends
 * before the next starts); the search page merges them at query time (Pagefind's `mergeIndex`;
 * src/client/pagefind-client.ts). Parts of 8,000 to 16,000 records keep Pagefind's process under the
 * highlight stage's beside it at 100k records, for a few per cent more bytes per first query than
 * parts of up to 25,000 (docs/benchmarks.md, "Full-text parts that stay put"). The
 * ERRDEX_PAGEFIND_PART_RECORDS setting changes the size (tests use it to make parts of a small
 * catalog; src/build/settings.ts).
 */
export const PAGEFIND_PART_RECORDS = 16_000;
/**
 * A catalog of about 8,000 records or more is indexed in at least 4 parts (a part of the first two
 * levels of the tree below splits when it holds 4,000 records or more, about 2,000 in each half), so
 * that a rebuild after an edit indexes again only the part that holds the edited record, a quarter of
 * the catalog or less, and links the others from the published site. A full-text query then asks each
 * part: fewer bytes for a word or two than one index costs, more for a long paste of many words
 * (docs/benchmarks.md, "Hosts with file caps").
 */
const EDIT_DEPTH = 2;
const MIN_EDIT_PART_RECORDS = 2_000;
/** Ids whose hashes share 24 leading bits stay in one part, however many they are. */
const MAX_DEPTH = 24;
export { PAGEFIND_PARTS_FILE };

/**
 * A full-text part: the records whose id hash (idHash) begins with the bits of `prefix`. The parts
 * are the leaves of a binary tree over those bits, split where a part would hold more than its share,
 * so each part is a function of its own records alone: a record added or removed changes the part it
 * falls in (and splits or joins that part when it crosses the size), never the others. (Parts dealt by
 * the hash modulo a count would move nearly every record when the count changes, and every part would
 * be indexed again.)
 */
export interface PagefindPart {
  prefix: string;
  /** Its folder in `pagefind/`: the first part at the root (the search page loads `pagefind.js` from there), the others in `part-<prefix>/`. */
  dir: string;
  records: number;
}

/** A record id's 32-bit hash: FNV-1a (src/catalog/partition.ts), its bits mixed (MurmurHash3's finalizer) so that leading bits are as even as the others. */
export function idHash(id: string): number {
  let h = fnv1a(id);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Whether a hash begins with a prefix's bits. */
export const inPart = (hash: number, prefix: string): boolean => prefix === '' || hash >>> (32 - prefix.length) === parseInt(prefix, 2);

/**
 * The parts of a catalog, from its ids, in the order of their prefixes: a part splits in two by the
 * next bit while it holds more than `partRecords` records, or, in the first EDIT_DEPTH levels, while
 * it holds 2 × MIN_EDIT_PART_RECORDS or more. A part no record falls in is left out (the search page
 * would have nothing to merge: Pagefind's bundle of nothing names no language), except the first,
 * which holds pagefind.js.
 */
export function pagefindParts(ids: Iterable<string>, partRecords = PAGEFIND_PART_RECORDS): PagefindPart[] {
  const hashes = Uint32Array.from(ids, idHash).sort();
  const parts: PagefindPart[] = [];
  // [from, to) of the sorted hashes begin with `prefix`.
  const visit = (prefix: string, from: number, to: number): void => {
    const n = to - from;
    const depth = prefix.length;
    const split = depth < MAX_DEPTH && (n > partRecords || (depth < EDIT_DEPTH && n >= 2 * MIN_EDIT_PART_RECORDS));
    if (!split) {
      if (n > 0 || parts.length === 0) parts.push({ prefix, dir: parts.length === 0 ? '' : `part-${prefix}/`, records: n });
      return;
    }
    // The first hash whose bit `depth` is 1.
    const bit = 2 ** (31 - depth);
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((hashes[mid]! & bit) === 0) lo = mid + 1;
      else hi = mid;
    }
    visit(`${prefix}0`, from, lo);
    visit(`${prefix}1`, lo, to);
  };
  visit('', 0, hashes.length);
  return parts;
}

/** The part a record of this id is indexed in. */
export function pagefindPartOf(id: string, parts: readonly PagefindPart[]): PagefindPart {
  const hash = idHash(id);
  const part = parts.find((p) => inPart(hash, p.prefix));
  if (!part) throw new Error(`no full-text part holds ${id}: the parts were chosen from other ids`);
  return part;
}

/** The records to index, part by part (the snapshot is read once per part, not held whole). */
export interface PagefindSource {
  /** Every record's id: the parts are chosen from them. */
  ids: () => Iterable<string>;
  /** The records whose id passes `test`, in catalog order. */
  records: (test: (id: string) => boolean) => Iterable<ErrorRecord>;
  /**
   * Every record's id and its text as the catalog gives it, or a hash of that text, in catalog order:
   * what the parts' keys are made of (partTextKeys).
   */
  texts: () => Iterable<[id: string, text: string]>;
}

export interface PagefindIndexResult extends FragmentFiles {
  parts: number;
  /** The site paths of the parts linked from the published site, unchanged. */
  reused: string[];
  /** Each part's key by its site path (`pagefind/`, `pagefind/part-01/`), for the next build (src/build/page-reuse.ts). */
  keys: Record<string, string>;
}

/**
 * Indexes one document per record with Pagefind's Node API and writes the bundle to
 * `<outDir>/pagefind/`, and more parts to `<outDir>/pagefind/part-<prefix>/` (pagefindParts). Returns
 * the fragment files (one per record, or at most `maxFragments` bundles in all), and each part's key.
 */
export async function writePagefindIndex(
  input: readonly ErrorRecord[] | PagefindSource,
  outDir: string,
  onProgress?: (done: number) => void,
  options: PagefindIndexOptions = {},
): Promise<PagefindIndexResult> {
  const source: PagefindSource = isSource(input)
    ? input
    : { ids: () => input.map((r) => r.id), records: (test) => input.filter((r) => test(r.id)), texts: () => input.map((r): [string, string] => [r.id, JSON.stringify(r)]) };
  const root = join(outDir, PAGEFIND_DIR);
  rmSync(root, { recursive: true, force: true });
  const partList = pagefindParts(source.ids(), options.partRecords);
  const parts = partList.length;
  // --max-fragments bounds the fragment files of all parts together.
  const perPart = options.maxFragments === undefined ? undefined : Math.max(1, Math.floor(options.maxFragments / parts));
  if (options.maxFragments !== undefined && options.maxFragments < parts) {
    throw new Error(`--max-fragments=${options.maxFragments} is less than the ${parts} Pagefind indexes of ${partList.reduce((n, part) => n + part.records, 0)} records: use at least ${parts}.`);
  }
  const result: PagefindIndexResult = { files: 0, bytes: 0, largest: 0, parts, reused: [], keys: {} };
  const textKeys = partTextKeys(source.texts(), partList, perPart);
  const previous = options.previous;
  let done = 0;
  const listed: string[] = [];
  for (const [p, { prefix, dir, records }] of partList.entries()) {
    if (p > 0) listed.push(dir);
    if (options.owns && !options.owns(p)) continue;
    const documentsOfPart = () => Array.from(source.records((id) => inPart(idHash(id), prefix)), pagefindDocument);
    const sitePath = `${PAGEFIND_DIR}/${dir}`;
    const before = readKey(previous?.keys[sitePath]);
    const texts = textKeys[p]!;
    // The same texts make the same documents: only a part whose texts changed has them made, and is
    // kept when they come out the same (an edit of code other than the thrown line).
    const documents = before?.texts === texts ? null : documentsOfPart();
    const key = { documents: documents ? documentsKey(documents, perPart) : before!.documents, texts };
    const published = previous && before?.documents === key.documents ? join(previous.site, sitePath) : null;
    const outputPath = join(root, dir);
    if (published && existsSync(join(published, 'pagefind-entry.json'))) {
      // The root part's folder holds the other parts: only its own files are linked, and the other
      // parts' folders are not read.
      linkReused(listFilesBelow(published, notOwnOf(sitePath)), published, outputPath);
      result.reused.push(sitePath);
    } else {
      await indexPart(documents ?? documentsOfPart(), outputPath, perPart, (n) => onProgress?.(done + n));
    }
    done += records;
    onProgress?.(done);
    result.keys[sitePath] = `${key.documents} ${key.texts}`;
    const found = perPart === undefined ? fragmentFiles(outputPath) : checkFragmentBundles(outputPath, perPart, records);
    result.files += found.files;
    result.bytes += found.bytes;
    result.largest = Math.max(result.largest, found.largest);
  }
  if (!options.owns) writeFileSync(join(root, PAGEFIND_PARTS_FILE), `${JSON.stringify({ parts: listed })}\n`);
  return result;
}

const isSource = (input: readonly ErrorRecord[] | PagefindSource): input is PagefindSource => !Array.isArray(input);

/** Pagefind's settings for every part. */
const PAGEFIND_CONFIG = { forceLanguage: 'en', includeCharacters: '_' } as const;

/**
 * A part's key is two hashes. What its bundle is made of: its documents in order and Pagefind's
 * settings; most edits of a record's code leave its document as it was (it holds the thrown line
 * only), and its part is kept. And what those documents are made of: its records' texts in order,
 * taken in one pass over the catalog without parsing, so that the parts an edit leaves alone (every
 * part, in a merge of shards) are neither parsed nor made into documents. (The code and Pagefind's
 * version are in neither: a change of either is a change of code, which the page manifest that
 * carries these keys does not survive: src/build/page-reuse.ts.)
 */
function documentsKey(documents: readonly PagefindDocument[], maxFragments: number | undefined): string {
  const hash = createHash('sha1').update(pagefindSettings(maxFragments));
  for (const d of documents) hash.update('\0').update(d.url).update('\0').update(d.content);
  return hash.digest('hex');
}

const pagefindSettings = (maxFragments: number | undefined): string => JSON.stringify({ ...PAGEFIND_CONFIG, maxFragments: maxFragments ?? null });

/** A key as written by an earlier build (`documents texts`); null when there is none. */
function readKey(key: string | undefined): { documents: string; texts: string } | null {
  const [documents, texts] = key?.split(' ') ?? [];
  return documents && texts ? { documents, texts } : null;
}

function partTextKeys(texts: Iterable<[string, string]>, parts: readonly PagefindPart[], maxFragments: number | undefined): string[] {
  const settings = pagefindSettings(maxFragments);
  const hashes = new Map(parts.map((part) => [part, createHash('sha1').update(settings)]));
  // One pass over the catalog for every part.
  for (const [id, text] of texts) hashes.get(pagefindPartOf(id, parts))!.update('\0').update(text);
  return parts.map((part) => hashes.get(part)!.digest('hex'));
}

/** Indexes one part's documents as one Pagefind bundle in `outputPath`. */
async function indexPart(documents: readonly PagefindDocument[], outputPath: string, maxFragments: number | undefined, onProgress: (done: number) => void): Promise<void> {
  const { index, errors } = await pagefind.createIndex({ ...PAGEFIND_CONFIG, ...(maxFragments === undefined ? {} : { maxFragments }) });
  if (!index) throw new Error(`Pagefind could not start: ${errors.join('; ')}`);
  try {
    const problems: string[] = [];
    const batch = 256;
    for (let done = 0; done < documents.length; done += batch) {
      const added = await Promise.all(documents.slice(done, done + batch).map((d) => index.addHTMLFile(d)));
      for (const a of added) problems.push(...a.errors);
      onProgress(Math.min(documents.length, done + batch));
    }
    if (problems.length) throw new Error(`Pagefind rejected documents:\n${problems.join('\n')}`);
    const written = await index.writeFiles({ outputPath });
    if (written.errors.length) throw new Error(`Pagefind could not write its index: ${written.errors.join('; ')}`);
  } finally {
    await index.deleteIndex();
    // Ends Pagefind's process, and with it the memory of this part's index.
    await pagefind.close();
  }
}
