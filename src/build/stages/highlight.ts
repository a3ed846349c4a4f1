/**
 * The highlight stage, in a child process: it reads the code blocks from the catalog's snapshot and
 * highlights those not yet in the highlight cache on a pool of worker threads (src/build/highlight-pool.ts).
 * Its own process, rather than validation's, so that each hands its memory back when it ends.
 *
 * When the plan says so (large catalog files), it starts with the build, on the core validation leaves
 * idle: it highlights the blocks of the catalog's files as they are (rawCatalogBlocks), then, once the
 * build opens the `snapshot` gate, highlights what the valid records hold that it has not (nothing,
 * unless the schema changed a block), and prunes.
 */
import { readFileSync } from 'node:fs';
import { highlightCacheFile } from '../../highlight/cache.ts';
import { childMain, gateOpened, startStageChild, type ChildMessage, type StageSummary } from '../protocol.ts';
import { formatCount } from '../progress.ts';
import { stageProcess } from '../plan.ts';
import type { StageContext } from '../pipeline.ts';
import type { BuildState } from '../state.ts';

interface HighlightOptions {
  snapshot: string;
  /** The highlight cache (src/highlight/cache.ts). */
  file: string;
  workers: number;
  /** Highlight every block again (`--no-cache`). */
  refresh: boolean;
  /** Start from the catalog's files, before the snapshot is written (see above). */
  catalogRoot?: string;
  /** A shard's build: the file of its records' ids, whose blocks alone it highlights (and it prunes nothing: shards may share a cache). */
  shardIds?: string;
}

async function highlight(options: HighlightOptions, send: (m: ChildMessage) => void): Promise<StageSummary> {
  // Listening from the start: the word may come while the raw blocks are highlighted.
  const snapshotReady = options.catalogRoot ? gateOpened('snapshot') : null;
  // What only the child needs is loaded here, not where the build imports this module (src/build/protocol.ts).
  const [{ snapshotEntries }, { catalogBlocks, catalogBlocksSliced, preHighlight, rawCatalogBlocks }] = await Promise.all([
    import('../../catalog/snapshot.ts'),
    import('../highlight-pool.ts'),
  ]);
  const progress = {
    onStart: (total: number) => send({ type: 'count', stage: 'highlight', total, unit: 'blocks' }),
    onProgress: (done: number) => send({ type: 'update', stage: 'highlight', done }),
  };
  let early: { keys: ReadonlySet<string>; workers: number; bytes: number } = { keys: new Set(), workers: 0, bytes: 0 };
  let blocks;
  if (options.catalogRoot && snapshotReady) {
    const rawBlocks = rawCatalogBlocks(options.catalogRoot);
    // The snapshot's blocks are gathered as soon as it is written, while the workers highlight, and
    // share the files' blocks (the same code, unless the schema changed a block).
    const fromSnapshot = snapshotReady.then(() => catalogBlocksSliced(snapshotEntries(options.snapshot, { text: false }), rawBlocks.blocks));
    const raw = await preHighlight(rawBlocks, { file: options.file, workers: options.workers, refresh: options.refresh, prune: false, ...progress });
    early = { keys: new Set(raw.highlightedKeys), workers: raw.workers, bytes: raw.bytes };
    blocks = await fromSnapshot;
  } else if (options.shardIds) {
    const ids = new Set(JSON.parse(readFileSync(options.shardIds, 'utf8')) as string[]);
    blocks = catalogBlocks(snapshotEntries(options.snapshot, { text: false, entry: (id) => ids.has(id) }));
  } else blocks = catalogBlocks(snapshotEntries(options.snapshot, { text: false }));
  // After an early pass, its progress stands for the stage's: this pass has little or nothing to do
  // (and what the early pass highlighted is not highlighted again, whatever `refresh` says).
  const hl = await preHighlight(blocks, {
    file: options.file,
    workers: options.workers,
    refresh: options.refresh && !options.catalogRoot,
    stored: early.keys,
    prune: !options.shardIds,
    ...(options.catalogRoot ? {} : progress),
  });
  // The valid records' blocks that this build highlighted, in either pass.
  let highlighted = hl.highlighted;
  for (const key of blocks.blocks.keys()) if (early.keys.has(key)) highlighted++;
  const threads = Math.max(hl.workers, early.workers);
  return {
    summary:
      `${formatCount(hl.unique)} code blocks: ${formatCount(highlighted)} highlighted${threads > 1 ? ` on ${threads} threads` : ''}, ${formatCount(hl.unique - highlighted)} cached` +
      (hl.pruned > 0 ? `, ${formatCount(hl.pruned)} stale pruned` : '') +
      (options.catalogRoot ? '; begun beside validation' : ''),
    items: highlighted,
    unit: 'blocks',
    // Stored in the cache's one file: bytes only.
    output: { files: null, bytes: hl.bytes + early.bytes },
  };
}

/**
 * V8 flags for the highlight stage and its worker threads. Without lazy feedback allocation a
 * function collects type feedback from its first call, and the tokenizer's hot code is optimised
 * sooner: the stage alone on 10,000 records took 16.4–16.8 CPU-seconds against 16.9–17.3.
 */
const HIGHLIGHT_NODE_FLAGS = ['--no-lazy-feedback-allocation'];

export async function highlightStage(ctx: StageContext<BuildState>): Promise<void> {
  const s = ctx.state;
  const fromFiles = s.plan.highlight.fromCatalogFiles;
  const options: HighlightOptions = {
    snapshot: s.snapshot,
    file: highlightCacheFile(s.settings.cacheDir),
    workers: s.plan.workers,
    refresh: !s.settings.useCache,
    ...(fromFiles ? { catalogRoot: s.settings.catalog } : {}),
    ...(s.settings.shard ? { shardIds: s.shardIds } : {}),
  };
  const board = s.board.stage('highlight');
  const { priority, nodeFlags } = stageProcess(s.plan, 'highlight');
  const child = startStageChild<StageSummary>(
    import.meta.url,
    options,
    (m) => {
      if (m.type === 'count') board.count(m.total, m.unit);
      else if (m.type === 'update') board.update(m.done);
      else if (m.type === 'warn') s.board.warn(m.text);
    },
    'the highlight stage',
    { priority, nodeFlags: [...HIGHLIGHT_NODE_FLAGS, ...nodeFlags] },
  );
  ctx.onCancel(child.kill);
  // Begun from the files: the snapshot's blocks are gathered once the plan's stage has ended
  // (asked after validation, when the plan has been made again with the records).
  if (fromFiles) {
    void ctx
      .ended('validate')
      .then(() => ctx.ended(s.plan.highlight.snapshotAfter))
      .then(
        () => child.send({ type: 'open', gate: 'snapshot' }),
        () => {},
      );
  }
  board.end(await child.result);
}

childMain(import.meta.url, highlight);
