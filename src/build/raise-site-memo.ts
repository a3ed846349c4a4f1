/**
 * The message index's raise sites (src/search/raise-site.ts), kept in the build cache from one build to
 * the next, per source file. A record's raise site is read from the excerpts of every record of its file
 * put together, so a file's sites are kept under the hash of its records' ids and texts in the
 * snapshot's order (`fileKey`), and a build reads whole only the records of the files whose records
 * changed: after an edit, those of one file, not the whole snapshot (the code of every record).
 */
import { hash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { textKey, type CatalogEntry } from '../catalog/entry.ts';
import { forEachSnapshotEntry, wholeEntry } from '../catalog/snapshot.ts';
import { raiseSites, type RaiseSite, type SiteFields } from '../search/raise-site.ts';
import { tempFileFor } from '../util/files.ts';

/** What the memo file holds: the code's key, and the scopes of each file's records (in snapshot order) by `fileKey`. */
interface Memo {
  code: string;
  files: Record<string, (string | null)[]>;
}

/** Up to this many records to read whole, each is read from its line; more, in one pass over the snapshot. */
const ONE_BY_ONE = 2000;

const siteFields = ({ record: r }: CatalogEntry): SiteFields => ({ repo: r.repo, filePath: r.filePath, lineNumber: r.lineNumber, sourceCode: r.sourceCode, sourceCodeStart: r.sourceCodeStart });

function readMemo(memo: { file: string; code: string } | null): Memo['files'] {
  if (!memo) return {};
  try {
    const read = JSON.parse(readFileSync(memo.file, 'utf8')) as Memo;
    return read.code === memo.code ? read.files : {};
  } catch {
    return {};
  }
}

/**
 * The raise site of each of `entries` (the snapshot's lean entries, in its order), as `raiseSites` gives
 * them from every record whole; those of the files whose records are as the memo (the build cache's
 * file, of this code) has them are taken from it, the others read. The memo is written again when it
 * changed. `read`: how many records were read whole.
 */
export function memoRaiseSites(snapshot: string, entries: readonly CatalogEntry[], memo: { file: string; code: string } | null): { sites: RaiseSite[]; read: number } {
  // Each source file's records, in snapshot order, and the key of what their sites are read from.
  const files = new Map<string, number[]>();
  for (let i = 0; i < entries.length; i++) {
    const r = entries[i]!.record;
    const file = `${r.repo}\0${r.filePath}`;
    const of = files.get(file);
    if (of) of.push(i);
    else files.set(file, [i]);
  }
  const keyOf = (indexes: readonly number[]) => hash('sha1', indexes.map((i) => `${entries[i]!.record.id}\0${textKey(entries[i]!)}`).join('\0'));
  const kept = readMemo(memo);
  const next: Memo['files'] = {};
  const sites = new Array<RaiseSite>(entries.length);
  const unknown: { key: string; indexes: number[] }[] = [];
  for (const indexes of files.values()) {
    const key = keyOf(indexes);
    const scopes = kept[key];
    if (scopes?.length !== indexes.length) {
      unknown.push({ key, indexes });
      continue;
    }
    next[key] = scopes;
    indexes.forEach((i, n) => {
      const r = entries[i]!.record;
      sites[i] = { file: r.filePath, line: r.lineNumber, scope: scopes[n]! };
    });
  }
  // The records of the other files, read whole: each from its line when few, else in one pass.
  const wanted = unknown.flatMap((u) => u.indexes);
  const whole = new Map<string, SiteFields>();
  if (wanted.length <= ONE_BY_ONE) for (const i of wanted) whole.set(entries[i]!.record.id, siteFields(wholeEntry(snapshot, entries[i]!)));
  else {
    const ids = new Set(wanted.map((i) => entries[i]!.record.id));
    forEachSnapshotEntry(snapshot, (e) => whole.set(e.record.id, siteFields(e)), { entry: (id) => ids.has(id), text: false, prose: false });
  }
  for (const { key, indexes } of unknown) {
    const read = raiseSites(indexes.map((i) => whole.get(entries[i]!.record.id)!));
    indexes.forEach((i, n) => (sites[i] = read[n]!));
    next[key] = read.map((s) => s.scope);
  }
  if (memo && (unknown.length > 0 || Object.keys(kept).length !== files.size)) writeMemo(memo.file, { code: memo.code, files: next });
  return { sites, read: wanted.length };
}

/** Renamed into place, not flushed to disk: a memo torn by a crash does not parse, and every site is read again. */
function writeMemo(file: string, memo: Memo): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = tempFileFor(file);
  writeFileSync(temp, JSON.stringify(memo));
  renameSync(temp, file);
}
