/**
 * The build's highlight stage, in a child process: it reads the code blocks from the catalog's
 * snapshot and highlights those not yet in the highlight cache on a pool of worker threads
 * (scripts/lib/highlight-pool.ts). Its own process, rather than the one that validates, so that each
 * hands its memory back when it ends.
 *
 * With `catalogRoot` it starts with the build, on the core validation leaves idle: it highlights the
 * blocks of the catalog's files as they are (rawCatalogBlocks), then waits for the build's word that
 * the snapshot is there (`SNAPSHOT_READY`), and highlights what the valid records hold that it has not
 * (nothing, unless the schema changed a block), and prunes.
 */
import { childStageMain, runChildStage } from '../protocol.ts';
import type { PrepareEvent } from './validate.ts';
import { formatCount } from '../progress.ts';

export interface HighlightStageOptions {
  snapshot: string;
  /** The highlight cache (src/highlight/cache.ts). */
  file: string;
  workers: number;
  /** Highlight every block again (`--no-cache`). */
  refresh: boolean;
  /** Start from the catalog's files, before the snapshot is written (see above). */
  catalogRoot?: string;
}

/** The build's message to a highlight stage started with `catalogRoot`: the snapshot is written. */
export const SNAPSHOT_READY = 'snapshot-ready';

export type HighlightEvent = Exclude<PrepareEvent, { type: 'done' | 'invalid' | 'snapshot' }>;

async function highlightStage(options: HighlightStageOptions, send: (e: HighlightEvent) => void): Promise<void> {
  // Listening from the start: the word may come while the raw blocks are highlighted.
  const snapshotReady = options.catalogRoot ? new Promise<void>((resolve) => process.on('message', (m) => m === SNAPSHOT_READY && resolve())) : null;
  send({ type: 'stage', name: 'highlight' });
  // What only the child needs is loaded here, not where the build script imports this module (scripts/lib/child-stage.ts).
  const [{ snapshotEntries }, { catalogBlocks, catalogBlocksSliced, preHighlight, rawCatalogBlocks }] = await Promise.all([
    import('../../catalog/snapshot.ts'),
    import('../highlight-pool.ts'),
  ]);
  const progress = {
    onStart: (total: number) => send({ type: 'count', total, unit: 'blocks' }),
    onProgress: (done: number) => send({ type: 'update', done }),
  };
  let early: { keys: ReadonlySet<string>; workers: number; bytes: number } = { keys: new Set(), workers: 0, bytes: 0 };
  let blocks;
  if (options.catalogRoot && snapshotReady) {
    // The snapshot's blocks are gathered as soon as it is written, while the workers highlight.
    const fromSnapshot = snapshotReady.then(() => catalogBlocksSliced(snapshotEntries(options.snapshot, { text: false })));
    const raw = await preHighlight(rawCatalogBlocks(options.catalogRoot), { file: options.file, workers: options.workers, refresh: options.refresh, prune: false, ...progress });
    early = { keys: new Set(raw.highlightedKeys), workers: raw.workers, bytes: raw.bytes };
    blocks = await fromSnapshot;
  } else blocks = catalogBlocks(snapshotEntries(options.snapshot, { text: false }));
  // After an early pass, its progress stands for the stage's: this pass has little or nothing to do
  // (and what the early pass highlighted is not highlighted again, whatever `refresh` says).
  const hl = await preHighlight(blocks, {
    file: options.file,
    workers: options.workers,
    refresh: options.refresh && !options.catalogRoot,
    stored: early.keys,
    ...(options.catalogRoot ? {} : progress),
  });
  // The valid records' blocks that this build highlighted, in either pass.
  let highlighted = hl.highlighted;
  for (const key of blocks.blocks.keys()) if (early.keys.has(key)) highlighted++;
  const threads = Math.max(hl.workers, early.workers);
  send({
    type: 'end',
    name: 'highlight',
    summary:
      `${formatCount(hl.unique)} code blocks: ${formatCount(highlighted)} highlighted${threads > 1 ? ` on ${threads} threads` : ''}, ${formatCount(hl.unique - highlighted)} cached` +
      (hl.pruned > 0 ? `, ${formatCount(hl.pruned)} stale pruned` : ''),
    items: highlighted,
    unit: 'blocks',
    // Stored in the cache's one file: bytes only.
    output: { files: null, bytes: hl.bytes + early.bytes },
  });
}

/**
 * V8 flags for the highlight stage and its worker threads. Without lazy feedback allocation a
 * function collects type feedback from its first call, and the tokenizer's hot code is optimised
 * sooner: the stage alone on 10,000 records took 16.4–16.8 CPU-seconds against 16.9–17.3 (other
 * stages and the render gained nothing from it: docs/benchmarks.md, session 11).
 */
const HIGHLIGHT_NODE_FLAGS = ['--no-lazy-feedback-allocation'];

/** Runs the highlight stage in a child process (`background`: at the lower priority, scripts/lib/child-stage.ts); its events go to `onEvent`. */
export function runHighlight(
  options: HighlightStageOptions,
  background: boolean,
  onEvent: (e: HighlightEvent) => void,
): { done: Promise<void>; kill: () => void; snapshotReady: () => void } {
  const child = runChildStage<HighlightEvent>(import.meta.url, options, onEvent, 'the highlight stage', background, HIGHLIGHT_NODE_FLAGS);
  return { done: child.done, kill: child.kill, snapshotReady: () => child.send(SNAPSHOT_READY) };
}

childStageMain(import.meta.url, highlightStage);
