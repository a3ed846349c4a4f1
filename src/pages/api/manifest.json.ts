/** `/api/manifest.json`: counts and checksums (src/views/api.ts). */
import { getCatalog, getDerived, getLedgerPlan } from '../../context.ts';
import type { APIRoute } from 'astro';
import { manifestText } from '../../views/api.ts';

export const GET: APIRoute = () =>
  new Response(manifestText(getCatalog(), getDerived(), getLedgerPlan()), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
