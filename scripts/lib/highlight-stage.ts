/**
 * The build's highlight stage, in a child process: it reads the code blocks from the catalog's
 * snapshot and highlights those not yet in the highlight cache on a pool of worker threads
 * (scripts/lib/highlight-pool.ts). Its own process, rather than the one that validated, so that
 * the validated catalog's memory is handed back before it starts: Pagefind runs beside it.
 *
 * The build starts it with validation, while the other core is idle, and tells it when the snapshot
 * is there: by then it has loaded its modules and, for a large catalog, started its workers.
 */
import type { Worker } from 'node:worker_threads';
import { snapshotEntries } from '../../src/catalog/snapshot.ts';
import { childStageMain, runChildStage } from './child-stage.ts';
import { catalogBlocks, preHighlight, startWorkers } from './highlight-pool.ts';
import type { PrepareEvent } from './prepare.ts';
import { formatCount } from './progress.ts';

export interface HighlightStageOptions {
  /** The highlight cache (src/highlight/cache.ts). */
  file: string;
  workers: number;
  /** Highlight every block again (`--no-cache`). */
  refresh: boolean;
}

/** What the build tells the stage: start this many workers now; the snapshot is there, go. */
export type HighlightOrder = { startWorkers: number } | { snapshot: string };

type HighlightEvent = Exclude<PrepareEvent, { type: 'done' | 'invalid' | 'snapshot' | 'read' }>;

async function highlightStage(options: HighlightStageOptions, send: (e: HighlightEvent) => void, receive: () => Promise<HighlightOrder>): Promise<void> {
  const started: Worker[] = [];
  let order = await receive();
  while ('startWorkers' in order) {
    started.push(...startWorkers(order.startWorkers));
    order = await receive();
  }
  send({ type: 'stage', name: 'highlight' });
  const hl = await preHighlight(catalogBlocks(snapshotEntries(order.snapshot, { text: false })), {
    file: options.file,
    workers: options.workers,
    refresh: options.refresh,
    started,
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

/** Starts the highlight stage in a child process, to wait for its orders (`order`); its events go to `onEvent`. */
export function startHighlight(options: HighlightStageOptions, onEvent: (e: HighlightEvent) => void): { done: Promise<void>; kill: () => void; order: (o: HighlightOrder) => void } {
  const child = runChildStage<HighlightEvent>(import.meta.url, options, onEvent, 'the highlight stage');
  return { done: child.done, kill: child.kill, order: child.send };
}

childStageMain(import.meta.url, highlightStage);
