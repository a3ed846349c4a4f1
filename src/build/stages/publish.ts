/**
 * The publish stage: what the stages beside the render wrote (the record files, the message index,
 * the full-text index) is merged into the staging folder, which then becomes the output folder by
 * renames only, so the site is never half old, half new. The previous site is deleted by a detached
 * process: deleting a large tree file by file takes longer than the rest of an incremental build.
 * The keys of the pages just published are recorded for the next build (src/build/page-reuse.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { displayPath } from '../../catalog/load.ts';
import { forgetPageManifest, keepReusable, writePageManifest } from '../page-reuse.ts';
import type { StageContext } from '../pipeline.ts';
import { mergeInto } from '../site-folders.ts';
import type { BuildState } from '../state.ts';
import { prepareSite } from './deploy-files.ts';
import { mergeRecordFiles } from './record-files.ts';

export function publish(stagingDir: string, outDir: string): void {
  const previous = `${outDir}.previous-${process.pid}`;
  if (existsSync(outDir)) renameSync(outDir, previous);
  renameSync(stagingDir, outDir);
  if (existsSync(previous)) removeInBackground(previous);
}

/** Deletes a folder from a detached process that outlives this one. */
export function removeInBackground(dir: string): void {
  const code = 'require("node:fs").rmSync(process.argv[1], { recursive: true, force: true })';
  spawn(process.execPath, ['-e', code, dir], { detached: true, stdio: 'ignore' }).unref();
}

export async function publishStage(ctx: StageContext<BuildState>): Promise<void> {
  const s = ctx.state;
  const { staging, recordFiles, messageIndex, fullText } = s.dirs;
  mergeRecordFiles(recordFiles, staging);
  for (const dir of [messageIndex, fullText]) {
    mergeInto(dir, staging);
    rmSync(dir, { recursive: true, force: true });
  }
  // _headers, the host's budget (fails here, before the published site is touched), the figures.
  const site = prepareSite(staging, s.settings, s.catalog!.records);
  for (const note of site.notes) s.board.note(note);
  rmSync(s.dirs.snapshots, { recursive: true, force: true });
  // Until the new keys are written, no record of keys may describe the folder being replaced.
  forgetPageManifest(s.settings.cacheDir);
  publish(staging, s.settings.outDir);
  const keys = { ...s.rendered!.pages.keys, ...s.fullText!.keys };
  keepReusable(s.settings.outDir, keys, s.settings.cacheDir);
  writePageManifest(s.settings.cacheDir, { code: s.code, site: s.settings.outDir, files: keys });
  s.board.stage('publish').end({ summary: `${displayPath(s.settings.outDir)}: ${site.summary}`, items: site.figures.files, unit: 'files', output: { files: site.figures.files, bytes: site.figures.bytes } });
}
