/**
 * The full-text index in parts (src/build/search-index.ts): how many, which record goes where, and
 * a rebuild linking the parts whose documents are unchanged from the published site.
 */
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PAGEFIND_PARTS_FILE, pagefindPartCount, pagefindPartOf, writePagefindIndex } from '../../../src/build/search-index.ts';
import { listFilesBelow } from '../../../src/util/files.ts';
import { syntheticRecords } from '../../../bench/lib/synthetic.ts';
import type { ErrorRecord } from '../../../src/schema/record.ts';

// Parts of at most 3 records (the ERRDEX_PAGEFIND_PART_RECORDS setting), so that 12 records make several.
const PARTS = { partRecords: 3 };

const records = (): ErrorRecord[] => [...syntheticRecords({ count: 12, seed: 7 })].map((l) => (JSON.parse(l) as { record: ErrorRecord }).record);
const tempSite = (): string => mkdtempSync(join(tmpdir(), 'errdex-pf-parts-'));
const inode = (path: string): number => statSync(path).ino;

describe('full-text index parts', () => {
  it('splits a catalog in parts of at most 25,000 records, and in at least 4 from 10,000 records', () => {
    const count = (records: number) => pagefindPartCount(records, 25_000);
    expect([0, 1, 2_499, 4_999].map(count)).toEqual([1, 1, 1, 1]);
    expect([5_000, 7_500, 9_999].map(count)).toEqual([2, 3, 3]);
    expect([10_000, 25_000, 100_000].map(count)).toEqual([4, 4, 4]);
    expect([100_001, 300_000].map(count)).toEqual([5, 12]);
    // The setting sets the size: 3 here.
    expect([3, 4, 12].map((n) => pagefindPartCount(n, 3))).toEqual([1, 2, 4]);
  });

  it('deals each record to a part by its id alone, evenly', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => `${(i * 2654435761) % 4294967296}`.padStart(16, '0'));
    const counts = [0, 0, 0, 0];
    for (const id of ids) counts[pagefindPartOf(id, 4)]!++;
    for (const c of counts) expect(Math.abs(c - 2500)).toBeLessThan(250);
    expect(ids.map((id) => pagefindPartOf(id, 4))).toEqual(ids.map((id) => pagefindPartOf(id, 4)));
    expect(ids.every((id) => pagefindPartOf(id, 7) < 7)).toBe(true);
  });

  it('links the parts whose documents are unchanged from the published site, and indexes the others again', async () => {
    const all = records();
    const published = tempSite();
    const first = await writePagefindIndex(all, published, undefined, PARTS);
    expect(first.parts).toBe(4);
    expect(first.reused).toBe(0);
    expect(first.files).toBe(all.length);
    const listed = (JSON.parse(readFileSync(join(published, 'pagefind', PAGEFIND_PARTS_FILE), 'utf8')) as { parts: string[] }).parts;
    const partPaths = ['pagefind/', ...listed.map((p) => `pagefind/${p}`)];
    expect(Object.keys(first.keys).sort()).toEqual(partPaths.sort());

    // The same records: every part is linked, none indexed.
    const same = tempSite();
    const again = await writePagefindIndex(all, same, undefined, { ...PARTS, previous: { site: published, keys: first.keys } });
    expect(again.reused).toBe(partPaths.length);
    expect(again.keys).toEqual(first.keys);
    expect(listFilesBelow(join(same, 'pagefind'))).toEqual(listFilesBelow(join(published, 'pagefind')));
    for (const f of listFilesBelow(join(same, 'pagefind')).filter((f) => f !== PAGEFIND_PARTS_FILE)) {
      expect(inode(join(same, 'pagefind', f)), f).toBe(inode(join(published, 'pagefind', f)));
    }

    // One record edited: its part alone is indexed again.
    const edited = records();
    const changed = edited[5]!;
    changed.documentation += ' Edited.';
    const changedPart = `pagefind/${pagefindPartOf(changed.id, first.parts) === 0 ? '' : `part-${pagefindPartOf(changed.id, first.parts)}/`}`;
    const next = tempSite();
    const rebuilt = await writePagefindIndex(edited, next, undefined, { ...PARTS, previous: { site: published, keys: first.keys } });
    expect(rebuilt.reused).toBe(partPaths.length - 1);
    for (const path of partPaths) {
      expect(rebuilt.keys[path] === first.keys[path], path).toBe(path !== changedPart);
      const entry = join(next, path, 'pagefind-entry.json');
      expect(existsSync(entry), path).toBe(true);
      expect(inode(entry) === inode(join(published, path, 'pagefind-entry.json')), path).toBe(path !== changedPart);
    }
    expect(rebuilt.files).toBe(all.length);
    // The edit is in the new part's fragment of that page.
    const fragments = listFilesBelow(join(next, changedPart, 'fragment')).map((f) => gunzipSync(readFileSync(join(next, changedPart, 'fragment', f))).toString('utf8'));
    expect(fragments.filter((f) => f.includes('Edited.'))).toHaveLength(1);

    // Keys from another site layout are not trusted: nothing is linked when the folder lacks the part.
    const elsewhere = tempSite();
    const none = await writePagefindIndex(all, elsewhere, undefined, { ...PARTS, previous: { site: tempSite(), keys: first.keys } });
    expect(none.reused).toBe(0);
  }, 60_000);

  it('bounds --max-fragments over all parts together', async () => {
    const all = records();
    await expect(writePagefindIndex(all, tempSite(), undefined, { ...PARTS, maxFragments: 3 })).rejects.toThrow(/--max-fragments=3 is less than the 4 Pagefind indexes of 12 records: use at least 4/);
    const found = await writePagefindIndex(all, tempSite(), undefined, { ...PARTS, maxFragments: 4 });
    expect(found.files).toBeLessThanOrEqual(4);
  }, 60_000);
});
