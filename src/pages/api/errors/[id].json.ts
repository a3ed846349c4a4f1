/** The JSON twin of an error page: the wrapped record exactly as the catalog gives it. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getCatalog, type CatalogEntry } from '../../../catalog/catalog.ts';
import { routesToRender } from '../../../catalog/page-cache.ts';
import { recordCacheKey, shardEntries } from '../../../catalog/shard.ts';

export const getStaticPaths = (() =>
  routesToRender(
    shardEntries(getCatalog().entries).map((entry) => ({
      route: { params: { id: entry.record.id }, props: { entry } },
      file: `api/errors/${entry.record.id}.json`,
      key: recordCacheKey(entry),
    })),
  )) satisfies GetStaticPaths;

export const GET: APIRoute<{ entry: CatalogEntry }> = ({ props }) =>
  new Response(props.entry.sourceText, { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
