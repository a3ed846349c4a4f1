/**
 * The highlight stage: every code block of the catalog highlighted ahead of the render, on all cores
 * (a pool of worker threads), into the content-addressed highlight cache. Blocks already cached are
 * not highlighted again; entries no record uses any more are pruned, so the cache stays the size of
 * one catalog. Pages then read the cache (src/highlight/highlighter.ts `cachedLines`).
 */
import { Worker } from 'node:worker_threads';
import type { CatalogEntry } from '../catalog/catalog.ts';
import { listCatalogFiles, readCatalogFile, type ReadSink } from '../catalog/load.ts';
import { recordOf } from '../schema/input-forms.ts';
import type { ErrorRecord } from '../schema/record.ts';
import { HighlightStore, storedText } from '../highlight/cache.ts';
import { blockKey, highlightLines } from '../highlight/highlighter.ts';
import { highlightedCode } from '../views/error-view.ts';
import { availableParallelism } from 'node:os';
import { siblingUrl } from '../util/sibling.ts';

export interface Block {
  key: string;
  code: string;
  lang: string;
}
export interface HighlightBatch {
  id: number;
  blocks: Block[];
}
export interface HighlightBatchDone {
  id: number;
  /**
   * Each block's lines as the cache stores them (`storedText`): one string per block crosses
   * between threads rather than one per line, which costs both threads less to copy.
   */
  blocks: { key: string; text: string }[];
}

export interface HighlightResult {
  /** Code blocks on all pages. */
  blocks: number;
  /** Distinct (code, language) pairs among them. */
  unique: number;
  /** Of those, found in the cache. */
  cached: number;
  /** Of those, highlighted now. */
  highlighted: number;
  /** The keys of those. */
  highlightedKeys: string[];
  /** Bytes of line HTML stored now. */
  bytes: number;
  /** Stale cache entries deleted. */
  pruned: number;
  workers: number;
}

const BATCH = 64;
/**
 * Each worker warms up on its own: Shiki, its grammars, and V8 compiling their regular expressions
 * (seconds for C++ or TypeScript). Measured here, two workers on 6,300 blocks took longer than one.
 */
const MIN_BLOCKS_PER_WORKER = 5000;

export interface CatalogBlocks {
  /** Code blocks on all pages. */
  total: number;
  /** The distinct ones, by cache key. */
  blocks: Map<string, Block>;
}

/**
 * Adds a record's blocks to `into` (those whose code is text: a record read before validation may hold
 * anything). A block `known` holds already is taken from it, not copied: at 100,000 records a second
 * copy of the catalog's code is some 250 MB.
 */
function addBlocks(into: CatalogBlocks, record: ErrorRecord, known?: ReadonlyMap<string, Block>): void {
  for (const { code, lang } of highlightedCode(record)) {
    if (typeof code !== 'string') continue;
    into.total++;
    const key = blockKey(code, lang);
    if (into.blocks.has(key)) continue;
    const block = known?.get(key);
    into.blocks.set(block?.key ?? key, block ?? { key, code, lang });
  }
}

/** The distinct blocks the catalog's pages highlight, keyed by cache key, in page order. */
export function catalogBlocks(entries: Iterable<CatalogEntry>): CatalogBlocks {
  const found: CatalogBlocks = { total: 0, blocks: new Map() };
  for (const e of entries) addBlocks(found, e.record);
  return found;
}

/**
 * catalogBlocks, a slice of entries at a time, letting the thread's other work run in between (the
 * highlight stage's thread hands batches to its workers while it reads the snapshot). Blocks of
 * `known` (the catalog files' blocks, read before) are shared with it.
 */
export async function catalogBlocksSliced(entries: Iterable<CatalogEntry>, known?: ReadonlyMap<string, Block>, slice = 500): Promise<CatalogBlocks> {
  const found: CatalogBlocks = { total: 0, blocks: new Map() };
  let n = 0;
  for (const e of entries) {
    addBlocks(found, e.record, known);
    if (++n % slice === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return found;
}

/**
 * The blocks of the catalog's files as they are, before validation: each entry the catalog reader
 * (src/catalog/load.ts) gives that looks like a record gives the blocks a valid one would
 * (catalogBlocks). What does not fit is passed over: validation reports it, and a block of a record
 * that proves invalid is only a cache entry no page asks for (the cache prunes it). Files are read
 * one at a time and each entry dropped at once, so only the blocks stay in memory.
 */
export function rawCatalogBlocks(root: string): CatalogBlocks {
  const raw: CatalogBlocks = { total: 0, blocks: new Map() };
  const sink: ReadSink = {
    entry: (e) => {
      const record = recordOf(e.value);
      if (record && typeof record.filePath === 'string') addBlocks(raw, record as unknown as ErrorRecord);
    },
    problem: () => {},
    unreadable: () => {},
  };
  let files: string[];
  try {
    files = listCatalogFiles(root);
  } catch {
    return raw;
  }
  for (const file of files) readCatalogFile(file, sink);
  return raw;
}

/** Highlights the catalog's blocks (catalogBlocks) not yet in the cache. */
export async function preHighlight(
  { total, blocks }: CatalogBlocks,
  options: {
    file: string;
    workers?: number;
    refresh?: boolean;
    /** Delete the cache entries not among `blocks` (default true; not for the raw catalog's blocks, which may miss some). */
    prune?: boolean;
    /** Keys known to be in the cache already (stored by this process): not looked up again. */
    stored?: ReadonlySet<string>;
    onStart?: (toHighlight: number) => void;
    onProgress?: (done: number) => void;
  },
): Promise<HighlightResult> {
  const store = new HighlightStore(options.file);
  try {
    // `refresh` highlights every block again, overwriting what is stored.
    const missing = options.refresh ? [...blocks.values()] : [...blocks.values()].filter((b) => !options.stored?.has(b.key) && !store.has(b.key));
    options.onStart?.(missing.length);
    const workers = Math.max(1, Math.min(options.workers ?? availableParallelism(), Math.floor(missing.length / MIN_BLOCKS_PER_WORKER)));
    let bytes = 0;
    let done = 0;
    // This thread is the cache's one writer: a transaction per batch.
    const storeBatch = (batch: HighlightBatchDone['blocks']) => {
      store.putMany(batch);
      // Each line and its newline.
      for (const b of batch) bytes += Buffer.byteLength(b.text) + 1;
      done += batch.length;
      options.onProgress?.(done);
    };
    if (workers === 1) {
      // Few blocks (a small catalog, or an incremental build): highlight them on this thread.
      for (let i = 0; i < missing.length; i += BATCH) {
        storeBatch(await Promise.all(missing.slice(i, i + BATCH).map(async (b) => ({ key: b.key, text: storedText(await highlightLines(b.code, b.lang)) }))));
      }
    } else {
      await runPool(missing, workers, storeBatch);
    }
    const pruned = options.prune === false ? 0 : store.prune(blocks.keys());
    return {
      blocks: total,
      unique: blocks.size,
      cached: blocks.size - missing.length,
      highlighted: missing.length,
      highlightedKeys: missing.map((b) => b.key),
      bytes,
      pruned,
      workers: missing.length ? workers : 0,
    };
  } finally {
    store.close();
  }
}

/**
 * Splits the blocks, sorted by language, into one run per worker, and hands each worker batches from
 * its own run, then from the end of the longest run left (so a slow batch never idles a core). A
 * worker then meets few of the languages: each language costs a worker a warm-up (its grammar loaded,
 * its regular expressions compiled and run cold), about a second for C++ or TypeScript.
 */
export function workRuns(blocks: readonly Block[], workers: number): { take: (worker: number) => Block[] } {
  const sorted = [...blocks].sort((a, b) => (a.lang < b.lang ? -1 : a.lang > b.lang ? 1 : 0));
  const per = Math.ceil(sorted.length / workers);
  const runs = Array.from({ length: workers }, (_, i) => ({ next: i * per, end: Math.min(sorted.length, (i + 1) * per) }));
  return {
    take(worker) {
      const own = runs[worker]!;
      if (own.next < own.end) {
        const batch = sorted.slice(own.next, Math.min(own.end, own.next + BATCH));
        own.next += batch.length;
        return batch;
      }
      const longest = runs.reduce((a, b) => (b.end - b.next > a.end - a.next ? b : a));
      const from = Math.max(longest.next, longest.end - BATCH);
      const batch = sorted.slice(from, longest.end);
      longest.end = from;
      return batch;
    },
  };
}

async function runPool(blocks: Block[], size: number, onBatch: (blocks: HighlightBatchDone['blocks']) => void): Promise<void> {
  const pool = Array.from({ length: size }, () => new Worker(siblingUrl('./highlight-worker.ts', import.meta.url)));
  const runs = workRuns(blocks, size);
  let handedOut = 0;
  let batchId = 0;
  try {
    await Promise.all(
      pool.map(
        (worker, w) =>
          new Promise<void>((resolve, reject) => {
            const send = () => {
              const batch = runs.take(w);
              if (batch.length === 0) return resolve();
              handedOut += batch.length;
              worker.postMessage({ id: batchId++, blocks: batch } satisfies HighlightBatch);
            };
            worker.on('message', (m: HighlightBatchDone) => {
              try {
                // The next batch first: the worker highlights while this thread stores.
                send();
                onBatch(m.blocks);
              } catch (e) {
                reject(e as Error);
              }
            });
            worker.on('error', reject);
            worker.on('exit', (code) => (handedOut < blocks.length || code !== 0 ? reject(new Error(`a highlight worker exited (code ${code})`)) : resolve()));
            send();
          }),
      ),
    );
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}
