/**
 * The message index's raise sites (src/search/raise-site.ts), kept in the build cache from one build to
 * the next, per source file. A record's raise site is read from the excerpts of every record of its file
 * put together, so a file's sites are kept under the hash of its records' ids and texts in the
 * snapshot's order (`fileKey`), and a build reads whole only the records of files whose records
 * changed: after an edit, those of one file, not the whole snapshot (the code of every record).
 *
 * Reading few records whole beside the lean entries costs no memory to speak of; reading many does
 * (their code), so past `ONE_BY_ONE` records, and when nothing is kept, the sites are read as before the
 * memo: in one pass over the snapshot that holds only the excerpts, before the lean entries are read.
 */
import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { textKey, type CatalogEntry } from '../catalog/entry.ts';
import { entryAt, forEachSnapshotEntry, type EntryPlace } from '../catalog/snapshot.ts';
import type { ErrorRecord } from '../schema/record.ts';
import { raiseSites, type RaiseSite, type SiteFields } from '../search/raise-site.ts';
import { replaceFile } from '../util/files.ts';

/** The scopes of each source file's records (in snapshot order), by `fileKey`. */
export type KeptSites = Record<string, (string | null)[]>;

/** What the memo file holds: the code's key, and the kept scopes. */
interface Memo {
  code: string;
  files: KeptSites;
}

/** Up to this many records are read whole beside the lean entries, each from its line. */
export const ONE_BY_ONE = 2000;

const siteFields = ({ record: r }: CatalogEntry): SiteFields => ({ repo: r.repo, filePath: r.filePath, lineNumber: r.lineNumber, sourceCode: r.sourceCode, sourceCodeStart: r.sourceCodeStart });

/** The scopes a build of this code kept (the memo `memo.file`), or null: none, another code's, or unreadable. */
export function readKeptSites(memo: { file: string; code: string } | null): KeptSites | null {
  if (!memo) return null;
  try {
    const read = JSON.parse(readFileSync(memo.file, 'utf8')) as Memo;
    return read.code === memo.code ? read.files : null;
  } catch {
    return null;
  }
}

/** Each record's raise site, from every record of the snapshot read whole in one pass that holds only their excerpts. */
export function snapshotRaiseSites(snapshot: string): RaiseSite[] {
  const excerpts: SiteFields[] = [];
  forEachSnapshotEntry(snapshot, (e) => excerpts.push(siteFields(e)), { text: false, prose: false });
  return raiseSites(excerpts);
}

/** What the memo reads of an entry of the lean snapshot: where its record is raised, its text's key, and its line in the snapshot. */
export type SiteEntry = Pick<CatalogEntry, 'textKey' | 'sourceText'> & Pick<EntryPlace, 'snapshotLine'> & { record: Pick<ErrorRecord, 'id' | 'repo' | 'filePath' | 'lineNumber'> };

/** Entries' indexes by source file (`sourceFiles`). */
export type SourceFiles = { key: string; indexes: number[] }[];

/** The entries' indexes by source file, in snapshot order, each file with the key of what its sites are read from: taken once, for `keptRaiseSites` and `keepRaiseSites`. */
export function sourceFiles(entries: readonly SiteEntry[]): SourceFiles {
  const files = new Map<string, number[]>();
  for (let i = 0; i < entries.length; i++) {
    const r = entries[i]!.record;
    const file = `${r.repo}\0${r.filePath}`;
    const of = files.get(file);
    if (of) of.push(i);
    else files.set(file, [i]);
  }
  return [...files.values()].map((indexes) => ({ key: hash('sha1', indexes.map((i) => `${entries[i]!.record.id}\0${textKey(entries[i]!)}`).join('\0')), indexes }));
}

/**
 * The raise site of each of `entries` (the snapshot's lean entries, in its order), as `raiseSites` gives
 * them from every record whole: those of the files whose records are as `kept` has them taken from it,
 * the others' records read whole, each from its line. Null when that is more than `ONE_BY_ONE` records
 * (read them with `snapshotRaiseSites`, before the lean entries). `read`: how many records were read.
 */
export function keptRaiseSites(snapshot: string, entries: readonly SiteEntry[], files: SourceFiles, kept: KeptSites): { sites: RaiseSite[]; read: number } | null {
  const unknown = files.filter(({ key, indexes }) => kept[key]?.length !== indexes.length);
  const read = unknown.reduce((n, u) => n + u.indexes.length, 0);
  if (read > ONE_BY_ONE) return null;
  const sites = new Array<RaiseSite>(entries.length);
  for (const { key, indexes } of files) {
    const scopes = kept[key];
    if (scopes?.length !== indexes.length) continue;
    indexes.forEach((i, n) => {
      const r = entries[i]!.record;
      sites[i] = { file: r.filePath, line: r.lineNumber, scope: scopes[n]! };
    });
  }
  for (const { indexes } of unknown) {
    const found = raiseSites(indexes.map((i) => siteFields(entryAt(snapshot, { id: entries[i]!.record.id, snapshotLine: entries[i]!.snapshotLine }))));
    indexes.forEach((i, n) => (sites[i] = found[n]!));
  }
  return { sites, read };
}

/**
 * Keeps the entries' sites (`sites[i]` of `entries[i]`, grouped as `files`) for the next build of the same code; not written
 * when `kept` (what the memo holds now) has them all already. Renamed into place, not flushed to disk: a
 * memo torn by a crash does not parse, and every site is read again.
 */
export function keepRaiseSites(memo: { file: string; code: string }, files: SourceFiles, sites: readonly RaiseSite[], kept: KeptSites | null): void {
  const scopes: KeptSites = {};
  let same = kept !== null;
  for (const { key, indexes } of files) {
    scopes[key] = indexes.map((i) => sites[i]!.scope);
    if (same && kept![key]?.length !== indexes.length) same = false;
  }
  if (same && Object.keys(kept!).length === files.length) return;
  replaceFile(memo.file, JSON.stringify({ code: memo.code, files: scopes } satisfies Memo));
}
