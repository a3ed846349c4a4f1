/**
 * The build's "index" stage: writes the search artefacts into the output folder.
 *  - `search-index/`: the paste matcher's sharded message index (src/search/message-index.ts);
 *  - `pagefind/`: Pagefind's full-text index over one small document per error (src/search/pagefind-document.ts).
 * Used by scripts/build.ts and by the search benchmark, so both search the same index.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import { messagePath } from '../catalog/derive/message-groups.ts';
import { partitionOfId } from '../catalog/partition.ts';
import type { ErrorRecord } from '../schema/record.ts';
import { buildMessageIndex, type BuiltMessageIndex, type MessageIndexOptions } from '../search/message-index.ts';
import { pagefindDocument, type PagefindDocument } from '../search/pagefind-document.ts';
import { listFilesBelow } from '../util/files.ts';
import { checkFragmentBundles, fragmentFiles, PAGEFIND_DIR, PAGEFIND_PARTS_FILE, type FragmentFiles } from './pagefind-bundle.ts';
import { linkReused } from './page-reuse.ts';

export const MESSAGE_INDEX_DIR = 'search-index';

export function writeMessageIndex(records: readonly ErrorRecord[], outDir: string, options?: MessageIndexOptions): BuiltMessageIndex {
  const built = buildMessageIndex(records, { messagePage: messagePath, ...options });
  const root = join(outDir, MESSAGE_INDEX_DIR);
  rmSync(root, { recursive: true, force: true });
  const dir = join(root, built.manifest.version);
  mkdirSync(dir, { recursive: true });
  built.shards.forEach((text, i) => writeFileSync(join(dir, `${i}.json`), text));
  writeFileSync(join(root, 'manifest.json'), `${JSON.stringify(built.manifest)}\n`);
  return built;
}

export interface PagefindIndexOptions {
  /** At most this many fragment files (`--max-fragments`): Pagefind bundles the fragments (src/build/pagefind-bundle.ts). */
  maxFragments?: number | undefined;
  /**
   * The published site and the keys of its full-text parts (by site path: `pagefind/`,
   * `pagefind/part-1/`): a part whose key is unchanged is linked from there instead of indexed again.
   */
  previous?: { site: string; keys: Record<string, string> } | undefined;
  /** Records per Pagefind index, at most (PAGEFIND_PART_RECORDS unless a setting says otherwise). */
  partRecords?: number | undefined;
  /** A shard's build indexes only the parts it owns (src/catalog/shard.ts), and lists none: the merge writes the whole index. */
  owns?: ((part: number) => boolean) | undefined;
}

/**
 * Records per Pagefind index, at most (about: records are dealt to the parts by a hash of their id).
 * Pagefind holds a whole index in memory while it writes it: about 6 GB for 100,000 of our documents,
 * measured here. A larger catalog is indexed in parts, one after the other (each Pagefind process ends
 * before the next starts); the search page merges them at query time (Pagefind's `mergeIndex`;
 * src/client/pagefind-client.ts). The ERRDEX_PAGEFIND_PART_RECORDS setting changes the size (tests use
 * it to make parts of a small catalog; src/build/settings.ts).
 */
export const PAGEFIND_PART_RECORDS = 25_000;
/**
 * A catalog of 10,000 records or more is indexed in at least 4 parts (of at least 2,500 records) so
 * that a rebuild after an edit indexes again only the part that holds the edited record, a quarter
 * of the catalog, and links the others from the published site. A full-text query then asks each
 * part: fewer bytes for a word or two than one index costs, more for a long paste of many words
 * (docs/benchmarks.md, "Hosts with file caps").
 */
const EDIT_PARTS = 4;
const MIN_EDIT_PART_RECORDS = 2_500;
export { PAGEFIND_PARTS_FILE };

/** How many Pagefind indexes a catalog of `count` records is indexed in. */
export function pagefindPartCount(count: number, partRecords = PAGEFIND_PART_RECORDS): number {
  return Math.max(1, Math.ceil(count / partRecords), Math.min(EDIT_PARTS, Math.floor(count / MIN_EDIT_PART_RECORDS)));
}

/**
 * The part a record is indexed in: by a hash of its id, as render chunks are dealt
 * (src/catalog/partition.ts), so that a record stays in its part whatever else the catalog gains or
 * loses, as long as the number of parts is the same.
 */
export const pagefindPartOf = (id: string, parts: number): number => partitionOfId(id, parts);

/** A part's folder inside `pagefind/`: the first at its root (the search page loads `pagefind.js` from there), the others in `part-N/`. */
const partDir = (part: number): string => (part === 0 ? '' : `part-${part}/`);

/** The records to index, part by part (the snapshot is read once per part, not held whole). */
export interface PagefindSource {
  count: number;
  /** The records of part `part` of `parts` (pagefindPartOf), in catalog order. */
  part: (part: number, parts: number) => Iterable<ErrorRecord>;
}

export interface PagefindIndexResult extends FragmentFiles {
  parts: number;
  /** Parts linked from the published site. */
  reused: number;
  /** Each part's key by its site path (`pagefind/`, `pagefind/part-1/`), for the next build (src/build/page-reuse.ts). */
  keys: Record<string, string>;
}

/**
 * Indexes one document per record with Pagefind's Node API and writes the bundle to
 * `<outDir>/pagefind/`, and more parts to `<outDir>/pagefind/part-N/` (pagefindPartCount). Returns
 * the fragment files (one per record, or at most `maxFragments` bundles in all), and each part's key.
 */
export async function writePagefindIndex(
  input: readonly ErrorRecord[] | PagefindSource,
  outDir: string,
  onProgress?: (done: number) => void,
  options: PagefindIndexOptions = {},
): Promise<PagefindIndexResult> {
  const source: PagefindSource = isSource(input) ? input : { count: input.length, part: (p, n) => input.filter((r) => pagefindPartOf(r.id, n) === p) };
  const root = join(outDir, PAGEFIND_DIR);
  rmSync(root, { recursive: true, force: true });
  const parts = pagefindPartCount(source.count, options.partRecords);
  // --max-fragments bounds the fragment files of all parts together.
  const perPart = options.maxFragments === undefined ? undefined : Math.max(1, Math.floor(options.maxFragments / parts));
  if (options.maxFragments !== undefined && options.maxFragments < parts) {
    throw new Error(`--max-fragments=${options.maxFragments} is less than the ${parts} Pagefind indexes of ${source.count} records: use at least ${parts}.`);
  }
  const result: PagefindIndexResult = { files: 0, bytes: 0, largest: 0, parts, reused: 0, keys: {} };
  const previous = options.previous;
  let done = 0;
  const listed: string[] = [];
  for (let p = 0; p < parts; p++) {
    if (options.owns && !options.owns(p)) continue;
    const documents = Array.from(source.part(p, parts), pagefindDocument);
    const dir = partDir(p);
    // A part no record fell into (only a tiny catalog split in tiny parts) is left out, not merged by
    // the search page: Pagefind's bundle of nothing names no language. The root part is written all
    // the same: it holds pagefind.js.
    if (documents.length === 0 && p > 0) continue;
    if (p > 0) listed.push(dir);
    const key = partKey(documents, perPart);
    const sitePath = `${PAGEFIND_DIR}/${dir}`;
    const published = previous?.keys[sitePath] === key ? join(previous.site, sitePath) : null;
    const outputPath = join(root, dir);
    if (published && existsSync(join(published, 'pagefind-entry.json'))) {
      // The root part's folder holds the other parts: only its own files are linked, and the other
      // parts' folders are not read.
      const notOwn = p === 0 ? (f: string) => f === PAGEFIND_PARTS_FILE || /^part-\d+$/.test(f) : undefined;
      linkReused(listFilesBelow(published, notOwn), published, outputPath);
      result.reused++;
    } else {
      await indexPart(documents, outputPath, perPart, (n) => onProgress?.(done + n));
    }
    done += documents.length;
    onProgress?.(done);
    result.keys[sitePath] = key;
    const found = perPart === undefined ? fragmentFiles(outputPath) : checkFragmentBundles(outputPath, perPart, documents.length);
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
 * What a part's bundle is made of: its documents in order and Pagefind's settings. (Pagefind's own
 * version is not in it: a dependency change is a change of code, which the page manifest that
 * carries these keys does not survive: src/build/page-reuse.ts.)
 */
function partKey(documents: readonly PagefindDocument[], maxFragments: number | undefined): string {
  const hash = createHash('sha1').update(JSON.stringify({ ...PAGEFIND_CONFIG, maxFragments: maxFragments ?? null }));
  for (const d of documents) hash.update('\0').update(d.url).update('\0').update(d.content);
  return hash.digest('hex');
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
