/**
 * The build's first stages, run in a child process of `npm run build` (see runPrepare): validate the
 * catalog, and write a snapshot of the valid entries and their related errors for the later stages.
 * In a child, because the catalog's memory is only handed back to the system when a process ends:
 * the render processes that follow then have the machine's memory to themselves.
 *
 * The child reports its stages to the parent, which draws the progress and measures each stage.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogPath, displayPath } from '../../catalog/load.ts';
import { runChildStage, childStageMain } from '../protocol.ts';
import { formatCount } from '../progress.ts';

export interface PrepareOptions {
  skipReport: string | null;
  workers: number;
  /** Render chunks for a number of valid records (see chunkCount). */
  chunks: ChunkSizes;
  snapshotDir: string;
}

export interface Chunk {
  index: number;
  count: number;
  snapshot: string;
  /** The related errors of the snapshot's entries (src/catalog/snapshot.ts, writeRelated). */
  related: string;
  /** Records whose pages this chunk renders. */
  records: number;
  /**
   * The manifest's checksum of all JSON twins (src/lib/api.ts), computed here once when there are
   * several chunks: each render process then holds only its own shard's texts.
   */
  twinsSha256?: string;
}

export type PrepareEvent =
  | { type: 'stage'; name: string }
  | { type: 'count'; total: number; unit: string }
  | { type: 'update'; done: number }
  | { type: 'end'; name: string; summary: string; items: number; unit: string; output?: { files: number | null; bytes: number } }
  | { type: 'warn'; text: string }
  | { type: 'invalid' }
  /** The snapshot is written: what reads only the validated records may start. */
  | { type: 'snapshot'; snapshot: string; records: number; chunks: number }
  | { type: 'done'; root: string; records: number; chunks: Chunk[] };

export interface ChunkSizes {
  /** ERRDEX_WORKERS is set: at least one render process per worker, whatever the catalog's size. */
  explicit: boolean;
  /** A catalog of up to this many records renders in one process. */
  single: number;
  /** Above `single`, at most this many records per render process. */
  size: number;
}

/**
 * How many render processes in all: one for a catalog of up to `single` records, else a multiple of
 * the workers, of at most `size` records each, so that a process's memory does not grow with the catalog.
 * `explicit` (ERRDEX_WORKERS set) forces one per worker.
 *
 * Up to `single`, the full-text and message indexes run beside the render on the other core (at a
 * lower priority: scripts/lib/child-stage.ts); a second render process would cost its own Astro
 * start-up and compete with them for that core. At 10k records both ways take 26-27 s. Above it, the
 * indexes and render processes cannot all be in memory at once (scripts/build.ts), and `size` may be
 * larger than `single`: each process's start-up (at 100k records some 7 CPU-seconds: the catalog, its
 * derived data and the page list) is paid once per chunk.
 */
export function chunkCount(records: number, workers: number, options: ChunkSizes): number {
  if (options.explicit) return Math.max(workers, Math.ceil(records / options.size));
  if (records <= options.single) return 1;
  // A multiple of the workers: chunks of about one size keep every worker busy to the end.
  return Math.ceil(Math.ceil(records / options.size) / workers) * workers;
}

/** Where prepare() writes the catalog's snapshot and its related errors, below `snapshotDir`. */
export const snapshotFiles = (snapshotDir: string): Pick<Chunk, 'snapshot' | 'related'> => ({
  snapshot: join(snapshotDir, 'catalog.jsonl'),
  related: join(snapshotDir, 'related.jsonl'),
});

async function prepare(options: PrepareOptions, send: (e: PrepareEvent) => void): Promise<void> {
  send({ type: 'stage', name: 'validate' });
  // What only the child needs is loaded here, not where the build script imports this module (scripts/lib/child-stage.ts).
  const [{ catalogReport, loadCatalog }, { formatProblem }, { inShard }, { relatedErrors }, { writeRelated, writeSnapshot }, { twinsSha256 }] = await Promise.all([
    import('../../catalog/catalog.ts'),
    import('../../catalog/problems.ts'),
    import('../../catalog/shard.ts'),
    import('../../catalog/derive/related.ts'),
    import('../../catalog/snapshot.ts'),
    import('../../lib/api.ts'),
  ]);
  const catalog = loadCatalog(catalogPath());
  // A broken ledger is never skipped: building past it would forget every URL published so far.
  if (catalog.problems.some((p) => p.file === catalog.ledger.file)) {
    process.stderr.write(`${catalogReport(catalog)}\n\nNothing was built: ${catalog.ledger.file} (the URL ledger) has problems. Restore it from version control.\n`);
    send({ type: 'invalid' });
    return;
  }
  if (catalog.problems.length > 0) {
    if (!options.skipReport) {
      process.stderr.write(`${catalogReport(catalog)}\n`);
      send({ type: 'invalid' });
      return;
    }
    writeFileSync(
      options.skipReport,
      `${JSON.stringify(
        {
          catalog: displayPath(catalog.root),
          skipped: catalog.skipped.map((s) => ({ file: s.file, line: s.line, id: s.id, reasons: s.problems.map(formatProblem), record: s.text })),
          problems: catalog.problems.map(formatProblem),
        },
        null,
        2,
      )}\n`,
    );
    send({
      type: 'warn',
      text:
        `Skipped ${catalog.skipped.length} invalid record${catalog.skipped.length === 1 ? '' : 's'} of ${catalog.total} ` +
        `(${catalog.problems.length} problems); every one and its reasons are in ${options.skipReport}.`,
    });
  }
  const records = catalog.entries.length;
  send({ type: 'end', name: 'validate', summary: `${formatCount(records)} records valid`, items: catalog.total, unit: 'records' });

  // Every render process reads the whole catalog: listings, related errors, the ledger plan and the
  // sitemap are computed over all records. Each renders only its shard of the per-record pages and of
  // the site-wide pages (src/catalog/shard.ts); the few fixed pages (home, search) come out identical
  // from each, and one copy is kept.
  // Related errors are computed here once, not in every render process (src/catalog/derive/index.ts).
  // The snapshot lets the full-text index start at once (scripts/lib/pagefind-stage.ts), and the
  // highlight stage reads the code blocks from it once this process, and its memory, is gone.
  send({ type: 'stage', name: 'derive' });
  const count = chunkCount(records, options.workers, options.chunks);
  rmSync(options.snapshotDir, { recursive: true, force: true });
  mkdirSync(options.snapshotDir, { recursive: true });
  const { snapshot, related } = snapshotFiles(options.snapshotDir);
  await writeSnapshot(snapshot, catalog.entries);
  send({ type: 'snapshot', snapshot, records, chunks: count });
  const links = relatedErrors(catalog.entries.map((e) => e.record));
  await writeRelated(related, links);
  const chunks: Chunk[] = [];
  const twins = count > 1 ? { twinsSha256: twinsSha256(catalog.entries) } : {};
  for (let index = 0; index < count; index++) {
    const own = count === 1 ? catalog.entries.length : catalog.entries.filter((e) => inShard(e.record.id, { index, count })).length;
    chunks.push({ index, count, snapshot, related, records: own, ...twins });
  }
  const linked = links.filter((l) => l.length > 0).length;
  send({
    type: 'end',
    name: 'derive',
    summary: `related errors: ${formatCount(linked)} of ${formatCount(records)} records have some; snapshot for ${count} render process${count === 1 ? '' : 'es'}`,
    items: records,
    unit: 'records',
  });
  send({ type: 'done', root: displayPath(catalog.root), records, chunks });
}

/** Runs prepare() in a child process; its events go to `onEvent`. Resolves with the render chunks, or null when the catalog is invalid. */
export async function runPrepare(options: PrepareOptions, onEvent: (e: Exclude<PrepareEvent, { type: 'done' | 'invalid' }>) => void): Promise<Extract<PrepareEvent, { type: 'done' }> | null> {
  let result: Extract<PrepareEvent, { type: 'done' }> | null = null;
  let invalid = false;
  const { done } = runChildStage<PrepareEvent>(
    import.meta.url,
    options,
    (e) => {
      if (e.type === 'done') result = e;
      else if (e.type === 'invalid') invalid = true;
      else onEvent(e);
    },
    'the validate and derive stages',
  );
  await done;
  if (invalid) return null;
  if (!result) throw new Error('the validate and derive stages ended without a result');
  return result;
}

childStageMain(import.meta.url, prepare);
