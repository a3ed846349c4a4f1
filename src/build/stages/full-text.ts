/**
 * The build's full-text index: Pagefind's bundle over one small document per record, written by a
 * child process from the catalog's snapshot as soon as the snapshot exists (scripts/build.ts), so that
 * it runs beside highlighting and rendering. The catalog is indexed in parts (scripts/lib/search-index.ts),
 * each read from the snapshot on its own, so the process holds one part's documents besides
 * Pagefind's own index; a part that is unchanged since the published build is linked from it.
 */
import { mkdirSync, rmSync } from 'node:fs';
import type { ErrorRecord } from '../../schema/record.ts';
import { childStageMain, startChildStage, type StageMessage } from '../protocol.ts';
import type { PagefindIndexOptions, PagefindIndexResult } from '../../../scripts/lib/search-index.ts';

export interface PagefindStageOptions {
  snapshot: string;
  /** Records in the snapshot. */
  count: number;
  /** The bundle goes to `<outDir>/pagefind/`, to be merged into the site. */
  outDir: string;
  /** `--max-fragments` (scripts/lib/pagefind-bundle.ts). */
  maxFragments: number | undefined;
  /** The published site and its parts' keys (PagefindIndexOptions.previous). */
  previous: PagefindIndexOptions['previous'];
}

async function pagefindStage(options: PagefindStageOptions, send: (m: StageMessage<PagefindIndexResult>) => void): Promise<void> {
  // What only the child needs is loaded here, not where the build script imports this module (scripts/lib/child-stage.ts).
  const [pagefind, { snapshotEntries }, { pagefindPartOf, writePagefindIndex }] = await Promise.all([
    import('pagefind'),
    import('../../catalog/snapshot.ts'),
    import('../../../scripts/lib/search-index.ts'),
  ]);
  function* partRecords(part: number, parts: number): Generator<ErrorRecord> {
    for (const entry of snapshotEntries(options.snapshot, { text: false, entry: (id) => pagefindPartOf(id, parts) === part })) yield entry.record;
  }
  // Ended by the build (it failed): Pagefind's own process goes too, or it would go on writing the
  // index into a folder the build is removing.
  process.once('SIGTERM', () => void pagefind.close().finally(() => process.exit(1)));
  rmSync(options.outDir, { recursive: true, force: true });
  mkdirSync(options.outDir, { recursive: true });
  const source = { count: options.count, part: partRecords };
  send({ result: await writePagefindIndex(source, options.outDir, undefined, { maxFragments: options.maxFragments, previous: options.previous }) });
}

/** Starts the full-text index in a child process; `background`: at a lower priority (scripts/lib/child-stage.ts), on the CPU the other stages leave. */
export const startPagefind = (options: PagefindStageOptions, background: boolean) =>
  startChildStage<PagefindIndexResult>(import.meta.url, options, 'the full-text index (Pagefind)', background);

childStageMain(import.meta.url, pagefindStage);
