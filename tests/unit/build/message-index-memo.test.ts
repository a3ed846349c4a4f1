import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { syntheticRecords } from '../../../bench/lib/synthetic.ts';
import { fileEveryRecord, keepItems, keptItems, readKeptItems, type FiledRecords } from '../../../src/build/message-index-memo.ts';
import { keepRaiseSites, ONE_BY_ONE, readKeptSites } from '../../../src/build/raise-site-memo.ts';
import { loadCatalog } from '../../../src/catalog/catalog.ts';
import { writeSnapshot } from '../../../src/catalog/snapshot.ts';
import { messageIndex } from '../../../src/search/message-index.ts';

type Line = { record: Record<string, unknown> & { id: string; repo: string; slug: string; documentation: string; errorMessage: string; messagePattern: string } };

const fixture = (name: string): string[] => readFileSync(join(import.meta.dirname, `../../fixtures/catalogs/${name}/records.jsonl`), 'utf8').trimEnd().split('\n');

/** Records whose excerpts show their functions, records with earlier wordings, and 3,000 synthetic ones. */
const start = (): Line[] => [...fixture('raise-sites'), ...fixture('history'), ...syntheticRecords({ count: 3000, seed: 7 })].map((l) => JSON.parse(l) as Line);

let builds = 0;
function snapshotOf(dir: string, lines: readonly Line[]): string {
  const catalogDir = join(dir, `build-${++builds}`);
  mkdirSync(catalogDir, { recursive: true });
  writeFileSync(join(catalogDir, 'records.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  const snapshot = join(catalogDir, 'snapshot.jsonl');
  const catalog = loadCatalog(catalogDir);
  expect(catalog.entries.length).toBe(lines.length);
  writeSnapshot(snapshot, catalog.entries);
  return snapshot;
}

const indexOf = (f: FiledRecords) => messageIndex(f.items, f.counts, f.rows.length);
const sorted = (m: Map<string, number>) => [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1));

it('keeps the message index items by record text: an edit reads its records, and the index is the one made from every record', () => {
  const dir = mkdtempSync(join(tmpdir(), 'errdex-index-items-'));
  const memo = { file: join(dir, 'cache', 'items.json'), code: 'code-1' };
  const sitesMemo = { file: join(dir, 'cache', 'raise-sites.json'), code: 'code-1' };
  let lines = start();

  // A first build: every record filed, and kept.
  expect(readKeptItems(memo)).toBeNull();
  const first = fileEveryRecord(snapshotOf(dir, lines), null);
  keepItems(memo, first.rows, first.counts);
  keepRaiseSites(sitesMemo, first.files, first.sites, null);

  /** Builds the edited lines from the memo, checks them against a build from nothing, keeps them, and says what was read. */
  const rebuild = (edited: Line[], keep = true): { read: number; remade: number } => {
    lines = edited;
    const snapshot = snapshotOf(dir, lines);
    const kept = readKeptSites(sitesMemo)!;
    const filed = keptItems(snapshot, readKeptItems(memo)!, kept)!;
    expect(filed).not.toBeNull();
    const scratch = fileEveryRecord(snapshot, null);
    expect(indexOf(filed)).toEqual(indexOf(scratch));
    expect(filed.rows).toEqual(scratch.rows);
    expect(filed.sites).toEqual(scratch.sites);
    expect(sorted(filed.counts.words)).toEqual(sorted(scratch.counts.words));
    expect(sorted(filed.counts.classes)).toEqual(sorted(scratch.counts.classes));
    if (keep) keepItems(memo, filed.rows, filed.counts);
    keepRaiseSites(sitesMemo, filed.files, filed.sites, kept);
    return { read: filed.read, remade: filed.remade };
  };
  const edit = (i: number, change: (r: Line['record']) => void): Line[] =>
    lines.map((l, n) => {
      if (n !== i) return l;
      const copy = structuredClone(l);
      change(copy.record);
      return copy;
    });
  const synthetic = (n: number) => 9 + n;

  // Nothing changed: nothing read.
  expect(rebuild(lines)).toEqual({ read: 0, remade: 0 });
  // A record's documentation (its summary): that record read.
  expect(rebuild(edit(synthetic(10), (r) => (r.documentation = `Edited. ${r.documentation}`)))).toEqual({ read: 1, remade: 0 });
  // A record with earlier wordings: its items (one per wording) made again.
  expect(rebuild(edit(5, (r) => (r.documentation = `Edited. ${r.documentation}`)))).toEqual({ read: 1, remade: 0 });
  // A record's excerpt gains a definition above its raise line: its raise site's scope changes.
  const scoped = edit(0, (r) => {
    const code = (r.sourceCode as string).split('\n');
    code.splice((r.lineNumber as number) - (r.sourceCodeStart as number), 0, 'function editedHere(source) {');
    r.sourceCode = code.join('\n');
    r.sourceCodeStart = (r.sourceCodeStart as number) - 1;
  });
  expect(rebuild(scoped).read).toBe(1);
  // A record's message becomes another record's of its repository: both now have a message page, and
  // the keys of every item sharing a key whose count changed are chosen again.
  const target = lines.findIndex((l, n) => n > synthetic(0) && l.record.repo === lines[synthetic(20)]!.record.repo && n !== synthetic(20));
  const same = edit(synthetic(20), (r) => {
    r.errorMessage = lines[target]!.record.errorMessage;
    r.messagePattern = lines[target]!.record.messagePattern;
  });
  const moved = rebuild(same);
  expect(moved.read).toBe(1);
  expect(moved.remade).toBeGreaterThanOrEqual(1);
  // A record added, then one removed.
  const added = structuredClone(lines[synthetic(30)]!);
  added.record.id = 'added0000000001a';
  added.record.slug = `${added.record.slug}-added`;
  expect(rebuild([...lines, added]).read).toBe(1);
  expect(rebuild(lines.filter((_, n) => n !== synthetic(40)))).toEqual({ read: 0, remade: expect.any(Number) });

  // A memo not written again after an edit (memoBehind): the next edit reads what it does not hold too.
  expect(rebuild(edit(synthetic(50), (r) => (r.documentation = `Edited. ${r.documentation}`)), false)).toEqual({ read: 1, remade: 0 });
  const before = lines[synthetic(60)]!.record.repo;
  expect(rebuild(edit(synthetic(60), (r) => (r.errorMessage = r.messagePattern = `${r.errorMessage.replace(/[^a-z ]/gi, '')} again`)), false).read).toBe(2);
  expect(before).toBe(lines[synthetic(60)]!.record.repo);
  expect(rebuild(lines).read).toBe(2);

  // More records changed than ONE_BY_ONE: not taken from the memo (the caller files every record).
  const many = lines.map((l, n) => (n < ONE_BY_ONE + 1 ? { ...l, record: { ...l.record, documentation: `Again. ${l.record.documentation}` } } : l));
  expect(keptItems(snapshotOf(dir, many), readKeptItems(memo)!, readKeptSites(sitesMemo)!)).toBeNull();
  // Another code's memo is not taken.
  expect(readKeptItems({ ...memo, code: 'code-2' })).toBeNull();
});
