import { describe, expect, it } from 'vitest';
import { ownsPart, parseShard, shardIds, shardsOf } from '../../../src/catalog/shard.ts';

/** `n` records of each repository, ids `<repo>#<i>`. */
const records = (sizes: Record<string, number>) => Object.entries(sizes).flatMap(([repo, n]) => Array.from({ length: n }, (_, i) => ({ id: `${repo}#${i}`, repo })));

describe('parseShard', () => {
  it('reads i/n from 1, as a CI matrix counts, into an index from 0', () => {
    expect(parseShard('1/4')).toEqual({ index: 0, count: 4 });
    expect(parseShard(' 4/4 ')).toEqual({ index: 3, count: 4 });
    expect(parseShard('1/1')).toEqual({ index: 0, count: 1 });
  });

  it('says what is wrong with anything else', () => {
    for (const bad of ['0/4', '5/4', '1/0', '2', '1/4/2', 'a/b', '-1/4', '']) expect(parseShard(bad), bad).toMatch(/^--shard/);
  });
});

describe('shardsOf', () => {
  // 100 records in 3 shards: a share of 33, and repositories of more than an eighth of it (4) split.
  const small = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`o/r${i}`, 1 + (i % 4)]));
  const catalog = records({ ...small, 'e/v': 50 });
  const of = shardsOf(catalog, 3);

  it('puts every record in exactly one shard, and the shards together hold the catalog', () => {
    const ids = [0, 1, 2].map((index) => shardIds(catalog, { index, count: 3 }));
    expect(ids.reduce((n, s) => n + s.size, 0)).toBe(catalog.length);
    expect(new Set(ids.flatMap((s) => [...s])).size).toBe(catalog.length);
  });

  it("keeps a small repository's records together, and splits a large one", () => {
    for (const repo of Object.keys(small)) expect(new Set(catalog.filter((r) => r.repo === repo).map((r) => of(r.id))).size, repo).toBe(1);
    expect(new Set(catalog.filter((r) => r.repo === 'e/v').map((r) => of(r.id))).size).toBe(3);
  });

  it("keeps a repository in its shard when the others change", () => {
    const grown = shardsOf([...catalog, ...records({ 'f/u': 3 }), { id: 'o/r0#new', repo: 'o/r0' }], 3);
    for (const r of catalog) expect(grown(r.id), r.id).toBe(of(r.id));
  });

  it('names a record that is not in the catalog', () => {
    expect(() => of('nowhere#1')).toThrow(/no record nowhere#1/);
  });
});

describe('ownsPart', () => {
  it('gives each full-text part to exactly one shard', () => {
    for (const count of [1, 2, 3, 5]) {
      for (let part = 0; part < 7; part++) expect([...Array(count).keys()].filter((index) => ownsPart(part, { index, count }))).toHaveLength(1);
    }
  });
});
