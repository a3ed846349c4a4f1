/**
 * Every URL the site publishes, in one place. Paths are root-relative without the base path;
 * `withBase` adds the operator's sub-path (GitHub Pages project sites) when a link is written.
 */
import { siteConfig } from '../../errdex.config.mjs';
import { encodeRepoPath } from '../schema/field-checks.ts';
import type { ErrorRecord } from '../schema/record.ts';

export const errorPath = (r: Pick<ErrorRecord, 'repo' | 'slug'>): string => `/${r.repo}/${r.slug}/`;
export const shortPath = (id: string): string => `/e/${id}/`;
export const jsonPath = (id: string): string => `/api/errors/${id}.json`;
export const repoPath = (repo: string): string => `/${repo}/`;
export const classPath = (id: string): string => `/classes/${id}/`;
export const tagPath = (tag: string): string => `/tags/${tag}/`;
export const SCHEMA_PATH = '/schema/error-record.json';
export const SEARCH_PATH = '/search/';
export const CLASSES_PATH = '/classes/';
export const TAGS_PATH = '/tags/';
export const SITEMAP_PATH = '/sitemap.xml';
/** Sitemap of the pages outside any repository (home, classes, tags) once the sitemap is split. */
export const SITE_SITEMAP_PATH = '/sitemap-site.xml';
export const API_ERRORS_PATH = '/api/errors.json';
export const API_REPOS_PATH = '/api/repos.json';
export const API_MANIFEST_PATH = '/api/manifest.json';

/** Page `n` (1-based) of a listing at `path`: the listing itself, then `path/page/2/`, … A slug is one segment, so these never meet an error page. */
export const listPagePath = (path: string, n: number): string => (n <= 1 ? path : `${path}page/${n}/`);
/** A repository's own sitemap (sitemaps may only list URLs below their folder): `sitemap.xml`, `sitemap-2.xml`, … */
export const repoSitemapPath = (repo: string, n: number): string => `/${repo}/sitemap${n <= 1 ? '' : `-${n}`}.xml`;
/** The anchor of a directory's group on a repository page. */
export const directoryAnchor = (dir: string): string => `in-${dir === '' ? '(root)' : dir.replace(/\s/g, '_')}`;
/** The paste matcher's message index (manifest and shards) and Pagefind's bundle. */
export const MESSAGE_INDEX_PATH = '/search-index/';
export const PAGEFIND_PATH = '/pagefind/';
/** A listing's filter index (src/views/list-index.ts), by the listing's path (`/owner/repo/`, `/classes/id/`, `/tags/tag/`): its head, whose files sit beside it. */
export const LIST_INDEX_PATH = '/list-index/';
export const listIndexPath = (listingPath: string): string => `${LIST_INDEX_PATH}${listingPath.slice(1)}index.json`;

/** Top-level folders the site itself uses: an owner of that name would collide with them. */
export const RESERVED_OWNERS = new Set(['api', 'e', 'schema', 'search', 'classes', 'tags', 'pagefind', '_astro', 'assets', 'removed', 'search-index', 'list-index']);

export function withBase(path: string, base: string = siteConfig.basePath): string {
  return `${base}${path}`;
}

export function absoluteUrl(path: string): string {
  return `${siteConfig.siteUrl}${withBase(path)}`;
}

/** GitHub permalink to the thrown line (or the file), pinned to the analysed commit. */
export function githubLineUrl(r: Pick<ErrorRecord, 'repo' | 'analyzedSha' | 'filePath' | 'lineNumber'>): string {
  return `https://github.com/${r.repo}/blob/${r.analyzedSha}/${encodeRepoPath(r.filePath)}${r.lineNumber ? `#L${r.lineNumber}` : ''}`;
}
