/**
 * The snapshot in pieces (src/catalog/snapshot.ts) and the build cache's store of them
 * (src/build/snapshot-pieces.ts): an edit writes only the pieces its records are in, and what a build
 * reads is the same entries, taken or written.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../../src/catalog/entry.ts';
import { leanSnapshotEntries, readSnapshot, snapshotPieces, wholeEntry, writeSnapshot } from '../../../src/catalog/snapshot.ts';
import { snapshotPieceStore } from '../../../src/build/snapshot-pieces.ts';
import { rowKey } from '../../../src/catalog/row-key.ts';

const tempDir = () => mkdtempSync(join(tmpdir(), 'errdex-snapshot-pieces-'));

function entry(i: number, documentation = `d ${i}`): CatalogEntry {
  const record = { id: `id-${i}`, sourceCode: `code ${i}`, documentation, backgroundTag: null };
  return { record, sourceText: JSON.stringify({ record }), datasetVersion: 'v1', origin: { file: 'a.jsonl', line: i + 1 } } as unknown as CatalogEntry;
}

const ENTRIES = Array.from({ length: 20_000 }, (_, i) => entry(i));

/** Each build's snapshot folder is new; the cache's store is the same folder. */
function build(cache: string, entries: readonly CatalogEntry[], code = 'code-1') {
  const file = join(tempDir(), 'catalog.jsonl');
  const store = snapshotPieceStore(cache, code);
  writeSnapshot(file, entries, store);
  store.save();
  return { file, taken: store.taken, written: store.written };
}

describe('the snapshot in pieces', () => {
  it('is read back whole across its pieces, an entry read whole from its own piece', () => {
    const file = join(tempDir(), 'catalog.jsonl');
    expect(writeSnapshot(file, ENTRIES)).toBe(ENTRIES.length);
    expect(snapshotPieces(file).length).toBeGreaterThan(2);
    expect(readSnapshot(file)).toEqual(ENTRIES);
    const lean = [...leanSnapshotEntries(file)];
    expect(lean.map((e) => e.record.id)).toEqual(ENTRIES.map((e) => e.record.id));
    expect(new Set(lean.map((e) => e.snapshotLine!.piece)).size).toBe(snapshotPieces(file).length);
    for (const i of [0, 4_321, 12_000, ENTRIES.length - 1]) expect(wholeEntry(file, lean[i]!)).toEqual(ENTRIES[i]);
    // Each record's row key comes with it, made when its piece was written: the key made from the record itself.
    for (const i of [0, 4_321, ENTRIES.length - 1]) expect(rowKey(lean[i]!.record)).toBe(rowKey(JSON.parse(JSON.stringify(lean[i]!.record))));
    expect(rowKey(lean[1]!.record)).not.toBe(rowKey(lean[2]!.record));
  });

  it('ends its pieces by the ids alone: an edit changes one piece, a record added or removed one or two', () => {
    const names = (entries: readonly CatalogEntry[]) => {
      const file = join(tempDir(), 'catalog.jsonl');
      writeSnapshot(file, entries);
      return readFileSync(file, 'utf8').split('\n').filter(Boolean);
    };
    const before = names(ENTRIES);
    const changed = (after: string[]) => after.filter((n) => !before.includes(n)).length;
    expect(changed(names(ENTRIES.map((e, i) => (i === 7_000 ? entry(i, 'edited') : e))))).toBe(1);
    expect(changed(names([...ENTRIES.slice(0, 9_000), entry(99_999), ...ENTRIES.slice(9_000)]))).toBeLessThanOrEqual(2);
    expect(changed(names(ENTRIES.filter((_, i) => i !== 15_000)))).toBeLessThanOrEqual(2);
  });
});

describe("the build cache's snapshot pieces", () => {
  it('are taken by the next build of the same code, only the edited piece written, the same bytes read', () => {
    const cache = tempDir();
    const first = build(cache, ENTRIES);
    expect(first.taken).toBe(0);
    const pieces = first.written;
    expect(pieces).toBeGreaterThan(2);

    const same = build(cache, ENTRIES);
    expect([same.taken, same.written]).toEqual([pieces, 0]);
    expect(readFileSync(same.file, 'utf8')).toBe(readFileSync(first.file, 'utf8'));

    const edited = ENTRIES.map((e, i) => (i === 7_000 ? entry(i, 'edited') : e));
    const edit = build(cache, edited);
    expect([edit.taken, edit.written]).toEqual([pieces - 1, 1]);
    expect(readSnapshot(edit.file)).toEqual(edited);
    expect([...leanSnapshotEntries(edit.file, { documentation: true })].map((e) => e.record.documentation)).toEqual(edited.map((e) => e.record.documentation));
    // The piece no longer used is gone from the cache: two files per piece and the list of proofs.
    expect(readdirSync(cache)).toHaveLength(2 * pieces + 1);
  });

  it('are not trusted once changed, nor by another code', () => {
    const cache = tempDir();
    const { written } = build(cache, ENTRIES);
    // A kept piece written over in place (its identity changes): written again, never read.
    const kept = readdirSync(cache).find((n) => n.endsWith('-lean.jsonl'))!;
    rmSync(join(cache, kept));
    writeFileSync(join(cache, kept), 'not a piece\n');
    const after = build(cache, ENTRIES);
    expect([after.taken, after.written]).toEqual([written - 1, 1]);
    expect(readSnapshot(after.file)).toEqual(ENTRIES);
    expect([...leanSnapshotEntries(after.file)]).toHaveLength(ENTRIES.length);

    const other = build(cache, ENTRIES, 'code-2');
    expect([other.taken, other.written]).toEqual([0, written]);
  });
});
