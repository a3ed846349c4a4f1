/**
 * The build's highlight stage, in a child process started after validation: it reads the code blocks
 * from the catalog's snapshot and highlights those not yet in the highlight cache on a pool of worker
 * threads (scripts/lib/highlight-pool.ts). Its own process, rather than the one that validated, so that
 * the validated catalog's memory is handed back before it starts: Pagefind runs beside it.
 */
import { childStageMain, runChildStage } from './child-stage.ts';
import type { PrepareEvent } from './prepare.ts';
import { formatCount } from './progress.ts';

export interface HighlightStageOptions {
  snapshot: string;
  /** The highlight cache (src/highlight/cache.ts). */
  file: string;
  workers: number;
  /** Highlight every block again (`--no-cache`). */
  refresh: boolean;
}

export type HighlightEvent = Exclude<PrepareEvent, { type: 'done' | 'invalid' | 'snapshot' }>;

async function highlightStage(options: HighlightStageOptions, send: (e: HighlightEvent) => void): Promise<void> {
  send({ type: 'stage', name: 'highlight' });
  // What only the child needs is loaded here, not where the build script imports this module (scripts/lib/child-stage.ts).
  const [{ snapshotEntries }, { catalogBlocks, preHighlight }] = await Promise.all([import('../../src/catalog/snapshot.ts'), import('./highlight-pool.ts')]);
  const hl = await preHighlight(catalogBlocks(snapshotEntries(options.snapshot, { text: false })), {
    file: options.file,
    workers: options.workers,
    refresh: options.refresh,
    onStart: (total) => send({ type: 'count', total, unit: 'blocks' }),
    onProgress: (done) => send({ type: 'update', done }),
  });
  send({
    type: 'end',
    name: 'highlight',
    summary:
      `${formatCount(hl.unique)} code blocks: ${formatCount(hl.highlighted)} highlighted${hl.workers > 1 ? ` on ${hl.workers} threads` : ''}, ${formatCount(hl.cached)} cached` +
      (hl.pruned > 0 ? `, ${formatCount(hl.pruned)} stale pruned` : ''),
    items: hl.highlighted,
    unit: 'blocks',
    // Stored in the cache's one file: bytes only.
    output: { files: null, bytes: hl.bytes },
  });
}

/**
 * V8 flags for the highlight stage and its worker threads. Without lazy feedback allocation a
 * function collects type feedback from its first call, and the tokenizer's hot code is optimised
 * sooner: the stage alone on 10,000 records took 16.4–16.8 CPU-seconds against 16.9–17.3 (other
 * stages and the render gained nothing from it: docs/benchmarks.md, session 11).
 */
const HIGHLIGHT_NODE_FLAGS = ['--no-lazy-feedback-allocation'];

/** Runs the highlight stage in a child process; its events go to `onEvent`. */
export function runHighlight(options: HighlightStageOptions, onEvent: (e: HighlightEvent) => void): { done: Promise<void>; kill: () => void } {
  return runChildStage<HighlightEvent>(import.meta.url, options, onEvent, 'the highlight stage', false, HIGHLIGHT_NODE_FLAGS);
}

childStageMain(import.meta.url, highlightStage);
