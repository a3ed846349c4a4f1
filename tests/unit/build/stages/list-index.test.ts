import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../../../../bench/lib/synthetic.ts';
import { listIndexes, shardListings, shardListingsFit, type ListIndexOptions } from '../../../../src/build/stages/list-index.ts';
import { loadCatalog } from '../../../../src/catalog/catalog.ts';
import { writeHead, writeSnapshot, type SnapshotHead } from '../../../../src/catalog/snapshot.ts';
import type { LedgerPlan } from '../../../../src/catalog/ledger.ts';
import { listFilesBelow } from '../../../../src/util/files.ts';

/** A catalog with listings of several pages, its snapshot and head; `edit` changes the message (or the documentation) of its first record. */
async function fixture(dir: string, edit: false | 'message' | 'documentation' = false) {
  const catalogDir = join(dir, edit ? `input-${edit}` : 'input');
  mkdirSync(catalogDir, { recursive: true });
  const lines = [...syntheticRecords({ count: 3000, seed: 3 })];
  if (edit) {
    const first = JSON.parse(lines[0]!) as { record: { errorMessage: string; documentation: string } };
    if (edit === 'message') first.record.errorMessage = `${first.record.errorMessage} (edited)`;
    else first.record.documentation = `${first.record.documentation} Edited.`;
    lines[0] = JSON.stringify(first);
  }
  writeFileSync(join(catalogDir, 'records.jsonl'), `${lines.join('\n')}\n`);
  const catalog = loadCatalog(catalogDir);
  const snapshot = join(catalogDir, 'snapshot.jsonl');
  const head = join(catalogDir, 'head.json');
  writeSnapshot(snapshot, catalog.entries);
  writeHead(head, { classes: catalog.classes } as SnapshotHead, {} as LedgerPlan);
  return { snapshot, head };
}

/** Every file below `dir`, with its bytes. */
const filesOf = (dir: string) => Object.fromEntries(listFilesBelow(dir).map((f) => [f, readFileSync(join(dir, f)).toString('base64')]));

describe('the list-index stage', () => {
  it('writes a listing from the build cache only when its inputs are the ones kept, the same bytes as indexing it again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-list-index-'));
    const before = await fixture(dir);
    const after = await fixture(dir, 'message');
    const cache = { dir: join(dir, 'cache'), code: 'code-1' };
    const run = (input: { snapshot: string; head: string }, out: string, c: ListIndexOptions['cache']) =>
      listIndexes({ ...input, outDir: join(dir, out), cache: c });

    const cold = await run(before, 'cold', null);
    expect(cold.listings).toBeGreaterThan(2);
    expect(cold.cached).toBe(0);
    expect(readdirSync(join(dir, 'cold')).length).toBeGreaterThan(0);
    expect((await run(before, 'first', cache)).cached).toBe(0);
    const again = await run(before, 'again', cache);
    expect(again).toEqual({ ...cold, cached: cold.listings, read: 0 });
    expect(filesOf(join(dir, 'again'))).toEqual(filesOf(join(dir, 'cold')));

    // One record's message changed: the listings it is in are indexed again, the others come from the cache.
    const edited = await run(after, 'edited', cache);
    expect(edited.cached).toBeGreaterThan(0);
    expect(edited.cached).toBeLessThan(edited.listings);
    expect(filesOf(join(dir, 'edited'))).toEqual(filesOf(join(dir, (await run(after, 'edited-cold', null), 'edited-cold'))));
    // The cache keeps this build's listings only; other code keys every listing anew.
    expect(readdirSync(join(dir, 'cache/list-index'))).toHaveLength(edited.listings);
    expect((await run(after, 'other-code', { ...cache, code: 'code-2' })).cached).toBe(0);
  });

  it('reads only the records whose text changed when none of what the listings show did', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-list-index-memo-'));
    const before = await fixture(dir);
    const prose = await fixture(dir, 'documentation');
    const message = await fixture(dir, 'message');
    const cache = { dir: join(dir, 'cache'), code: 'code-1' };
    const run = (input: { snapshot: string; head: string }, out: string, c: ListIndexOptions['cache'] = cache) =>
      listIndexes({ ...input, outDir: join(dir, out), cache: c });
    const cold = await run(before, 'cold', null);
    expect(cold.read).toBe(3000);
    expect((await run(before, 'first')).read).toBe(3000);

    // A record's documentation is no listing's: the listings are the last build's, one record parsed.
    const edited = await run(prose, 'prose');
    expect(edited).toEqual({ ...cold, cached: cold.listings, read: 1 });
    expect(filesOf(join(dir, 'prose'))).toEqual(filesOf(join(dir, (await run(prose, 'prose-cold', null), 'prose-cold'))));
    expect((await run(prose, 'prose-again')).read).toBe(0);

    // Its message is: every record parsed, the listings it is in made again, as a cold build makes them.
    const changed = await run(message, 'message');
    expect(changed.read).toBe(3000);
    expect(changed.cached).toBeLessThan(changed.listings);
    expect(filesOf(join(dir, 'message'))).toEqual(filesOf(join(dir, (await run(message, 'message-cold', null), 'message-cold'))));

    // A kept listing's files gone from the cache: made again from the records, not taken as made.
    const gone = readdirSync(join(dir, 'cache/list-index'))[0]!;
    rmSync(join(dir, 'cache/list-index', gone));
    const remade = await run(message, 'remade');
    expect(remade).toEqual({ ...changed, cached: changed.listings - 1 });
    expect(filesOf(join(dir, 'remade'))).toEqual(filesOf(join(dir, 'message-cold')));
    // Another code's memo is not taken.
    expect((await run(message, 'other-code', { ...cache, code: 'code-2' })).read).toBe(3000);
  });

  it("makes a shard's share of the listings into its cache only; the shares together are every listing a merge needs", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-list-index-share-'));
    const input = await fixture(dir);
    const code = 'code-1';
    const shares = await Promise.all(
      [0, 1, 2].map((index) => listIndexes({ ...input, outDir: join(dir, `shard-${index}`), cache: { dir: join(dir, `cache-${index}`), code }, share: { index, count: 3 } })),
    );
    // Nothing for the site from a shard: its listings are in its cache, for the merge.
    for (const index of [0, 1, 2]) expect(readdirSync(join(dir, `shard-${index}`))).toEqual([]);
    const cold = await listIndexes({ ...input, outDir: join(dir, 'cold'), cache: null });
    expect(shares.map((s) => s.listings).reduce((a, b) => a + b)).toBe(cold.listings);
    expect(shares.filter((s) => s.listings > 0).length).toBeGreaterThan(1);
    // The merge's cache holds every shard's: it indexes none, and writes what indexing would.
    const merged = join(dir, 'cache-merge', 'list-index');
    mkdirSync(merged, { recursive: true });
    for (const index of [0, 1, 2]) for (const f of readdirSync(join(dir, `cache-${index}`, 'list-index'))) writeFileSync(join(merged, f), readFileSync(join(dir, `cache-${index}`, 'list-index', f)));
    const merge = await listIndexes({ ...input, outDir: join(dir, 'merge'), cache: { dir: join(dir, 'cache-merge'), code } });
    expect(merge).toEqual({ ...cold, cached: cold.listings });
    expect(filesOf(join(dir, 'merge'))).toEqual(filesOf(join(dir, 'cold')));

    // Each shard's folder lists what it made, with the key of its snapshot: a merge of the same key
    // writes every listing from those lists, reading no snapshot, and the files are the same.
    const folders = shares.map((share, index) => {
      const folder = join(dir, `folder-${index}`);
      mkdirSync(folder);
      writeFileSync(shardListings(folder), JSON.stringify({ ...share, key: 'snapshot-1' }));
      return folder;
    });
    expect(shares.flatMap((s) => s.made!.map((l) => l.path)).sort()).toHaveLength(cold.listings);
    expect(shardListingsFit(folders, 'snapshot-2', join(dir, 'cache-merge'))).toBe(false);
    expect(shardListingsFit(folders, 'snapshot-1', join(dir, 'cache-none'))).toBe(false);
    expect(shardListingsFit(folders, 'snapshot-1', join(dir, 'cache-merge'))).toBe(true);
    const gone = { snapshot: join(dir, 'no-snapshot.jsonl'), head: input.head };
    const linked = await listIndexes({ ...gone, outDir: join(dir, 'from-shards'), cache: { dir: join(dir, 'cache-merge'), code }, fromShards: folders });
    expect(linked).toEqual({ ...cold, cached: cold.listings, read: 0 });
    expect(filesOf(join(dir, 'from-shards'))).toEqual(filesOf(join(dir, 'cold')));
  });

  it("links the published files and fills the standby's folder in place: the files a cold build writes, nothing else", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-list-index-standby-'));
    const before = await fixture(dir);
    const after = await fixture(dir, 'message');
    const cache = { dir: join(dir, 'cache'), code: 'code-1' };
    const listing = join(dir, 'cache/published-files/list-index.tsv');
    const run = (input: { snapshot: string; head: string }, out: string, site: string | null, standby: string | null = null) =>
      listIndexes({ ...input, outDir: join(dir, out), cache, published: { site: site && join(dir, site), listing }, standby: standby && join(dir, standby) });
    const ino = (path: string) => statSync(join(dir, path)).ino;
    // Published: built, then renamed into place as publishing does.
    await run(before, 'one', null);
    renameSync(join(dir, 'one'), join(dir, 'site-1'));
    // The next build links what the published site holds the same.
    const two = await run(after, 'two', 'site-1');
    expect(two.inPlace).toBeUndefined();
    const files = listFilesBelow(join(dir, 'two'));
    const same = files.filter((f) => existsSync(join(dir, 'site-1', f)) && ino(`two/${f}`) === ino(`site-1/${f}`));
    expect(same.length).toBeGreaterThan(files.length / 2);
    expect(same.length).toBeLessThan(files.length);
    renameSync(join(dir, 'two'), join(dir, 'site-2'));
    // The one after: the site before is its standby; a stray file and one replaced in it go.
    const standby = 'site-1';
    const head = files.find((f) => f.endsWith('index.json') && ino(`site-2/${f}`) === ino(`site-1/${f}`))!;
    rmSync(join(dir, standby, head));
    writeFileSync(join(dir, standby, head), 'not this');
    writeFileSync(join(dir, standby, 'list-index/stray.json'), '{}');
    const three = await run(after, 'three', 'site-2', standby);
    expect(three.inPlace).toBeGreaterThan(files.length / 2);
    expect(filesOf(join(dir, 'three'))).toEqual(filesOf(join(dir, (await run(after, 'cold', null), 'cold'))));
    expect(existsSync(join(dir, 'three/list-index/stray.json'))).toBe(false);
    expect(ino(`three/${head}`)).toBe(ino(`site-2/${head}`));
    expect([three.files, three.bytes]).toEqual([two.files, two.bytes]);
  });
});
