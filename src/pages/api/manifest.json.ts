/** `/api/manifest.json`: counts and checksums (src/lib/api.ts). */
import type { APIRoute } from 'astro';
import { getCatalog } from '../../catalog/catalog.ts';
import { getDerived, getLedgerPlan } from '../../catalog/derive/index.ts';
import { manifestText } from '../../lib/api.ts';

export const GET: APIRoute = () =>
  new Response(manifestText(getCatalog(), getDerived(), getLedgerPlan()), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
