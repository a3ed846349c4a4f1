/**
 * The build's index stage, in a child process that can run beside the render (it needs the validated
 * catalog, not the pages; scripts/build.ts decides): the paste matcher's message index
 * (scripts/lib/search-index.ts), `_redirects` for moved and short URLs, and the URL ledger's plan,
 * whose new text it hands back for the build to write after publishing. (Pagefind's full-text index
 * is a process of its own, started earlier: scripts/lib/pagefind-stage.ts.)
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { siteConfig } from '../../../errdex.config.mjs';
import { childStageMain, startChildStage, type StageMessage } from '../protocol.ts';

export interface IndexOptions {
  /** The validated catalog (scripts/lib/prepare.ts). */
  snapshot: string;
  /** The index files go here, to be merged into the site. */
  outDir: string;
}

export interface IndexResult {
  summary: string;
  records: number;
  warnings: string[];
  /** The ledger's report lines, its file and its new text. */
  ledger: { report: string[]; file: string; text: string };
}

async function indexStage(options: IndexOptions, send: (m: StageMessage<IndexResult>) => void): Promise<void> {
  // What only the child needs is loaded here, not where the build script imports this module (scripts/lib/child-stage.ts).
  const [{ catalogFromSnapshot }, { ledgerPlanFor }, { ledgerPath, ledgerReport, serializeLedger }, { redirectsFile }, { errorPath, shortPath }, { writeMessageIndex }] = await Promise.all([
    import('../../catalog/catalog.ts'),
    import('../../catalog/derive/index.ts'),
    import('../../catalog/ledger.ts'),
    import('../../lib/redirects.ts'),
    import('../../lib/urls.ts'),
    import('../../../scripts/lib/search-index.ts'),
  ]);
  // The records, without their text (the JSON twins) or code: left out, to save memory.
  const catalog = catalogFromSnapshot(options.snapshot, undefined, { text: false, code: () => false });
  const plan = ledgerPlanFor(catalog);
  rmSync(options.outDir, { recursive: true, force: true });
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(
    join(options.outDir, '_redirects'),
    redirectsFile(
      plan.redirects,
      catalog.entries.map((e) => ({ from: shortPath(e.record.id), to: errorPath(e.record) })),
      siteConfig.basePath,
    ),
  );
  const records = catalog.entries.map((e) => e.record);
  const messageIndex = writeMessageIndex(records, options.outDir);
  send({
    result: {
      summary: `message index in ${messageIndex.manifest.shards} shards`,
      records: records.length,
      warnings: messageIndex.unindexed.map(
        (u) => `Record ${u.id}: its message ${JSON.stringify(u.template)} has no literal word to find it by when pasted; full-text search still finds it.`,
      ),
      ledger: { report: ledgerReport(plan, catalog.ledger.exists), file: ledgerPath(catalog.root), text: serializeLedger(plan.ledger) },
    },
  });
}

/** Starts the index stage in a child process; `background`: at a lower priority (scripts/lib/child-stage.ts), on the CPU the other stages leave. */
export const startIndex = (options: IndexOptions, background: boolean) => startChildStage<IndexResult>(import.meta.url, options, 'the index stage', background);

childStageMain(import.meta.url, indexStage);
