/**
 * Shards: a catalog built on several machines (`npm run build -- --shard i/n`, then `npm run merge`).
 * Each shard renders the error pages of its records; the merge renders the rest once (docs/scale.md).
 *
 * A repository's records stay together, in the shard a hash of its name picks, so that a
 * repository's pages are rendered (and cached) by the same shard from build to build whatever else the
 * catalog gains or loses. A large repository is split by a hash of each record's id: "large" is more
 * than an eighth of a shard's share, because whole repositories of a quarter or half a share dealt by
 * hash left one shard of eight with twice its share on a real catalog (21 repositories), and an eighth
 * kept every shard within 1.12 of its share there (docs/scale.md). Every shard computes the same split
 * from the same catalog: no shard needs another's output.
 */
import { partitionOfId } from './partition.ts';

/** Shard `index` (from 0) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** `--shard i/n`, i from 1 to n (as a CI job matrix counts): the shard, or the problem as a sentence. */
export function parseShard(text: string): Shard | string {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) return `--shard takes i/n, shard i of n (as 2/4); got ${JSON.stringify(text)}.`;
  const [i, n] = [Number(m[1]), Number(m[2])];
  if (n < 1 || i < 1 || i > n) return `--shard ${text}: i must be from 1 to n, and n at least 1.`;
  return { index: i - 1, count: n };
}

/** How a shard is written for people: 2/4. */
export const shardLabel = (shard: Shard): string => `${shard.index + 1}/${shard.count}`;

/** A repository of more than 1/SPLIT_SHARE of a shard's share is split by record id. */
const SPLIT_SHARE = 8;

/** The shard of each record of the catalog (`records`: all of them, in any order), by id. */
export function shardsOf(records: Iterable<{ id: string; repo: string }>, count: number): (id: string) => number {
  const list = [...records];
  const perRepo = new Map<string, number>();
  for (const r of list) perRepo.set(r.repo, (perRepo.get(r.repo) ?? 0) + 1);
  const large = list.length / count / SPLIT_SHARE;
  const byId = new Map<string, number>();
  for (const r of list) byId.set(r.id, (perRepo.get(r.repo) ?? 0) > large ? partitionOfId(r.id, count) : partitionOfId(`repo\0${r.repo}`, count));
  return (id) => {
    const shard = byId.get(id);
    if (shard === undefined) throw new Error(`no record ${id} in the catalog the shards were made from`);
    return shard;
  };
}

/** The ids of the records in `shard`. */
export function shardIds(records: Iterable<{ id: string; repo: string }>, shard: Shard): Set<string> {
  const list = [...records];
  const of = shardsOf(list, shard.count);
  return new Set(list.filter((r) => of(r.id) === shard.index).map((r) => r.id));
}

/** The Pagefind parts a shard indexes: part p of every catalog goes to shard p mod n, so each part is indexed by exactly one shard. */
export const ownsPart = (part: number, shard: Shard): boolean => part % shard.count === shard.index;
