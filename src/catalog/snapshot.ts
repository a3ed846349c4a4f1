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
import type { RelatedLink } from './derive/related.ts';

export function writeSnapshot(path: string, entries: Iterable<CatalogEntry>): Promise<number> {
  return writeLines(path, map(entries, (e) => JSON.stringify([e.origin.file, e.origin.line, e.datasetVersion, e.sourceText, e.record.id])));
}

/** The record fields that hold code: shown only on the record's own page. */
const CODE_FIELDS = ['sourceCode', 'exampleFix', 'validationCode', 'typeGuard', 'tryCatchPattern'] as const satisfies readonly (keyof ErrorRecord)[];

/** What a process reads of each entry; everything when not given. */
export interface SnapshotKeep {
  /**
   * Whether the entry's code fields are needed. A render process only shows the code of the records
   * whose pages it renders; the other records' code fields are left out (null) to save memory.
   */
  code?: (id: string) => boolean;
  /** Whether the entries' text (`sourceText`, the JSON twin) is needed; '' when not. */
  text?: boolean;
}

export function readSnapshot(path: string, keep: SnapshotKeep = {}): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  forEachLine(path, (line) => {
    const [file, lineNo, datasetVersion, sourceText, id] = JSON.parse(line) as [string, number, string, string, string];
    const record = (JSON.parse(sourceText) as { record: ErrorRecord }).record;
    if (keep.code && !keep.code(id)) for (const field of CODE_FIELDS) record[field] = null;
    entries.push({ record, sourceText: keep.text === false ? '' : sourceText, datasetVersion, origin: { file, line: lineNo } });
  });
  return entries;
}

/** The related errors of each snapshot entry, in snapshot order, one line each (src/catalog/derive/index.ts). */
export function writeRelated(path: string, links: readonly RelatedLink[][]): Promise<number> {
  return writeLines(path, map(links, (l) => JSON.stringify(l)));
}

export function readRelated(path: string): RelatedLink[][] {
  const links: RelatedLink[][] = [];
  forEachLine(path, (line) => links.push(JSON.parse(line) as RelatedLink[]));
  return links;
}

function* map<T>(items: Iterable<T>, f: (item: T) => string): Iterable<string> {
  for (const item of items) yield f(item);
}

async function writeLines(path: string, lines: Iterable<string>): Promise<number> {
  const out = createWriteStream(path);
  let n = 0;
  for (const line of lines) {
    if (!out.write(`${line}\n`)) await new Promise<void>((done) => out.once('drain', () => done()));
    n++;
  }
  await new Promise<void>((done, fail) => out.end(() => done()).on('error', fail));
  return n;
}

/** Read line by line from the bytes: a whole large file is longer than a JavaScript string may be. */
function forEachLine(path: string, f: (line: string) => void): void {
  const bytes = readFileSync(path);
  for (let start = 0; start < bytes.length; ) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    const line = bytes.toString('utf8', start, end);
    start = end + 1;
    if (line !== '') f(line);
  }
}
