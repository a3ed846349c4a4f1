/** `/sitemap.xml`: every indexable page, or the index of the split sitemaps (src/views/sitemap.ts). */
import type { APIRoute } from 'astro';
import { getSitemapPlan } from '../views/site-sitemap.ts';
import { sitemapIndexXml, urlsetXml } from '../views/sitemap.ts';

export const GET: APIRoute = () => {
  const { root } = getSitemapPlan();
  const xml = root.kind === 'urlset' ? urlsetXml(root.urls) : sitemapIndexXml(root.sitemaps);
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
