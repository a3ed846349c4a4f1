/**
 * A site folder holding what a lookup reads, written without a build (seconds instead of a minute):
 * the message index by the build's own writer, each record's JSON twin and the API manifest's site
 * URL. For the lookup's unit tests and the search-dev check; the site tests run it on real builds.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeMessageIndex } from '../../src/build/search-index.ts';
import { wrappedRecordSchema, type ErrorRecord } from '../../src/schema/record.ts';

export const DATASET_VERSION = '2026-08-15T17:31:12.345Z';

/** The records of a `.jsonl` catalog file of wrapped records. */
export function readRecords(file: string): ErrorRecord[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => wrappedRecordSchema.parse(JSON.parse(l)).record);
}

/** Writes the site into `dir` (a fresh temporary folder without one); `siteUrl` null leaves the API manifest out. */
export function writeIndexSite(records: readonly ErrorRecord[], options: { dir?: string; siteUrl?: string | null } = {}): string {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'errdex-lookup-site-'));
  writeMessageIndex(records, dir);
  mkdirSync(join(dir, 'api/errors'), { recursive: true });
  for (const record of records) writeFileSync(join(dir, 'api/errors', `${record.id}.json`), JSON.stringify({ record, datasetVersion: DATASET_VERSION }));
  const siteUrl = options.siteUrl === undefined ? 'https://errors.example.org/' : options.siteUrl;
  if (siteUrl !== null) writeFileSync(join(dir, 'api/manifest.json'), JSON.stringify({ siteName: 'errdex', siteUrl, datasetVersion: DATASET_VERSION }));
  return dir;
}
