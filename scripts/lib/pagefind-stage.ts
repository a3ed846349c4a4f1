/**
 * The build's full-text index: Pagefind's bundle over one small document per record, written by a
 * child process from the catalog's snapshot as soon as the snapshot exists (scripts/build.ts), so that
 * it runs beside highlighting and rendering. Records are read one batch at a time, so the process holds
 * little besides Pagefind's own index (written in parts: scripts/lib/search-index.ts).
 */
import { mkdirSync, rmSync } from 'node:fs';
import type { ErrorRecord } from '../../src/schema/record.ts';
import { childStageMain, startChildStage, type StageMessage } from './child-stage.ts';
import type { FragmentFiles } from './pagefind-bundle.ts';

export interface PagefindStageOptions {
  snapshot: string;
  /** Records in the snapshot. */
  count: number;
  /** The bundle goes to `<outDir>/pagefind/`, to be merged into the site. */
  outDir: string;
  /** `--max-fragments` (scripts/lib/pagefind-bundle.ts). */
  maxFragments: number | undefined;
}

async function pagefindStage(options: PagefindStageOptions, send: (m: StageMessage<FragmentFiles>) => void): Promise<void> {
  // What only the child needs is loaded here, not where the build script imports this module (scripts/lib/child-stage.ts).
  const [pagefind, { snapshotEntries }, { writePagefindIndex }] = await Promise.all([import('pagefind'), import('../../src/catalog/snapshot.ts'), import('./search-index.ts')]);
  function* recordsOf(snapshot: string): Generator<ErrorRecord> {
    for (const entry of snapshotEntries(snapshot, { text: false })) yield entry.record;
  }
  // Ended by the build (it failed): Pagefind's own process goes too, or it would go on writing the
  // index into a folder the build is removing.
  process.once('SIGTERM', () => void pagefind.close().finally(() => process.exit(1)));
  rmSync(options.outDir, { recursive: true, force: true });
  mkdirSync(options.outDir, { recursive: true });
  send({ result: await writePagefindIndex({ count: options.count, records: recordsOf(options.snapshot) }, options.outDir, undefined, { maxFragments: options.maxFragments }) });
}

/** Starts the full-text index in a child process; `background`: at a lower priority (scripts/lib/child-stage.ts), on the CPU the other stages leave. */
export const startPagefind = (options: PagefindStageOptions, background: boolean) =>
  startChildStage<FragmentFiles>(import.meta.url, options, 'the full-text index (Pagefind)', background);

childStageMain(import.meta.url, pagefindStage);
