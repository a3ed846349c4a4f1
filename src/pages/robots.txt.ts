/** `robots.txt`: everything may be crawled; the sitemap is named. (Crawlers read it only at a domain's root.) */
import type { APIRoute } from 'astro';
import { SITEMAP_PATH, absoluteUrl } from '../util/urls.ts';

export const GET: APIRoute = () =>
  new Response(`User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(SITEMAP_PATH)}\n`, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
