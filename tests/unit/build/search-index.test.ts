/**
 * The full-text index in parts (src/build/search-index.ts): how many, which record goes where, and
 * a rebuild linking the parts whose documents are unchanged from the published site; and the message
 * index written again, linking its unchanged shards.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { idHash, inPart, MESSAGE_INDEX_DIR, PAGEFIND_PART_RECORDS, PAGEFIND_PARTS_FILE, pagefindPartOf, pagefindParts, writeMessageIndex, writePagefindIndex, type PagefindPart } from '../../../src/build/search-index.ts';
import { listFilesBelow } from '../../../src/util/files.ts';
import { syntheticRecords } from '../../../bench/lib/synthetic.ts';
import type { ErrorRecord } from '../../../src/schema/record.ts';
import { shardFile, type MessageIndexManifest } from '../../../src/search/message-index.ts';

// Parts of at most 3 records (the ERRDEX_PAGEFIND_PART_RECORDS setting), so that 12 records make several.
const PARTS = { partRecords: 3 };

const records = (count = 12): ErrorRecord[] => [...syntheticRecords({ count, seed: 7 })].map((l) => (JSON.parse(l) as { record: ErrorRecord }).record);
const tempSite = (): string => mkdtempSync(join(tmpdir(), 'errdex-pf-parts-'));
const inode = (path: string): number => statSync(path).ino;

describe('full-text index parts', () => {
  const ids = (n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `e${(from + i).toString(16).padStart(15, '0')}`);
  const sizes = (parts: readonly PagefindPart[]) => parts.map((p) => p.records);

  it('splits a catalog in parts of at most 16,000 records, and in at least 4 from about 8,000 records', () => {
    const count = (n: number) => pagefindParts(ids(n)).length;
    expect([0, 1, 3_999].map(count)).toEqual([1, 1, 1]);
    expect([10_000, 25_000, 50_000, 70_000, 100_000].map(count)).toEqual([4, 4, 4, 8, 8]);
    for (const n of [10_000, 100_000, 300_000]) {
      const parts = pagefindParts(ids(n));
      expect(sizes(parts).reduce((a, b) => a + b, 0), `${n}`).toBe(n);
      expect(Math.max(...sizes(parts)), `${n}`).toBeLessThanOrEqual(PAGEFIND_PART_RECORDS);
      // The parts' prefixes cover every hash once: no prefix begins another, and their shares add up to the whole.
      expect(parts.reduce((share, p) => share + 2 ** -p.prefix.length, 0), `${n}`).toBe(1);
      for (const a of parts) for (const b of parts) if (a !== b) expect(b.prefix.startsWith(a.prefix), `${a.prefix} ${b.prefix}`).toBe(false);
    }
    // 300,000 records fill 2^5 parts of about 9,400.
    expect(pagefindParts(ids(300_000)).length).toBeGreaterThanOrEqual(32);
    // The first part is at pagefind/ itself; the others are named by their prefix.
    const parts = pagefindParts(ids(10_000));
    expect(parts.map((p) => p.dir)).toEqual(['', 'part-01/', 'part-10/', 'part-11/']);
    // The setting sets the size: 3 here.
    expect(Math.max(...sizes(pagefindParts(ids(12), 3)))).toBeLessThanOrEqual(3);
  });

  it('deals each record to a part by its id alone, evenly', () => {
    const all = ids(10_000);
    const parts = pagefindParts(all);
    for (const c of sizes(parts)) expect(Math.abs(c - 2500)).toBeLessThan(250);
    for (const id of all) expect(inPart(idHash(id), pagefindPartOf(id, parts).prefix)).toBe(true);
    const reversed = pagefindParts([...all].reverse());
    expect(all.map((id) => pagefindPartOf(id, parts).prefix)).toEqual(all.map((id) => pagefindPartOf(id, reversed).prefix));
  });

  it('changes only the part of a record added or removed, even when that part splits or joins', () => {
    // Parts of at most 31 records: 2,000 records make about 64 parts of 31 on average, so some are
    // full and split when one record more falls in, and some parents hold 32 and join when one leaves.
    const CAP = 31;
    const before = ids(2_000);
    const parts = pagefindParts(before, CAP);
    const key = (p: PagefindPart) => `${p.prefix}:${p.records}`;
    let splits = 0;
    for (const added of ids(200, 10_000)) {
      const after = pagefindParts([...before, added], CAP);
      const gone = parts.filter((p) => !after.some((q) => key(q) === key(p)));
      const fresh = after.filter((q) => !parts.some((p) => key(p) === key(q)));
      expect(gone.map((p) => p.prefix), added).toEqual([pagefindPartOf(added, parts).prefix]);
      // The part it fell in, one record larger, or that part split in two.
      expect(fresh.every((q) => q.prefix.startsWith(gone[0]!.prefix)), added).toBe(true);
      if (fresh.length > 1) splits++;
    }
    expect(splits).toBeGreaterThan(0);
    let joins = 0;
    for (const removed of before.slice(0, 200)) {
      const after = pagefindParts(before.filter((id) => id !== removed), CAP);
      const gone = parts.filter((p) => !after.some((q) => key(q) === key(p)));
      expect(gone.length, removed).toBeLessThanOrEqual(2);
      expect(gone.some((p) => p.prefix === pagefindPartOf(removed, parts).prefix), removed).toBe(true);
      // A part that shrinks to its share joins its sibling: both go, their parent comes.
      if (gone.length === 2) {
        expect(gone[0]!.prefix.slice(0, -1)).toBe(gone[1]!.prefix.slice(0, -1));
        joins++;
      }
    }
    expect(joins).toBeGreaterThan(0);
  });

  it('links the parts whose documents are unchanged from the published site, and indexes the others again', async () => {
    const all = records();
    const published = tempSite();
    const first = await writePagefindIndex(all, published, undefined, PARTS);
    expect(first.parts).toBe(pagefindParts(all.map((r) => r.id), PARTS.partRecords).length);
    expect(first.parts).toBeGreaterThanOrEqual(4);
    expect(first.reused).toEqual([]);
    expect(first.files).toBe(all.length);
    const listed = (JSON.parse(readFileSync(join(published, 'pagefind', PAGEFIND_PARTS_FILE), 'utf8')) as { parts: string[] }).parts;
    const partPaths = ['pagefind/', ...listed.map((p) => `pagefind/${p}`)];
    expect(Object.keys(first.keys).sort()).toEqual(partPaths.sort());

    // The same records: every part is linked, none indexed.
    const same = tempSite();
    const again = await writePagefindIndex(all, same, undefined, { ...PARTS, previous: { site: published, keys: first.keys } });
    expect(again.reused).toHaveLength(partPaths.length);
    expect(again.keys).toEqual(first.keys);
    expect(listFilesBelow(join(same, 'pagefind'))).toEqual(listFilesBelow(join(published, 'pagefind')));
    for (const f of listFilesBelow(join(same, 'pagefind')).filter((f) => f !== PAGEFIND_PARTS_FILE)) {
      expect(inode(join(same, 'pagefind', f)), f).toBe(inode(join(published, 'pagefind', f)));
    }

    // Parts whose texts are unchanged are not parsed: the records of no part are asked for.
    const unparsed = {
      ids: () => all.map((r) => r.id),
      texts: () => all.map((r): [string, string] => [r.id, JSON.stringify(r)]),
      records: () => {
        throw new Error('an unchanged part was parsed');
      },
    };
    const linked = await writePagefindIndex(unparsed, tempSite(), undefined, { ...PARTS, previous: { site: published, keys: first.keys } });
    expect(linked.reused).toHaveLength(partPaths.length);

    // An edit its document does not show (an example fix): the part's texts changed, its documents
    // did not, and it is kept.
    const fixed = records();
    fixed[5]!.exampleFix = 'fixed = True';
    const kept = await writePagefindIndex(fixed, tempSite(), undefined, { ...PARTS, previous: { site: published, keys: first.keys } });
    expect(kept.reused).toHaveLength(partPaths.length);
    expect(Object.keys(kept.keys).filter((path) => kept.keys[path] !== first.keys[path])).toHaveLength(1);

    // One record edited: its part alone is indexed again.
    const edited = records();
    const changed = edited[5]!;
    changed.documentation += ' Edited.';
    const changedPart = `pagefind/${pagefindPartOf(changed.id, pagefindParts(all.map((r) => r.id), PARTS.partRecords)).dir}`;
    const next = tempSite();
    const rebuilt = await writePagefindIndex(edited, next, undefined, { ...PARTS, previous: { site: published, keys: first.keys } });
    expect(rebuilt.reused).toHaveLength(partPaths.length - 1);
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
    expect(none.reused).toEqual([]);
  }, 60_000);

  it('bounds --max-fragments over all parts together', async () => {
    const all = records();
    const n = pagefindParts(all.map((r) => r.id), PARTS.partRecords).length;
    await expect(writePagefindIndex(all, tempSite(), undefined, { ...PARTS, maxFragments: n - 1 })).rejects.toThrow(
      `--max-fragments=${n - 1} is less than the ${n} Pagefind indexes of 12 records: use at least ${n}.`,
    );
    const found = await writePagefindIndex(all, tempSite(), undefined, { ...PARTS, maxFragments: n });
    expect(found.files).toBeLessThanOrEqual(n);
  }, 60_000);
});

describe('the message index written again', () => {
  it('links each shard the published index holds byte for byte, under the folder it had', () => {
    const published = tempSite();
    const first = writeMessageIndex(records(), published, { maxShards: 4 });
    const changed = records();
    changed[0] = { ...changed[0]!, errorMessage: `${changed[0]!.errorMessage} and more`, messagePattern: `${changed[0]!.messagePattern} and more` };
    const out = tempSite();
    const second = writeMessageIndex(changed, out, { maxShards: 4 }, { site: published, listing: null });
    expect(second.manifest.version).not.toBe(first.manifest.version);
    const shard = (site: string, manifest: MessageIndexManifest, i: number) => join(site, MESSAGE_INDEX_DIR, shardFile(manifest, i));
    let linked = 0;
    second.shards.forEach((text, i) => {
      expect(readFileSync(shard(out, second.manifest, i), 'utf8')).toBe(text);
      const same = text === first.shards[i];
      if (same) linked++;
      expect(inode(shard(out, second.manifest, i)) === inode(shard(published, first.manifest, i))).toBe(same);
    });
    // One record's message changed: its shard alone, or a few.
    expect(linked).toBeGreaterThan(0);
    expect(linked).toBeLessThan(second.shards.length);
  });

  it("fills the standby's index in place: keeps the files that are the published ones, and removes what the new index does not hold", () => {
    const edit = (rs: ErrorRecord[], i: number, words: string) => rs.map((r, n) => (n === i ? { ...r, errorMessage: `${r.errorMessage} ${words}`, messagePattern: `${r.messagePattern} ${words}` } : r));
    // Enough records for several folders of shards: an edit moves its shard's folder, and the others stay.
    const MANY = 1_500;
    const listing = join(tempSite(), 'message-index.tsv');
    // The standby: the site before the published one, whose unchanged shards the published site linked.
    const standby = tempSite();
    writeMessageIndex(edit(records(MANY), 1, 'once'), standby);
    const published = tempSite();
    const before = writeMessageIndex(records(MANY), published, {}, { site: standby, listing });
    const publishedTexts = listFilesBelow(published).map((f) => [f, readFileSync(join(published, f), 'utf8')]);
    // What the standby must not lend: files no index of this catalog has.
    mkdirSync(join(standby, MESSAGE_INDEX_DIR, 'shards/stray'));
    writeFileSync(join(standby, MESSAGE_INDEX_DIR, 'shards/stray/0.json'), '{}');
    writeFileSync(join(standby, MESSAGE_INDEX_DIR, 'stray.json'), '{}');
    const out = tempSite();
    renameSync(join(standby, MESSAGE_INDEX_DIR), join(out, MESSAGE_INDEX_DIR));
    const changed = edit(records(MANY), 0, 'and more');
    const after = writeMessageIndex(changed, out, {}, { site: published, listing, seeded: true });
    const expected = [...after.shards.map((_, i) => shardFile(after.manifest, i)), 'manifest.json'].sort();
    expect(new Set(after.manifest.folders).size).toBeGreaterThan(1);
    expect(listFilesBelow(join(out, MESSAGE_INDEX_DIR)).sort()).toEqual(expected);
    after.shards.forEach((text, i) => expect(readFileSync(join(out, MESSAGE_INDEX_DIR, shardFile(after.manifest, i)), 'utf8')).toBe(text));
    // Some files were the published ones already, and none of the published files was written into.
    expect(after.inPlace).toBeGreaterThan(0);
    expect(after.inPlace).toBeLessThan(before.shards.length);
    for (const [f, text] of publishedTexts) expect(readFileSync(join(published, f!), 'utf8')).toBe(text);
    // The same as an index written afresh.
    const fresh = tempSite();
    writeMessageIndex(changed, fresh);
    for (const f of expected) expect(readFileSync(join(out, MESSAGE_INDEX_DIR, f), 'utf8')).toBe(readFileSync(join(fresh, MESSAGE_INDEX_DIR, f), 'utf8'));
  });
});
