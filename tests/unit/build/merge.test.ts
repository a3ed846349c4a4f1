import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dropShardsStore, joinShards, MergeProblem, SHARD_RECORDS, shardRecordsListing, shardsStore } from '../../../src/build/merge.ts';
import { keptSite, manifestFile, publishedSite, readManifest, writeManifest } from '../../../src/build/page-reuse.ts';
import { proofOf } from '../../../src/build/file-proofs.ts';
import { listFilesBelow } from '../../../src/util/files.ts';

const write = (root: string, files: Record<string, string>) => {
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
};

/** A shard's folder as publishShard leaves it: its pages with their keys and proofs, and its record files. */
function shard(dir: string, pages: Record<string, string>, records: Record<string, string>): string {
  write(keptSite(dir), pages);
  write(join(dir, SHARD_RECORDS), records);
  const files = Object.fromEntries(Object.keys(pages).map((p) => [p, `key of ${p}`]));
  const proofs = Object.fromEntries(Object.keys(pages).map((p) => [p, proofOf(join(keptSite(dir), p), undefined)]));
  writeManifest(dir, { code: 'code', site: dir, files, proofs, heads: {} });
  writeFileSync(shardRecordsListing(dir), Object.keys(records).map((p) => `${p}\tid\thash\n`).join(''));
  return dir;
}

const tree = (dir: string) => listFilesBelow(dir).map((f) => `${f}=${readFileSync(join(dir, f), 'utf8')}`);
const identities = (dir: string) => listFilesBelow(dir).map((f) => `${f} ${statSync(join(dir, f)).ino} ${statSync(join(dir, f)).mtimeMs}`);

describe('joinShards', () => {
  const root = mkdtempSync(join(tmpdir(), 'errdex-merge-'));
  const one = shard(
    join(root, 'one'),
    { 'repo-a/x/index.html': 'ax', 'repo-a/y/index.html': 'ay', 'repo-c/p/index.html': 'cp', 'pagefind/part-0/f.pf': '0' },
    { 'api/errors/ax.json': '{"ax"}', 'e/ax/index.html': 'short ax' },
  );
  const two = shard(
    join(root, 'two'),
    { 'repo-b/z/index.html': 'bz', 'repo-c/q/index.html': 'cq', 'pagefind/part-1/f.pf': '1' },
    { 'api/errors/bz.json': '{"bz"}', 'e/bz/index.html': 'short bz' },
  );

  it("joins the shards' pages and keys into one page store, each folder of one shard a link to it", () => {
    const cache = join(root, 'cache');
    const before = [one, two].map(identities);
    expect(joinShards([one, two], cache, 'code')).toBe(7);
    const store = shardsStore(cache);
    expect(tree(keptSite(store))).toEqual([...tree(keptSite(one)), ...tree(keptSite(two))].sort());
    // A repository one shard has is one link; one both have (split by record) is a folder of theirs.
    expect(lstatSync(join(keptSite(store), 'repo-a')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(keptSite(store), 'repo-c')).isDirectory()).toBe(true);
    expect(lstatSync(join(keptSite(store), 'repo-c/p')).isSymbolicLink()).toBe(true);
    // The build reads it as a published site: every file proven by its identity.
    const published = publishedSite({ cacheDir: store, code: 'code', force: false })!;
    expect(published.unproven).toBe(0);
    expect(published.identical.size).toBe(7);
    expect(Object.keys(readManifest(manifestFile(store))!.files).sort()).toEqual(listFilesBelow(keptSite(store)));

    // Joined again (the next merge) and dropped after publishing: the shards' folders are untouched.
    joinShards([one, two], cache, 'code');
    dropShardsStore(cache);
    expect(existsSync(store)).toBe(false);
    expect([one, two].map(identities)).toEqual(before);
  });

  it('refuses a file that two shards have', () => {
    // Listed in one shard's manifest only: a stray file the other shard's folder holds.
    const three = shard(join(root, 'three'), { 'repo-d/w/index.html': 'dw' }, {});
    write(keptSite(three), { 'pagefind/part-0/f.pf': 'stray' });
    expect(() => joinShards([one, three], join(root, 'cache-3'), 'code')).toThrow(MergeProblem);
    expect(() => joinShards([one, three], join(root, 'cache-3'), 'code')).toThrow(/f.pf are one file of two shards/);
    const four = shard(join(root, 'four'), { 'repo-a/x/index.html': 'again' }, {});
    expect(() => joinShards([one, four], join(root, 'cache-4'), 'code')).toThrow(/repo-a\/x\/index.html is in two shards/);
  });
});
