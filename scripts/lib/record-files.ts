/**
 * The build's "record files" stage: each record's JSON twin (`api/errors/{id}.json`, the record's text
 * exactly as the catalog gives it) and short-link page (`e/{id}/index.html`, stamped from the template
 * page Astro rendered: src/lib/short-link.ts), written straight from the validated catalog's snapshot.
 *
 * Two of every three files of a site, and each the same for every build of the same record: through
 * Astro they cost more than a third of a cold render, written here a few seconds per 100,000 records.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { forEachSnapshotEntry } from '../../src/catalog/snapshot.ts';
import { pageTitle } from '../../src/lib/error-view.ts';
import { checkShortLinkTemplate, SHORT_LINK_TEMPLATE_ID, stampShortLink } from '../../src/lib/short-link.ts';
import { errorPath, jsonPath, shortPath } from '../../src/lib/urls.ts';

/** Where a site path (root-relative, as src/lib/urls.ts gives it) is in the site folder. */
const fileOf = (siteDir: string, path: string): string => join(siteDir, path.endsWith('/') ? `${path}index.html` : path);

export interface RecordFilesResult {
  records: number;
  files: number;
  bytes: number;
}

/**
 * Writes every record's JSON twin and short link into `siteDir`, which holds the render's output,
 * and removes the short-link template from it. `onRecord` is called with the count so far.
 */
export function writeRecordFiles(snapshot: string, siteDir: string, onRecord?: (done: number) => void): RecordFilesResult {
  const templateFile = fileOf(siteDir, shortPath(SHORT_LINK_TEMPLATE_ID));
  let template: string;
  try {
    template = readFileSync(templateFile, 'utf8');
  } catch {
    throw new Error(`The render wrote no short-link template (${shortPath(SHORT_LINK_TEMPLATE_ID)}): src/pages/e/[id].astro must render it.`);
  }
  checkShortLinkTemplate(template);
  rmSync(join(templateFile, '..'), { recursive: true });

  mkdirSync(join(siteDir, 'api/errors'), { recursive: true });
  mkdirSync(join(siteDir, 'e'), { recursive: true });
  let records = 0;
  let bytes = 0;
  forEachSnapshotEntry(snapshot, ({ record, sourceText }) => {
    const page = stampShortLink(template, { id: record.id, to: errorPath(record), title: pageTitle(record) });
    writeFileSync(fileOf(siteDir, jsonPath(record.id)), sourceText);
    mkdirSync(join(siteDir, 'e', record.id), { recursive: true });
    writeFileSync(fileOf(siteDir, shortPath(record.id)), page);
    bytes += Buffer.byteLength(sourceText) + Buffer.byteLength(page);
    records++;
    if (records % 1000 === 0) onRecord?.(records);
  });
  onRecord?.(records);
  return { records, files: 2 * records, bytes };
}
