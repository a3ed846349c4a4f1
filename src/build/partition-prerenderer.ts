/**
 * The site-wide pages without parameters (home, search, the JSON API's indexes and manifest, the
 * sitemap index, robots.txt, 404) come out the same from every render process, and only one copy is
 * kept when the partitions are merged (src/build/render-processes.ts). Each is made from the whole catalog:
 * at 100k records the manifest alone hashes every record's text. So only the first partition's process
 * renders them; the others render their routes with parameters, which are partitioned already
 * (src/catalog/partition.ts).
 *
 * Used by the Astro integration (src/integration.ts) in each render process.
 */
import type { AstroPrerenderer } from 'astro';
import type { Partition } from '../catalog/partition.ts';

export function firstPartitionRendersFixedPages(inner: AstroPrerenderer, partition: Partition, shard: boolean): AstroPrerenderer {
  // A shard's build renders none of them: the merge does (src/catalog/shard.ts).
  if (partition.index === 0 && !shard) return inner;
  return {
    ...inner,
    name: `${inner.name}+errdex:partition`,
    getStaticPaths: async () => (await inner.getStaticPaths()).filter((p) => p.route.params.length > 0),
  };
}
