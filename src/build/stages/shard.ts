/**
 * The publish stage of a shard's build (`--shard i/n`): what the shard made (its error pages, its
 * full-text parts, its records' JSON twins and short links with what their stage said of them, its
 * share of the listings' filter indexes with their list, and for shard 1 the message index) becomes
 * the shard's folder, the page store `npm run merge` joins (src/build/merge.ts),
 * after checking that every page of the shard's records is there. The same files and keys are kept
 * in the build cache, so that the shard's next build reuses them.
 */
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { displayPath } from '../../catalog/load.ts';
import { shardLabel } from '../../catalog/shard.ts';
import { catalogDigest, catalogMemoDir, SHARD_MESSAGE_INDEX, SHARD_RECORDS, shardMessageIndexResult, shardRecordsListing, shardRecordsResult, writeStamp } from '../merge.ts';
import { writeFileAtomic } from '../../util/files.ts';
import { publishedFiles } from '../unchanged-files.ts';
import { LIST_INDEX_DIR, listIndexCache, shardListings } from './list-index.ts';
import { forgetPageManifest, keepReusable, keptChanges, reusableHeads, writePageManifest } from '../page-reuse.ts';
import type { StageContext } from '../pipeline.ts';
import { formatCount } from '../progress.ts';
import { mergeInto, removeInBackground } from '../site-folders.ts';
import type { BuildState } from '../state.ts';

export async function publishShard(ctx: StageContext<BuildState>): Promise<void> {
  const s = ctx.state;
  const shard = s.settings.shard!;
  const { staging, fullText } = s.dirs;
  const records = s.catalog!.shard!.records;
  mergeInto(fullText, staging);
  rmSync(fullText, { recursive: true, force: true });
  const pages = Object.keys(s.rendered!.pages.keys);
  const missing = pages.filter((f) => !existsSync(join(staging, f)));
  const recordFiles = s.recordFiles!.records;
  if (pages.length !== records || missing.length > 0 || recordFiles !== records) {
    throw new Error(
      `Shard ${shardLabel(shard)} does not add up, so it was not written: ${formatCount(records)} records, ${formatCount(pages.length)} error pages listed, ${formatCount(missing.length)} missing, ${formatCount(recordFiles)} records' JSON twins and short links.`,
    );
  }
  const keys = { ...s.rendered!.pages.keys, ...s.fullText!.keys };
  const heads = reusableHeads(staging, pages, s.rendered!.written, s.published);
  // The shard's folder, made beside the old one and swapped in. Its files are links of the staged ones:
  // the proofs taken of either hold for both.
  const next = join(s.dirs.root, 'shard');
  const manifest = { code: s.code, site: join(next, 'site'), files: keys, heads };
  const changes = keptChanges(s.published, [...s.rendered!.pages.reused, ...s.fullText!.reused]);
  keepReusable(staging, keys, next);
  writePageManifest(next, manifest, s.published, s.rendered!.written, changes?.unchanged);
  // The record files and the stage's listing of them (their identities hold: the folder is moved, not copied).
  renameSync(s.dirs.recordFiles, join(next, SHARD_RECORDS));
  writeFileAtomic(shardRecordsResult(next), JSON.stringify(s.recordFiles));
  const listing = publishedFiles(s.settings, 'record-files').listing;
  if (listing && existsSync(listing)) cpSync(listing, shardRecordsListing(next));
  // Its share of the listings' filter indexes, for the merge's cache.
  const lists = listIndexCache(s);
  if (lists && existsSync(join(lists, LIST_INDEX_DIR))) cpSync(join(lists, LIST_INDEX_DIR), join(next, LIST_INDEX_DIR), { recursive: true });
  writeFileAtomic(shardListings(next), JSON.stringify(s.listIndex));
  // Shard 1's message index, made from the whole catalog, for the merge.
  if (s.messageIndex) {
    renameSync(s.dirs.messageIndex, join(next, SHARD_MESSAGE_INDEX));
    writeFileAtomic(shardMessageIndexResult(next), JSON.stringify(s.messageIndex));
  }
  const memo = catalogMemoDir(s.settings.cacheDir);
  if (shard.index === 0 && s.settings.useCache && existsSync(memo)) cpSync(memo, catalogMemoDir(next), { recursive: true });
  writeStamp(next, { shard, code: s.code, catalog: catalogDigest(s.settings.catalog), datasetVersion: s.settings.datasetVersion, records: s.catalog!.records, shardRecords: records });
  // The build cache: what the shard's next build may reuse.
  forgetPageManifest(s.settings.cacheDir);
  keepReusable(staging, keys, s.settings.cacheDir, changes);
  writePageManifest(s.settings.cacheDir, manifest, s.published, s.rendered!.written, changes?.unchanged);
  const { outDir } = s.settings;
  const previous = `${outDir}.previous-${process.pid}`;
  if (existsSync(outDir)) renameSync(outDir, previous);
  renameSync(next, outDir);
  if (existsSync(previous)) removeInBackground(previous);
  s.board.stage('publish').end({
    summary: `shard ${shardLabel(shard)} in ${displayPath(outDir)}: ${formatCount(records)} of ${formatCount(s.catalog!.records)} records' error pages, JSON twins and short links, ${Object.keys(s.fullText!.keys).length} full-text parts; join the shards with npm run merge`,
    items: Object.keys(keys).length,
    unit: 'files',
  });
}
