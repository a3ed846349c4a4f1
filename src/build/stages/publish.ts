/**
 * The publish stage: what the stages beside the render wrote (the record files, the message index,
 * the full-text index) is merged into the staging folder, which then becomes the output folder by
 * renames only, so the site is never half old, half new; the URL ledger is written in the same step
 * (src/build/publish-step.ts), so that it records exactly the URLs published. The previous site is
 * kept as the next build's standby (src/build/standby.ts) or deleted by a detached process: deleting a
 * large tree file by file takes longer than the rest of an incremental build. The keys of the pages
 * just published are recorded for the next build (src/build/page-reuse.ts); a merge's next build joins
 * the shards again, so it keeps none.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { displayPath } from '../../catalog/load.ts';
import { forgetPageManifest, keepReusable, keptChanges, reusableHeads, writePageManifest } from '../page-reuse.ts';
import { pageFileOf, type PageHead } from '../rendered-pages.ts';
import type { StageContext } from '../pipeline.ts';
import { publishSiteAndLedger } from '../publish-step.ts';
import { countProblems, fullTextPages, MASS_REMOVAL_SHARE, massRemovals, removedOf, siteRecordIds } from '../publish-checks.ts';
import { mergeInto } from '../site-folders.ts';
import { keepStandby } from '../standby.ts';
import type { BuildState } from '../state.ts';
import { describeTitles, titleFigures, type TitleFigures } from '../summary.ts';
import { SHORT_LINK_TEMPLATE_ID } from '../../views/short-link.ts';
import { shortPath } from '../../util/urls.ts';
import { prepareSite } from './deploy-files.ts';
import { mergeRecordFiles } from './record-files.ts';
import { dropShardsStore } from '../merge.ts';

/** The ledger to write with the site, or null, and what the ledger stage says of it. */
function ledgerWrite(s: BuildState): { write: { file: string; text: string } | null; summary: string } {
  const { file, text } = s.messageIndex!.ledger;
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return { write: null, summary: `${displayPath(file)} unchanged` };
  if (!s.settings.updateLedger) return { write: null, summary: `${displayPath(file)} not updated (--no-ledger-update)` };
  return { write: { file, text }, summary: `${displayPath(file)} updated: commit it with the catalog` };
}

/** Stops the build, before anything is published, when the staged site is not whole or removes most of the published one. */
function checkBeforePublishing(s: BuildState): void {
  const { staging } = s.dirs;
  const staged = siteRecordIds(staging);
  const pages = Object.keys(s.rendered!.pages.keys);
  const index = join(staging, 'api/errors.json');
  const problems = countProblems({
    records: s.catalog!.records,
    errorPages: pages.length - s.rendered!.pages.several.keys,
    missingPages: pages.filter((f) => !existsSync(join(staging, f))),
    jsonTwins: staged.size,
    indexRows: existsSync(index) ? (JSON.parse(readFileSync(index, 'utf8')) as { count: number }).count : 0,
    messageIndex: s.messageIndex!.records,
    fullText: fullTextPages(staging),
  });
  if (problems.length > 0) throw new Error(`The site built does not add up, so it was not published: ${problems.join('; ')}.`);
  const { published, removed } = s.messageIndex!.ledger;
  const site = siteRecordIds(s.settings.outDir);
  const over = massRemovals([
    { source: `the published site (${displayPath(s.settings.outDir)})`, published: site.size, removed: removedOf(site, staged) },
    { source: `the URL ledger (${displayPath(s.messageIndex!.ledger.file)})`, published, removed },
  ]);
  if (over.length > 0 && !s.settings.allowMassRemoval) {
    const what = over.map((r) => `${r.removed} of the ${r.published} error pages of ${r.source}`).join(', and ');
    throw new Error(
      `This build would remove ${what}: more than ${MASS_REMOVAL_SHARE * 100}%, which is more often a catalog file emptied or broken by accident ` +
        `(with --skip-invalid, an invalid record is left out) than an intended change. Nothing was published. ` +
        `If the removal is intended, build with --allow-mass-removal.`,
    );
  }
}

/**
 * The titles of the site's pages, compared as they were written: the pages Astro rendered now (but the
 * short-link template, which the record files replace), the error pages reused (`heads`), and the
 * short links the record files stage wrote, among themselves.
 */
function siteTitles(s: BuildState, heads: Record<string, PageHead>): TitleFigures {
  const pages = new Map(Object.entries(s.rendered!.written.heads));
  for (const path of s.rendered!.pages.reused) pages.set(path, heads[path]!);
  pages.delete(pageFileOf(shortPath(SHORT_LINK_TEMPLATE_ID)));
  const rendered = titleFigures(pages);
  const short = s.recordFiles!.titles;
  return { titledPages: rendered.titledPages + short.titledPages, sharedTitles: [...rendered.sharedTitles, ...short.sharedTitles] };
}

export async function publishStage(ctx: StageContext<BuildState>): Promise<void> {
  const s = ctx.state;
  const { staging, recordFiles, messageIndex, listIndex, fullText } = s.dirs;
  // The record files' folders as the stage measured them, the largest part of a large site.
  const known = mergeRecordFiles(recordFiles, staging, s.recordFiles!.figures);
  for (const dir of [messageIndex, listIndex, fullText]) {
    mergeInto(dir, staging);
    rmSync(dir, { recursive: true, force: true });
  }
  // _headers, the host's budget (fails here, before the published site is touched), the figures.
  const site = await prepareSite(staging, s.settings, s.catalog!.records, s.settings.host, known ?? undefined);
  for (const note of site.notes) s.board.note(note);
  const heads = reusableHeads(staging, Object.keys(s.rendered!.pages.keys), s.rendered!.written, s.published);
  const titles = describeTitles(siteTitles(s, heads));
  if (titles.warning) s.board.warn(titles.text);
  else s.board.note(titles.text);
  rmSync(s.dirs.snapshots, { recursive: true, force: true });
  checkBeforePublishing(s);
  const ledger = ledgerWrite(s);
  // Until the new keys are written, no record of keys may describe the folder being replaced.
  forgetPageManifest(s.settings.cacheDir);
  const previous = publishSiteAndLedger({ staging, outDir: s.settings.outDir, ledger: ledger.write });
  // A site replaced by one that reused it differs from it by this build's changes: the next build fills its folders in place.
  keepStandby(s.settings.outDir, previous, s.published !== null && !s.settings.fromShards);
  s.ledgerSummary = ledger.summary;
  if (s.settings.fromShards) dropShardsStore(s.settings.cacheDir);
  else {
    // The reusable files kept in the build cache, the one folder a CI keeps between runs (docs/deploy.md).
    const keys = { ...s.rendered!.pages.keys, ...s.fullText!.keys };
    const changes = keptChanges(s.published, [...s.rendered!.pages.reused, ...s.fullText!.reused]);
    keepReusable(s.settings.outDir, keys, s.settings.cacheDir, changes);
    writePageManifest(s.settings.cacheDir, { code: s.code, site: s.settings.outDir, files: keys, heads }, s.published, s.rendered!.written, changes?.unchanged);
  }
  s.board
    .stage('publish')
    .end({
      summary: `${displayPath(s.settings.outDir)}: ${site.summary}`,
      items: site.figures.files,
      unit: 'files',
      output: { files: site.figures.files, bytes: site.figures.bytes },
    });
}
