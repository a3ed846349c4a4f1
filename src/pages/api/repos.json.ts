/** `/api/repos.json`: every repository with its counts (src/lib/api.ts). */
import type { APIRoute } from 'astro';
import { getCatalog } from '../../catalog/catalog.ts';
import { getDerived } from '../../catalog/derive/index.ts';
import { reposText } from '../../lib/api.ts';

export const GET: APIRoute = () => new Response(reposText(getCatalog(), getDerived()), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
