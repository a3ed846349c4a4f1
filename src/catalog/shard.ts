/**
 * Render shards ("chunks" in the build script): the build renders the error pages in several Astro
 * processes, each taking the records whose id hashes to its shard. The hash keeps a record in the
 * same shard from build to build, so each shard's incremental-build cache stays valid when records
 * come and go (as long as the number of shards stays the same).
 *
 * `ERRDEX_SHARD=i/n` selects shard i of n (0-based); without it there is one shard: everything.
 */
import { hash } from 'node:crypto';
import { siteConfig } from '../../errdex.config.mjs';
import type { CatalogEntry } from './catalog.ts';

export interface Shard {
  index: number;
  count: number;
}

export function parseShard(value: string | undefined): Shard {
  if (value === undefined || value.trim() === '') return { index: 0, count: 1 };
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!(count >= 1 && index >= 0 && index < count)) throw new Error(`ERRDEX_SHARD must look like "0/2" (shard index / shard count); got "${value}"`);
  return { index, count };
}

export const currentShard = (env: NodeJS.ProcessEnv = process.env): Shard => parseShard(env.ERRDEX_SHARD);

/** The shard a record id belongs to among `count`: FNV-1a of the id. */
export function shardOfId(id: string, count: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % count;
}

/** Whether the record of this id is one of the shard's: its error page is rendered there. */
export const inShard = (id: string, shard: Shard = currentShard()): boolean => shard.count === 1 || shardOfId(id, shard.count) === shard.index;

/** The entries this process renders pages and data files for. */
export function shardEntries(entries: readonly CatalogEntry[], shard: Shard = currentShard()): readonly CatalogEntry[] {
  return shard.count === 1 ? entries : entries.filter((e) => inShard(e.record.id, shard));
}

/**
 * Pages made from the whole catalog (listings, sitemaps, the URL ledger's notices): each goes to one
 * shard, by a hash of its route parameters, so that no two render processes render the same page.
 */
export function shardRoutes<T extends { params: Record<string, string | undefined> }>(routes: readonly T[], shard: Shard = currentShard()): T[] {
  return shard.count === 1 ? [...routes] : routes.filter((r) => shardOfId(JSON.stringify(r.params), shard.count) === shard.index);
}

/** The site configuration as part of every page key: made once, not per page. */
const SITE_CONFIG_TEXT = JSON.stringify(siteConfig);

/**
 * The incremental-build key of a record's page: everything it shows that Astro cannot
 * see in the code. A build renders the page again when its key or the code changes (src/catalog/page-cache.ts).
 * A page that comes to show data from other records (related errors) must add that data here.
 */
export function recordCacheKey(entry: Pick<CatalogEntry, 'sourceText'>, shown: unknown = null): string {
  const shownText = JSON.stringify(shown, (key, value) => (key === 'entry' && value && typeof value === 'object' && 'sourceText' in value ? textKey(value as CatalogEntry) : value));
  return hash('sha1', `${SITE_CONFIG_TEXT}\0${entry.sourceText}\0${shownText}`);
}

const textKeys = new WeakMap<object, string>();

/**
 * A record shown on another record's page stands in its key by the hash of its text, computed once
 * (or when the entry was read, if its text was then left out: src/catalog/snapshot.ts).
 */
export function textKey(entry: Pick<CatalogEntry, 'sourceText' | 'textKey'>): string {
  if (entry.textKey !== undefined) return entry.textKey;
  let key = textKeys.get(entry);
  if (key === undefined) textKeys.set(entry, (key = textHash(entry.sourceText)));
  return key;
}

/** The hash of a record's text that stands for it in other records' page keys. */
export const textHash = (text: string): string => hash('sha1', text);
