/**
 * Catalog snapshots: the build validates the catalog once, then hands each render process the
 * valid entries it renders as a snapshot file, so that a render process neither validates again nor
 * holds records it does not render (its memory grows with its share, not with the catalog).
 *
 * One entry per line: `[file, line, datasetVersion, sourceText]`. The record is the sourceText's
 * `record`: the schema changes nothing it validates, so parsing again gives the validated record.
 */
import { createWriteStream, readFileSync } from 'node:fs';
import type { ErrorRecord } from '../schema/record.ts';
import type { CatalogEntry } from './catalog.ts';

export async function writeSnapshot(path: string, entries: Iterable<CatalogEntry>): Promise<number> {
  const out = createWriteStream(path);
  let n = 0;
  for (const e of entries) {
    if (!out.write(`${JSON.stringify([e.origin.file, e.origin.line, e.datasetVersion, e.sourceText])}\n`)) {
      await new Promise<void>((done) => out.once('drain', () => done()));
    }
    n++;
  }
  await new Promise<void>((done, fail) => out.end(() => done()).on('error', fail));
  return n;
}

export function readSnapshot(path: string): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '') continue;
    const [file, lineNo, datasetVersion, sourceText] = JSON.parse(line) as [string, number, string, string];
    const record = (JSON.parse(sourceText) as { record: ErrorRecord }).record;
    entries.push({ record, sourceText, datasetVersion, origin: { file, line: lineNo } });
  }
  return entries;
}
