/**
 * The message index's items (src/search/message-index.ts: each record's entry per wording, and the keys
 * it is filed under) kept in the build cache from one build to the next of the same code, by each
 * record's text hash, with the key counts they were chosen by. The index is a function of every
 * record (keys are chosen by how many templates share them, raise sites by the records of a file,
 * message pages by the records of a message), so an edit remakes what its change reaches, not what a
 * record alone would: the records whose text changed are read and their items made; a kept record's
 * entry is made again when its raise site or message page changed, and its keys chosen again when a
 * count they were chosen by changed. The rest is taken as kept, without parsing its record: the index
 * made from them is the one a build from nothing makes (tests/unit/build/message-index-memo.test.ts).
 *
 * Past `ONE_BY_ONE` changed records, or with no raise sites kept, the index is made from every record.
 */
import { readFileSync } from 'node:fs';
import type { CatalogEntry } from '../catalog/entry.ts';
import { messagePath } from '../catalog/derive/message-groups.ts';
import { leanSnapshotEntries, leanSnapshotTextKeys } from '../catalog/snapshot.ts';
import { dropProse } from '../catalog/record-fields.ts';
import type { ErrorRecord } from '../schema/record.ts';
import { countKeys, fileRecords, fromTuple, itemKeys, messagePages, recordItems, summaryOf, toTuple, type EntryTuple, type FiledItem, type KeyCounts, type MessageIndexOptions } from '../search/message-index.ts';
import { templateKeys } from '../search/keys.ts';
import type { RaiseSite } from '../search/raise-site.ts';
import { replaceFile } from '../util/files.ts';
import { memoLags } from './memo-lag.ts';
import { keptRaiseSites, ONE_BY_ONE, snapshotRaiseSites, sourceFiles, type KeptSites, type SiteEntry, type SourceFiles } from './raise-site-memo.ts';

/** What the index reads of a record beside its items, and its items as filed (the current wording's first). */
export type KeptRow = [
  text: string,
  id: string,
  repo: string,
  slug: string,
  filePath: string,
  line: ErrorRecord['lineNumber'],
  message: string,
  scope: string | null,
  page: string | null,
  items: [template: string, entry: string, classKey: string | null, keys: string[]][],
];

/** The memo file: the code's key, the key counts, and a row per record in snapshot order. */
interface Memo {
  code: string;
  words: [string, number][];
  classes: [string, number][];
  rows: readonly KeptRow[];
}

/** What the index is made from, and what the next build keeps of it. */
export interface FiledRecords {
  items: FiledItem[];
  counts: KeyCounts;
  rows: KeptRow[];
  /** Each record's raise site, and the records by source file: for the raise sites' memo (src/build/raise-site-memo.ts). */
  sites: RaiseSite[];
  files: SourceFiles;
  /** Records whose items were made (their text new or changed), and kept ones whose entry or keys were made again. */
  read: number;
  remade: number;
}

/** Whether to write the memo again: none was kept (`kept` null), or it lags the records filed (`filed`: records read or filed again, and records gone). */
export const memoBehind = (kept: Memo | null, filed: FiledRecords | null): boolean =>
  !kept || !filed || memoLags(filed.read + filed.remade + Math.abs(filed.rows.length - kept.rows.length));

/** The memo of this code (`memo.file`), or null: none, another code's, or unreadable. */
export function readKeptItems(memo: { file: string; code: string } | null): Memo | null {
  if (!memo) return null;
  try {
    const read = JSON.parse(readFileSync(memo.file, 'utf8')) as Memo;
    return read.code === memo.code ? read : null;
  } catch {
    return null;
  }
}

/**
 * The index's items made from every record of the lean snapshot at `snapshot`, the raise sites from
 * `kept` (what the raise sites' memo holds) or, with none kept or too many to read one by one, read
 * first, in a pass that holds only the excerpts, so that the lean records, read next, are held without
 * their code.
 */
export function fileEveryRecord(snapshot: string, kept: KeptSites | null): FiledRecords {
  let sites = kept ? null : snapshotRaiseSites(snapshot);
  const entries: (CatalogEntry & SiteEntry)[] = [];
  const summaries: string[] = [];
  const readEntries = () => {
    // Without their documentation once the summary a result shows is taken.
    for (const e of leanSnapshotEntries(snapshot, { documentation: true })) {
      summaries.push(summaryOf(e.record));
      dropProse(e.record);
      entries.push(e);
    }
  };
  readEntries();
  let files = sourceFiles(entries);
  sites ??= keptRaiseSites(snapshot, entries, files, kept!)?.sites ?? null;
  if (!sites) {
    entries.length = 0;
    summaries.length = 0;
    sites = snapshotRaiseSites(snapshot);
    readEntries();
    files = sourceFiles(entries);
  }
  const { items, counts } = fileRecords(
    entries.map((e) => e.record),
    { messagePage: messagePath, sites, summaries },
  );
  return { items, counts, rows: rowsOf(entries, items, sites), sites, files, read: entries.length, remade: 0 };
}

/** The rows of records filed from scratch: `entries` and the `items` `fileRecords` made of their records, `sites` theirs. */
function rowsOf(entries: readonly CatalogEntry[], items: readonly FiledItem[], sites: readonly RaiseSite[]): KeptRow[] {
  const pageOf = messagePages(
    entries.map((e) => e.record),
    messagePath,
  );
  let next = 0;
  return entries.map((e, i) => {
    const r = e.record;
    const first = next;
    while (next < items.length && items[next]!.id === r.id) next++;
    return rowOf(e.textKey!, r, sites[i]!.scope, pageOf(r), items.slice(first, next));
  });
}

/** A record's row: its text's key, what the index reads of it, its raise site's scope and message page, and its items as filed. */
function rowOf(text: string, r: ErrorRecord, scope: string | null, page: string | null, items: readonly FiledItem[]): KeptRow {
  return [text, r.id, r.repo, r.slug, r.filePath, r.lineNumber, r.errorMessage, scope, page, items.map((m) => [m.template, m.entry, m.classKey, m.keys])];
}

/** Keeps the rows and counts for the next build of this code, renamed into place (a torn memo does not parse, and the index is made from scratch). */
export function keepItems(memo: { file: string; code: string }, rows: readonly KeptRow[], counts: KeyCounts): void {
  replaceFile(memo.file, JSON.stringify({ code: memo.code, words: [...counts.words], classes: [...counts.classes], rows } satisfies Memo));
}

/** An entry's tuple with another raise-site scope and message page. */
function withPlace(entry: string, scope: string | null, page: string | null): string {
  return JSON.stringify(toTuple({ ...fromTuple(JSON.parse(entry) as EntryTuple), scope, messagePage: page }));
}

/**
 * The index's items from the memo `kept`: the records whose text it does not hold read from the lean
 * snapshot at `snapshot`, the raise sites from `sites` (what the raise sites' memo holds). Null when
 * more than `ONE_BY_ONE` records' items or sites would be read: made from scratch then.
 */
export function keptItems(snapshot: string, kept: Memo, sites: KeptSites, options: MessageIndexOptions = {}): FiledRecords | null {
  const byText = new Map(kept.rows.map((row) => [row[0], row]));
  // Each record as kept, or read (without its code and other prose once its summary is taken).
  const now: ({ row: KeptRow; read?: undefined } | { read: { record: ErrorRecord; summary: string }; row?: undefined })[] = [];
  const entries: SiteEntry[] = [];
  let read = 0;
  for (const [text, record, place] of leanSnapshotTextKeys(snapshot, { documentation: true })) {
    const row = byText.get(text);
    let r: SiteEntry['record'];
    if (row) {
      byText.delete(text);
      now.push({ row });
      r = { id: row[1], repo: row[2], filePath: row[4], lineNumber: row[5] };
    } else {
      if (++read > ONE_BY_ONE) return null;
      const whole = record();
      const summary = summaryOf(whole);
      dropProse(whole);
      now.push({ read: { record: whole, summary } });
      r = whole;
    }
    entries.push({ record: r, sourceText: '', textKey: text, snapshotLine: place.snapshotLine });
  }
  const files = sourceFiles(entries);
  const found = keptRaiseSites(snapshot, entries, files, sites);
  if (!found) return null;
  const pageOf = messagePages(
    now.map((n) => (n.row ? { repo: n.row[2], errorMessage: n.row[6] } : n.read.record)),
    messagePath,
  );

  // The counts without the records gone (removed, or changed: their text is new) and with those read:
  // the kept ones changed by what each key lost and gained. A kept item with a key whose count changed
  // has its keys chosen again.
  const keysOf = new Map<string, string[]>();
  const keys = (template: string): string[] => {
    let k = keysOf.get(template);
    if (!k) keysOf.set(template, (k = templateKeys(template)));
    return k;
  };
  const delta: KeyCounts = { words: new Map(), classes: new Map() };
  for (const gone of byText.values()) for (const [template, , classKey] of gone[9]) countKeys(delta, keys(template), classKey, -1);
  const made = now.map((n, i) => (n.read ? recordItems(n.read.record, found.sites[i]!, pageOf(n.read.record), n.read.summary) : null));
  for (const items of made) for (const item of items ?? []) countKeys(delta, keys(item.template), item.classKey);
  const counts: KeyCounts = { words: new Map(kept.words), classes: new Map(kept.classes) };
  const changed = { words: new Set<string>(), classes: new Set<string>() };
  for (const name of ['words', 'classes'] as const) {
    for (const [k, by] of delta[name]) {
      if (by === 0) continue;
      changed[name].add(k);
      const n = (counts[name].get(k) ?? 0) + by;
      if (n === 0) counts[name].delete(k);
      else counts[name].set(k, n);
    }
  }

  const items: FiledItem[] = [];
  const rows: KeptRow[] = [];
  let remade = 0;
  now.forEach((n, i) => {
    const site = found.sites[i]!;
    if (n.read) {
      const r = n.read.record;
      const mine = made[i]!.map((item) => ({ ...item, keys: itemKeys(keys(item.template), item.classKey, counts, options) }));
      items.push(...mine);
      rows.push(rowOf(entries[i]!.textKey!, r, site.scope, pageOf(r), mine));
      return;
    }
    const row = n.row;
    const page = pageOf({ repo: row[2], errorMessage: row[6] });
    const moved = site.scope !== row[7] || page !== row[8];
    let again = moved;
    const mine = row[9].map(([template, entry, classKey, filed], w): KeptRow[9][number] => {
      // The current wording (the first) shows the message page; an earlier one none.
      const e = moved ? withPlace(entry, site.scope, w === 0 ? page : null) : entry;
      const choose = (classKey !== null && changed.classes.has(classKey)) || (changed.words.size > 0 && keys(template).some((k) => changed.words.has(k)));
      if (choose) again = true;
      return [template, e, classKey, choose ? itemKeys(keys(template), classKey, counts, options) : filed];
    });
    if (again) remade++;
    for (const [template, entry, classKey, filed] of mine) items.push({ id: row[1], template, entry, classKey, keys: filed });
    rows.push(again ? [row[0], row[1], row[2], row[3], row[4], row[5], row[6], site.scope, page, mine] : row);
  });
  return { items, counts, rows, sites: found.sites, files, read, remade };
}
