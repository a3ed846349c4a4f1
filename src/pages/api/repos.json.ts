/** `/api/repos.json`: every repository with its counts (src/views/api.ts). */
import { getCatalog, getDerived } from '../../context.ts';
import type { APIRoute } from 'astro';
import { reposText } from '../../views/api.ts';

export const GET: APIRoute = () => new Response(reposText(getCatalog(), getDerived()), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
