/**
 * The message-index stage, in a child process (it needs the validated catalog, not the pages): the
 * paste matcher's message index (src/build/search-index.ts), `_redirects` for moved and short URLs,
 * and the URL ledger's plan, whose new text it hands back for the ledger stage to write after
 * publishing. Into a folder of its own, merged into the site by publish.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { siteConfig } from '../../../errdex.config.mjs';
import { childMain, startStageChild } from '../protocol.ts';
import type { StageContext } from '../pipeline.ts';
import type { BuildState, MessageIndexResult } from '../state.ts';
import { publishedFiles, type PublishedFiles } from '../unchanged-files.ts';

interface MessageIndexOptions {
  /** The validated catalog (src/catalog/snapshot.ts). */
  snapshot: string;
  /** The snapshot's head: the URL ledger and its plan. */
  head: string;
  /** The files go here, to be merged into the site. */
  outDir: string;
  /** --max-index-files. */
  maxIndexFiles: number | undefined;
  /** The published site, whose files of the same bytes are linked, and this stage's listing of them (src/build/unchanged-files.ts). */
  published: PublishedFiles;
}

async function messageIndex(options: MessageIndexOptions): Promise<MessageIndexResult> {
  // What only the child needs is loaded here, not where the build imports this module (src/build/protocol.ts).
  const [{ readHead, readSnapshot }, { ledgerPath, ledgerReport, serializeLedger }, { redirectsFile }, { errorPath, shortPath }, { writeMessageIndex }] = await Promise.all([
    import('../../catalog/snapshot.ts'),
    import('../../catalog/ledger.ts'),
    import('../../views/redirects.ts'),
    import('../../util/urls.ts'),
    import('../search-index.ts'),
  ]);
  // The records, without their text (the JSON twins), to save memory; with their code, whose
  // excerpts show the function raising each error (the message index's raise sites, src/search/raise-site.ts).
  const entries = readSnapshot(options.snapshot, { text: false, code: () => true });
  const head = readHead(options.head);
  const plan = head.ledgerPlan;
  rmSync(options.outDir, { recursive: true, force: true });
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(
    join(options.outDir, '_redirects'),
    redirectsFile(
      // Message pages whose message one record alone raises now lead to its page, as renamed pages do.
      [...plan.redirects, ...(plan.messages?.redirects ?? [])],
      entries.map((e) => ({ from: shortPath(e.record.id), to: errorPath(e.record) })),
      siteConfig.basePath,
    ),
  );
  const records = entries.map((e) => e.record);
  const built = writeMessageIndex(records, options.outDir, { maxShards: options.maxIndexFiles }, options.published);
  return {
    summary: `message index in ${built.manifest.shards} files`,
    records: records.length,
    warnings: built.unindexed.map(
      (u) => `Record ${u.id}: its message ${JSON.stringify(u.template)} has no literal word to find it by when pasted; full-text search still finds it.`,
    ),
    ledger: {
      report: ledgerReport(plan, head.ledger.exists),
      file: ledgerPath(head.root),
      text: serializeLedger(plan.ledger),
      published: head.ledger.ledger.entries.filter((e) => e.removedIn === null).length,
      removed: plan.changes.removedNow.length,
    },
  };
}

export async function messageIndexStage(ctx: StageContext<BuildState>): Promise<void> {
  const s = ctx.state;
  const options: MessageIndexOptions = { snapshot: s.snapshot, head: s.head, outDir: s.dirs.messageIndex, maxIndexFiles: s.settings.maxIndexFiles, published: publishedFiles(s.settings, 'message-index') };
  const priority = s.plan.stages.find((st) => st.name === 'message-index')!.priority;
  const child = startStageChild<MessageIndexResult>(import.meta.url, options, () => {}, 'the message-index stage', { priority });
  ctx.onCancel(child.kill);
  const result = await child.result;
  s.messageIndex = result;
  for (const line of result.ledger.report) s.board.note(line);
  for (const w of result.warnings) s.board.warn(w);
  s.board.stage('message-index').end({ summary: `${result.summary}, _redirects`, items: result.records, unit: 'records' });
}

childMain(import.meta.url, messageIndex);
