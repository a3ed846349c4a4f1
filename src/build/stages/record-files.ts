/**
 * The build's "record files" stage: each record's JSON twin (`api/errors/{id}.json`, the record's text
 * exactly as the catalog gives it) and short-link page (`e/{id}/index.html`, stamped from the template
 * page Astro rendered: src/lib/short-link.ts), written straight from the validated catalog's snapshot.
 *
 * Two of every three files of a site, and each the same for every build of the same record: through
 * Astro they cost more than a third of a cold render, written here a few seconds per 100,000 records.
 *
 * It runs in a child process (scripts/lib/child-stage.ts) into a folder of its own, merged into the
 * site after the render. Up to one render chunk it starts with the render, at a lower priority, on the
 * CPU the render leaves: the JSON twins first, then the short links once a render process has written
 * the template (it is looked for where the render processes write, then where their output goes).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { forEachSnapshotEntry } from '../../catalog/snapshot.ts';
import { pageTitle } from '../../lib/error-view.ts';
import { checkShortLinkTemplate, SHORT_LINK_TEMPLATE_ID, stampShortLink, type ShortLinkValues } from '../../lib/short-link.ts';
import { errorPath, jsonPath, shortPath } from '../../lib/urls.ts';
import { mergeInto } from './render.ts';
import { childStageMain, startChildStage, type StageMessage } from '../protocol.ts';

/** Where a site path (root-relative, as src/lib/urls.ts gives it) is in the site folder. */
const fileOf = (siteDir: string, path: string): string => join(siteDir, path.endsWith('/') ? `${path}index.html` : path);

/** Where the short-link template is in a site folder. */
export const templateFileIn = (siteDir: string): string => fileOf(siteDir, shortPath(SHORT_LINK_TEMPLATE_ID));

export interface RecordFilesOptions {
  snapshot: string;
  /** The files go here, to be merged into the site. */
  outDir: string;
  /** Site folders the short-link template may be written to, looked at in turn until it is there. */
  templateSites: string[];
}

export interface RecordFilesResult {
  records: number;
  files: number;
  bytes: number;
}

/**
 * The template once a render process has written it whole. A page being written can be read in
 * part, so a read that does not end the page is tried again.
 */
async function awaitTemplate(siteDirs: readonly string[]): Promise<string> {
  for (;;) {
    for (const dir of siteDirs) {
      let text: string;
      try {
        text = readFileSync(templateFileIn(dir), 'utf8');
      } catch {
        continue;
      }
      if (text.trimEnd().endsWith('</html>')) {
        checkShortLinkTemplate(text);
        return text;
      }
    }
    await sleep(50);
  }
}

/** Writes every record's JSON twin, then, with the template, its short link; `onRecord` is told the records done so far. */
export async function writeRecordFiles(options: RecordFilesOptions, onRecord?: (done: number) => void): Promise<RecordFilesResult> {
  const { outDir } = options;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'api/errors'), { recursive: true });
  mkdirSync(join(outDir, 'e'), { recursive: true });
  const links: ShortLinkValues[] = [];
  let bytes = 0;
  forEachSnapshotEntry(options.snapshot, ({ record, sourceText }) => {
    writeFileSync(fileOf(outDir, jsonPath(record.id)), sourceText);
    bytes += Buffer.byteLength(sourceText);
    links.push({ id: record.id, to: errorPath(record), title: pageTitle(record) });
    // Half the work per record: the short link is the other half.
    if (links.length % 1000 === 0) onRecord?.(links.length / 2);
  });
  onRecord?.(Math.floor(links.length / 2));
  const template = await awaitTemplate(options.templateSites);
  links.forEach((link, i) => {
    const page = stampShortLink(template, link);
    mkdirSync(join(outDir, 'e', link.id));
    writeFileSync(fileOf(outDir, shortPath(link.id)), page);
    bytes += Buffer.byteLength(page);
    if ((i + 1) % 1000 === 0) onRecord?.(Math.floor((links.length + i + 1) / 2));
  });
  onRecord?.(links.length);
  return { records: links.length, files: 2 * links.length, bytes };
}

/** Why the record files stage would wait for ever on a rendered site: it has no short-link template; null when it has one. */
export function missingTemplate(siteDir: string): string | null {
  return existsSync(templateFileIn(siteDir)) ? null : `The render wrote no short-link template (${shortPath(SHORT_LINK_TEMPLATE_ID)}): src/pages/e/[id].astro must render it.`;
}

/** Moves the record files into the rendered site, in place of the short-link template. */
export function mergeRecordFiles(recordsDir: string, siteDir: string): void {
  rmSync(dirname(templateFileIn(siteDir)), { recursive: true });
  // The site's `e/` held the template and the notices of removed records: without any, the record
  // files' `e/` is moved whole rather than link by link.
  const shortLinks = join(siteDir, 'e');
  if (readdirSync(shortLinks).length === 0) rmdirSync(shortLinks);
  mergeInto(recordsDir, siteDir);
  rmSync(recordsDir, { recursive: true, force: true });
}

/** Starts the stage in a child process; `background`: at a lower priority. `onRecord` is told the records done so far. */
export const startRecordFiles = (options: RecordFilesOptions, background: boolean, onRecord: (done: number) => void) =>
  startChildStage<RecordFilesResult, number>(import.meta.url, options, 'the record files stage', background, onRecord);

childStageMain(import.meta.url, async (options: RecordFilesOptions, send: (m: StageMessage<RecordFilesResult, number>) => void) => {
  send({ result: await writeRecordFiles(options, (done) => send({ progress: done })) });
});
