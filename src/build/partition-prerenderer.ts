/**
 * The site-wide pages without parameters (home, search, the JSON API's indexes and manifest, the
 * sitemap index, robots.txt, 404) come out the same from every render process, and only one copy is
 * kept when the chunks are merged (scripts/lib/astro-render.ts). Each is made from the whole catalog:
 * at 100k records the manifest alone hashes every record's text. So only the first shard's process
 * renders them; the others render their routes with parameters, which are sharded already
 * (src/catalog/shard.ts).
 *
 * Run inside the render process by Node itself (scripts/lib/astro-build.ts): erasable TypeScript only.
 */
import type { AstroPrerenderer } from 'astro';
import type { Shard } from '../catalog/shard.ts';

export function firstShardRendersFixedPages(inner: AstroPrerenderer, shard: Shard): AstroPrerenderer {
  if (shard.index === 0) return inner;
  return {
    ...inner,
    name: `${inner.name}+errdex:shard`,
    getStaticPaths: async () => (await inner.getStaticPaths()).filter((p) => p.route.params.length > 0),
  };
}
