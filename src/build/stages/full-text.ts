/**
 * The full-text stage: Pagefind's index over one small document per record, written by a child
 * process from the catalog's snapshot into a folder of its own (merged into the site by publish). The
 * catalog is indexed in Pagefind parts (src/build/search-index.ts), each read from the snapshot on
 * its own, so the process holds one part's documents besides Pagefind's own index; a part that is
 * unchanged since the published build is linked from it.
 */
import { mkdirSync, rmSync } from 'node:fs';
import type { Shard } from '../../catalog/shard.ts';
import type { ErrorRecord } from '../../schema/record.ts';
import { describeFragments, largeBundleWarning, PAGEFIND_DIR } from '../pagefind-bundle.ts';
import { formatCount } from '../progress.ts';
import { childMain, startStageChild } from '../protocol.ts';
import { stageProcess } from '../plan.ts';
import type { StageContext } from '../pipeline.ts';
import { snapshotWritten } from './validate.ts';
import type { BuildState } from '../state.ts';
import type { PagefindIndexOptions, PagefindIndexResult } from '../search-index.ts';

interface FullTextOptions {
  snapshot: string;
  /** Records in the snapshot. */
  count: number;
  /** The bundle goes to `<outDir>/pagefind/`. */
  outDir: string;
  /** `--max-fragments` (src/build/pagefind-bundle.ts). */
  maxFragments: number | undefined;
  /** Records per Pagefind index, at most (the ERRDEX_PAGEFIND_PART_RECORDS setting). */
  partRecords: number | undefined;
  /** The published site and its parts' keys (PagefindIndexOptions.previous). */
  previous: PagefindIndexOptions['previous'];
  /** A shard's build: the shard, which indexes the parts it owns (src/catalog/shard.ts). */
  shard: Shard | null;
}

async function fullText(options: FullTextOptions): Promise<PagefindIndexResult> {
  // What only the child needs is loaded here, not where the build imports this module (src/build/protocol.ts).
  const [pagefind, { leanSnapshotTextKeys, snapshotEntries }, { writePagefindIndex }, { ownsPart }] = await Promise.all([
    import('pagefind'),
    import('../../catalog/snapshot.ts'),
    import('../search-index.ts'),
    import('../../catalog/shard.ts'),
  ]);
  function* records(test: (id: string) => boolean): Generator<ErrorRecord> {
    for (const entry of snapshotEntries(options.snapshot, { text: false, entry: test })) yield entry.record;
  }
  // Each record's id and its text's hash, from the lean snapshot: a fifth of the snapshot's bytes, no text decoded.
  const texts: [id: string, textKey: string][] = [];
  for (const [textKey, , place] of leanSnapshotTextKeys(options.snapshot)) texts.push([place.id, textKey]);
  const ids = () => texts.map(([id]) => id);
  // Ended by the build (it failed): Pagefind's own process goes too, or it would go on writing the
  // index into a folder the build is removing.
  process.once('SIGTERM', () => void pagefind.close().finally(() => process.exit(1)));
  rmSync(options.outDir, { recursive: true, force: true });
  mkdirSync(options.outDir, { recursive: true });
  const source = { ids, records, texts: () => texts };
  const { shard } = options;
  const owns = shard ? (part: number) => ownsPart(part, shard) : undefined;
  return writePagefindIndex(source, options.outDir, undefined, { maxFragments: options.maxFragments, partRecords: options.partRecords, previous: options.previous, owns });
}

export async function fullTextStage(ctx: StageContext<BuildState>): Promise<void> {
  const s = ctx.state;
  const { published, settings } = s;
  // Only the parts' keys: the child gets its options on its command line.
  const previous = published ? { site: published.site, keys: Object.fromEntries(Object.entries(published.keys).filter(([path]) => path.startsWith(`${PAGEFIND_DIR}/`))) } : undefined;
  // A stage that needs no other begins with the build, and waits here for the snapshot alone.
  const count = await snapshotWritten(settings);
  if (count === null) {
    await ctx.ended('validate');
    throw new Error('validation ended without writing the snapshot');
  }
  const options: FullTextOptions = { snapshot: s.snapshot, count, outDir: s.dirs.fullText, maxFragments: settings.maxFragments, partRecords: settings.pagefindPartRecords, previous, shard: settings.shard };
  const child = startStageChild<PagefindIndexResult>(import.meta.url, options, () => {}, 'the full-text index (Pagefind)', stageProcess(s.plan, 'full-text'));
  ctx.onCancel(child.kill);
  const result = await child.result;
  s.fullText = result;
  const warning = largeBundleWarning(result, settings.maxFragments);
  if (warning) s.board.warn(warning);
  const records = options.count;
  const reused = result.reused.length;
  const unchanged = (n: number) => (reused ? ` (${n > 1 ? `${reused} ` : ''}unchanged)` : '');
  const own = Object.keys(result.keys).length;
  s.board.stage('full-text').end({
    summary:
      settings.shard && own === 0
        ? `none of the full-text index's ${result.parts} part${result.parts === 1 ? '' : 's'}: each is another shard's`
        : (settings.shard
            ? `this shard's ${own} of the full-text index's ${result.parts} part${result.parts === 1 ? '' : 's'}${unchanged(own)}`
            : `full-text index of ${formatCount(records)} pages${result.parts > 1 ? ` in ${result.parts} parts` : ''}${unchanged(result.parts)}`) + `, ${describeFragments(result, settings.maxFragments)}`,
    items: records,
    unit: 'records',
  });
}

childMain(import.meta.url, fullText);
