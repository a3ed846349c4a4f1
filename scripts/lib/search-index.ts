/**
 * The build's "index" stage: writes the search artefacts into the output folder.
 *  - `search-index/`: the paste matcher's sharded message index (src/search/message-index.ts);
 *  - `pagefind/`: Pagefind's full-text index over one small document per error (src/search/pagefind-document.ts).
 * Used by scripts/build.ts and by the search benchmark, so both search the same index.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import type { ErrorRecord } from '../../src/schema/record.ts';
import { buildMessageIndex, type BuiltMessageIndex, type MessageIndexOptions } from '../../src/search/message-index.ts';
import { pagefindDocument, type PagefindDocument } from '../../src/search/pagefind-document.ts';
import { checkFragmentBundles, fragmentFiles, type FragmentFiles } from './pagefind-bundle.ts';

export const MESSAGE_INDEX_DIR = 'search-index';
export const PAGEFIND_DIR = 'pagefind';

export function writeMessageIndex(records: readonly ErrorRecord[], outDir: string, options?: MessageIndexOptions): BuiltMessageIndex {
  const built = buildMessageIndex(records, options);
  const root = join(outDir, MESSAGE_INDEX_DIR);
  rmSync(root, { recursive: true, force: true });
  const dir = join(root, built.manifest.version);
  mkdirSync(dir, { recursive: true });
  built.shards.forEach((text, i) => writeFileSync(join(dir, `${i}.json`), text));
  writeFileSync(join(root, 'manifest.json'), `${JSON.stringify(built.manifest)}\n`);
  return built;
}

export interface PagefindIndexOptions {
  /** At most this many fragment files (`--max-fragments`): Pagefind bundles the fragments (scripts/lib/pagefind-bundle.ts). */
  maxFragments?: number | undefined;
}

/**
 * Records per Pagefind index. Pagefind holds a whole index in memory while it writes it: about 6 GB
 * for 100,000 of our documents, measured here. A larger catalog is indexed in parts of this size, one
 * after the other (each Pagefind process ends before the next starts); the search page merges them
 * at query time (Pagefind's `mergeIndex`; src/scripts/pagefind-client.ts). ERRDEX_PAGEFIND_PART_RECORDS
 * changes the size (tests use it to make parts of a small catalog).
 */
export const PAGEFIND_PART_RECORDS = Number(process.env.ERRDEX_PAGEFIND_PART_RECORDS) || 25_000;
/** Lists the parts besides `pagefind/` itself, as paths relative to `pagefind/`. */
export const PAGEFIND_PARTS_FILE = 'errdex-parts.json';

/** Records to index, when they come one at a time (read from the snapshot) rather than as an array. */
export interface RecordStream {
  count: number;
  records: Iterable<ErrorRecord>;
}

/**
 * Indexes one document per record with Pagefind's Node API and writes the bundle to
 * `<outDir>/pagefind/`, and more parts to `<outDir>/pagefind/part-N/` for a large catalog.
 * Returns the fragment files written (one per record, or at most `maxFragments` bundles in all).
 * Records are taken from `records` as they are indexed, so a stream holds one batch at a time.
 */
export async function writePagefindIndex(
  input: readonly ErrorRecord[] | RecordStream,
  outDir: string,
  onProgress?: (done: number) => void,
  options: PagefindIndexOptions = {},
): Promise<FragmentFiles> {
  const { count, records } = isStream(input) ? input : { count: input.length, records: input };
  const root = join(outDir, PAGEFIND_DIR);
  rmSync(root, { recursive: true, force: true });
  const parts = Math.max(1, Math.ceil(count / PAGEFIND_PART_RECORDS));
  const size = Math.ceil(count / parts);
  // --max-fragments bounds the fragment files of all parts together.
  const perPart = options.maxFragments === undefined ? undefined : Math.max(1, Math.floor(options.maxFragments / parts));
  if (options.maxFragments !== undefined && options.maxFragments < parts) {
    throw new Error(`--max-fragments=${options.maxFragments} is less than the ${parts} Pagefind indexes of ${count} records (one per ${PAGEFIND_PART_RECORDS}): use at least ${parts}.`);
  }
  const total: FragmentFiles = { files: 0, bytes: 0, largest: 0 };
  const partDirs: string[] = [];
  const source = records[Symbol.iterator]();
  for (let p = 0; p < parts; p++) {
    const dir = p === 0 ? '' : `part-${p}/`;
    if (p > 0) partDirs.push(dir);
    const found = await writePagefindPart(source, Math.min(size, count - p * size), join(root, dir), perPart, (done) => onProgress?.(p * size + done));
    total.files += found.files;
    total.bytes += found.bytes;
    total.largest = Math.max(total.largest, found.largest);
  }
  writeFileSync(join(root, PAGEFIND_PARTS_FILE), `${JSON.stringify({ parts: partDirs })}\n`);
  return total;
}

const isStream = (input: readonly ErrorRecord[] | RecordStream): input is RecordStream => !Array.isArray(input);

/** Indexes the next `count` records of `source` as one Pagefind bundle. */
async function writePagefindPart(source: Iterator<ErrorRecord>, count: number, outputPath: string, maxFragments: number | undefined, onProgress: (done: number) => void): Promise<FragmentFiles> {
  const { index, errors } = await pagefind.createIndex({ forceLanguage: 'en', includeCharacters: '_', ...(maxFragments === undefined ? {} : { maxFragments }) });
  if (!index) throw new Error(`Pagefind could not start: ${errors.join('; ')}`);
  try {
    const problems: string[] = [];
    const batch = 256;
    for (let done = 0; done < count; ) {
      const documents: PagefindDocument[] = [];
      while (documents.length < Math.min(batch, count - done)) {
        const next = source.next();
        if (next.done) throw new Error(`The records ran out after ${done + documents.length} of a Pagefind part of ${count}.`);
        documents.push(pagefindDocument(next.value));
      }
      const added = await Promise.all(documents.map((d) => index.addHTMLFile(d)));
      for (const a of added) problems.push(...a.errors);
      done += documents.length;
      onProgress(done);
    }
    if (problems.length) throw new Error(`Pagefind rejected documents:\n${problems.join('\n')}`);
    const written = await index.writeFiles({ outputPath });
    if (written.errors.length) throw new Error(`Pagefind could not write its index: ${written.errors.join('; ')}`);
    return maxFragments === undefined ? fragmentFiles(outputPath) : checkFragmentBundles(outputPath, maxFragments, count);
  } finally {
    await index.deleteIndex();
    // Ends Pagefind's process, and with it the memory of this part's index.
    await pagefind.close();
  }
}
