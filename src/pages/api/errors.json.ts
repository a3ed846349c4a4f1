/** `/api/errors.json`: the compact index of every error (src/views/api.ts). */
import { getCatalog } from '../../context.ts';
import type { APIRoute } from 'astro';
import { errorsIndexText } from '../../views/api.ts';

export const GET: APIRoute = () => new Response(errorsIndexText(getCatalog()), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
