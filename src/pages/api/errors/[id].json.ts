/**
 * The JSON twin of an error page: the wrapped record exactly as the catalog gives it.
 * The build writes the twins itself, straight from the validated catalog
 * (src/build/stages/record-files.ts); this route serves them under `astro dev`.
 */
import { getCatalog, partitionEntries, recordFilesByBuild } from '../../../context.ts';
import type { APIRoute, GetStaticPaths } from 'astro';
import type { CatalogEntry } from '../../../catalog/catalog.ts';

export const getStaticPaths = (() =>
  recordFilesByBuild() ? [] : partitionEntries(getCatalog().entries).map((entry) => ({ params: { id: entry.record.id }, props: { entry } }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ entry: CatalogEntry }> = ({ props }) =>
  new Response(props.entry.sourceText, { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
