/**
 * Sitemaps: one `/sitemap.xml` while the site has at most 50,000 URLs (the protocol's limit per
 * file); past that, `/sitemap.xml` becomes an index of one sitemap per repository (kept in the
 * repository's folder, since a sitemap may only list URLs below its own folder) plus one for the
 * pages outside repositories. Any file that would still pass the limit is split again: `-2`, `-3`, …
 */
import { absoluteUrl, repoSitemapPath, SITE_SITEMAP_PATH } from '../util/urls.ts';

export const SITEMAP_URL_LIMIT = 50_000;

export interface SitemapUrl {
  path: string;
  /** ISO date of the last change, when known. */
  lastmod?: string;
}

export interface SitemapFile {
  path: string;
  urls: SitemapUrl[];
}

export interface SitemapPlan {
  /** `/sitemap.xml` itself: the URLs, or (split) the index of `files`. */
  root: { kind: 'urlset'; urls: SitemapUrl[] } | { kind: 'index'; sitemaps: string[] };
  /** The further sitemap files, when split. */
  files: SitemapFile[];
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out.length ? out : [[]];
}

const numbered = (path: string, n: number) => (n === 1 ? path : path.replace(/\.xml$/, `-${n}.xml`));

export function planSitemaps(site: SitemapUrl[], repos: ReadonlyMap<string, SitemapUrl[]>, limit = SITEMAP_URL_LIMIT): SitemapPlan {
  const total = site.length + [...repos.values()].reduce((n, urls) => n + urls.length, 0);
  if (total <= limit) return { root: { kind: 'urlset', urls: [site, ...repos.values()].flat() }, files: [] };
  const files: SitemapFile[] = chunks(site, limit).map((urls, i) => ({ path: numbered(SITE_SITEMAP_PATH, i + 1), urls }));
  for (const [repo, urls] of repos) chunks(urls, limit).forEach((part, i) => files.push({ path: repoSitemapPath(repo, i + 1), urls: part }));
  return { root: { kind: 'index', sitemaps: files.map((f) => f.path) }, files };
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function urlsetXml(urls: readonly SitemapUrl[]): string {
  const body = urls.map((u) => `<url><loc>${escapeXml(absoluteUrl(u.path))}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body.join('\n')}\n</urlset>\n`;
}

export function sitemapIndexXml(paths: readonly string[]): string {
  const body = paths.map((p) => `<sitemap><loc>${escapeXml(absoluteUrl(p))}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body.join('\n')}\n</sitemapindex>\n`;
}
