/**
 * The message-index stage, in a child process (it needs the validated catalog, not the pages): the
 * paste matcher's message index (src/build/search-index.ts), `_redirects` for moved and short URLs,
 * and the URL ledger's plan, whose new text it hands back for the ledger stage to write after
 * publishing. Into a folder of its own, merged into the site by publish.
 *
 * It is made from the whole catalog, so of a sharded build's jobs shard 1 makes it, with the key of
 * what it was made from (`messageIndexKey`), and its folder carries it; the merge, whose own key is
 * the same when it validated the same catalog the same way, links it instead of making it again.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { siteConfig } from '../../../errdex.config.mjs';
import { listFilesBelow } from '../../util/files.ts';
import { SHARD_MESSAGE_INDEX, shardMessageIndexResult } from '../merge.ts';
import { readShardFile, snapshotKey } from '../shard-reuse.ts';
import { linkReused } from '../page-reuse.ts';
import { childMain, startStageChild } from '../protocol.ts';
import { stageProcess } from '../plan.ts';
import type { StageContext } from '../pipeline.ts';
import type { BuildSettings, BuildState, MessageIndexResult } from '../state.ts';
import { takeFromStandby } from '../standby.ts';
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
  /** The standby this build claimed (src/build/standby.ts), whose `search-index/` is filled in place; null: none. */
  standby: string | null;
  /** The build cache's raise sites (src/build/raise-site-memo.ts) and items (src/build/message-index-memo.ts), kept for the next build of the same code; null: no cache. */
  memo: { sites: string; items: string; code: string } | null;
}

async function messageIndex(options: MessageIndexOptions): Promise<MessageIndexResult> {
  // What only the child needs is loaded here, not where the build imports this module (src/build/protocol.ts).
  const [
    { readHead, readLedgerPlan },
    { ledgerPath, ledgerReport, serializeLedger },
    { redirectsFile },
    { errorPath, shortPath },
    { MESSAGE_INDEX_DIR, writeBuiltIndex },
    { keepRaiseSites, readKeptSites },
    { fileEveryRecord, keepItems, keptItems, memoBehind, readKeptItems },
    { messageIndex },
    { formatCount },
    { plural },
  ] = await Promise.all([
    import('../../catalog/snapshot.ts'),
    import('../../catalog/ledger.ts'),
    import('../../views/redirects.ts'),
    import('../../util/urls.ts'),
    import('../search-index.ts'),
    import('../raise-site-memo.ts'),
    import('../message-index-memo.ts'),
    import('../../search/message-index.ts'),
    import('../progress.ts'),
    import('../../util/text.ts'),
  ]);
  const head = readHead(options.head);
  const plan = readLedgerPlan(options.head);
  rmSync(options.outDir, { recursive: true, force: true });
  mkdirSync(options.outDir, { recursive: true });
  const seeded = takeFromStandby(options.standby, MESSAGE_INDEX_DIR, join(options.outDir, MESSAGE_INDEX_DIR));
  // The excerpts show the function raising each error (the message index's raise sites), kept in the
  // build cache per source file (src/build/raise-site-memo.ts), and the index's items kept per record
  // (src/build/message-index-memo.ts): with both, the records whose text changed are read, and the
  // others taken as kept.
  const kept = readKeptSites(options.memo && { file: options.memo.sites, code: options.memo.code });
  const keptRows = kept && readKeptItems(options.memo && { file: options.memo.items, code: options.memo.code });
  const filed = keptRows ? keptItems(options.snapshot, keptRows, kept) : null;
  const made = filed ?? fileEveryRecord(options.snapshot, kept);
  if (options.memo) {
    keepRaiseSites({ file: options.memo.sites, code: options.memo.code }, made.files, made.sites, kept);
    if (memoBehind(keptRows, filed)) keepItems({ file: options.memo.items, code: options.memo.code }, made.rows, made.counts);
  }
  writeFileSync(
    join(options.outDir, '_redirects'),
    redirectsFile(
      // Message pages whose message one record alone raises now lead to its page, as renamed pages do.
      [...plan.redirects, ...(plan.messages?.redirects ?? [])],
      made.rows.map((row) => ({ from: shortPath(row[1]), to: errorPath({ repo: row[2], slug: row[3] }) })),
      siteConfig.basePath,
    ),
  );
  const built = writeBuiltIndex(messageIndex(made.items, made.counts, made.rows.length, { maxShards: options.maxIndexFiles }), options.outDir, { ...options.published, seeded });
  const records = made.rows.length;
  const reading = filed ? `; ${filed.read === 0 && filed.remade === 0 ? 'every record as the last build filed it' : `${plural(filed.read, 'record')} read, ${formatCount(filed.remade)} more filed again`}` : '';
  return {
    summary: `message index in ${built.manifest.shards} files${built.inPlace === undefined ? '' : `, ${built.inPlace} already in place in the standby's folder`}${reading}`,
    records,
    warnings: built.unindexed.map(
      (u) => `Record ${u.id}: its message ${JSON.stringify(u.template)} has no literal word to find it by when pasted; full-text search still finds it.`,
    ),
    ledger: {
      report: ledgerReport(plan, head.ledger.exists),
      file: ledgerPath(head.root),
      text: serializeLedger(plan.ledger),
      published: plan.publishedBefore,
      removed: plan.changes.removedNow.length,
    },
  };
}

/** Where the build cache keeps the message index's raise sites and items. */
const memoFiles = (cacheDir: string) => ({ sites: join(cacheDir, 'message-index', 'raise-sites.json'), items: join(cacheDir, 'message-index', 'items.json') });

/** The hash of everything the stage reads: the validated snapshot with what shapes it (`snapshotKey`), and --max-index-files; undefined where no snapshot key is taken. */
export function messageIndexKey(s: BuildState): string | undefined {
  const snapshot = snapshotKey(s);
  return snapshot && createHash('sha256').update(JSON.stringify([snapshot, s.settings.maxIndexFiles ?? null])).digest('hex');
}

/** Where the stage links the files it may link instead of writing: a shard's, in its folder's message index; any other build's, in the published site. */
function messageIndexPublished(settings: BuildSettings): PublishedFiles {
  const own = publishedFiles(settings, 'message-index');
  return settings.shard ? { ...own, site: own.site && join(own.site, SHARD_MESSAGE_INDEX) } : own;
}

/** A merge: the message index a shard made (shard 1) linked into `outDir`, with what its stage said, when its key is `key`; null otherwise. */
function takeFromShards(dirs: readonly string[], key: string, outDir: string): MessageIndexResult | null {
  for (const dir of dirs) {
    const made = readShardFile<MessageIndexResult>(shardMessageIndexResult(dir));
    if (made?.key !== key) continue;
    const from = join(dir, SHARD_MESSAGE_INDEX);
    rmSync(outDir, { recursive: true, force: true });
    linkReused(listFilesBelow(from), from, outDir);
    return made;
  }
  return null;
}

export async function messageIndexStage(ctx: StageContext<BuildState>): Promise<void> {
  const s = ctx.state;
  const key = messageIndexKey(s);
  let result = s.settings.fromShards && key ? takeFromShards(s.settings.fromShards, key, s.dirs.messageIndex) : null;
  const taken = result !== null;
  if (!result) {
    const options: MessageIndexOptions = {
      snapshot: s.snapshot,
      head: s.head,
      outDir: s.dirs.messageIndex,
      maxIndexFiles: s.settings.maxIndexFiles,
      published: messageIndexPublished(s.settings),
      standby: s.standby,
      memo: s.settings.useCache ? { ...memoFiles(s.settings.cacheDir), code: s.code } : null,
    };
    const child = startStageChild<MessageIndexResult>(import.meta.url, options, () => {}, 'the message-index stage', stageProcess(s.plan, 'message-index'));
    ctx.onCancel(child.kill);
    result = await child.result;
  }
  s.messageIndex = { ...result, key };
  for (const line of result.ledger.report) s.board.note(line);
  for (const w of result.warnings) s.board.warn(w);
  const whose = taken ? " (shard 1's: made from the same snapshot)" : s.settings.shard ? ', for the merge' : s.settings.fromShards ? ' (made here: no shard made it from the same snapshot)' : '';
  s.board.stage('message-index').end({ summary: `${result.summary}, _redirects${whose}`, items: result.records, unit: 'records' });
}

childMain(import.meta.url, messageIndex);
