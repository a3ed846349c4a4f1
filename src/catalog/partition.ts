/**
 * Render partitions: the build renders the error pages in several Astro processes, each taking the
 * records whose id hashes to its partition. The hash keeps a record in the same partition from build
 * to build, so each partition's page keys stay valid when records come and go (as long as the number
 * of partitions stays the same). A process learns its partition from the render context (src/context.ts).
 */
import type { CatalogEntry } from './entry.ts';

export interface Partition {
  index: number;
  count: number;
}

/** FNV-1a of a string's UTF-16 code units, 32 bits. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The partition a record id belongs to among `count`: FNV-1a of the id. */
export const partitionOfId = (id: string, count: number): number => fnv1a(id) % count;

/** Whether the record of this id is one of the partition's: its error page is rendered there. */
export const inPartition = (id: string, partition: Partition): boolean => partition.count === 1 || partitionOfId(id, partition.count) === partition.index;

/** The entries a partition renders pages and data files for. */
export function entriesIn(entries: readonly CatalogEntry[], partition: Partition): readonly CatalogEntry[] {
  return partition.count === 1 ? entries : entries.filter((e) => inPartition(e.record.id, partition));
}

/**
 * Pages made from the whole catalog (listings, sitemaps, the URL ledger's notices): each goes to one
 * partition, by a hash of its route parameters, so that no two render processes render the same page.
 */
export function routesIn<T extends { params: Record<string, string | undefined> }>(routes: readonly T[], partition: Partition): T[] {
  return partition.count === 1 ? [...routes] : routes.filter((r) => partitionOfId(JSON.stringify(r.params), partition.count) === partition.index);
}
