/**
 * A link checker over a built site: every internal link (href, src, meta refresh, canonical and
 * Open Graph URLs on the site's own origin) must lead to a file of the site, honouring the base
 * path; a `#fragment` must name an element of the target page. Pure over the files it is given.
 */
import { readFileSync } from 'node:fs';
import { listFilesBelow } from './files.ts';

export interface BrokenLink {
  /** The page holding the link, relative to the site folder. */
  page: string;
  url: string;
  problem: string;
}

export interface SiteFiles {
  /** Every file of the site, relative to its folder, '/'-separated. */
  files: ReadonlySet<string>;
  /** Text of an HTML page by relative path. */
  html(path: string): string;
}

const ATTRIBUTE = /<(a|link|script|img|source|iframe)\b[^>]*?\s(href|src)="([^"]*)"/gi;
const REFRESH = /<meta\s+http-equiv="refresh"\s+content="[^"]*?url=([^"]*)"/gi;
const META_URL = /<meta\s+property="og:url"\s+content="([^"]*)"/gi;
const ID = /\sid="([^"]*)"/g;

const decodeEntities = (s: string) => s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');

/** The site file a path (below the base path) is served from, or null. */
function fileFor(path: string, files: ReadonlySet<string>): string | null {
  const rel = path.replace(/^\//, '');
  if (rel === '' || rel.endsWith('/')) return files.has(`${rel}index.html`) ? `${rel}index.html` : null;
  return files.has(rel) ? rel : null;
}

export function checkLinks(site: SiteFiles, options: { base?: string; siteUrl: string }): BrokenLink[] {
  const base = (options.base ?? '').replace(/\/+$/, '');
  const origin = new URL(options.siteUrl).origin;
  const broken: BrokenLink[] = [];
  const ids = new Map<string, Set<string>>();
  const idsOf = (file: string) => {
    let set = ids.get(file);
    if (!set) ids.set(file, (set = new Set([...site.html(file).matchAll(ID)].map((m) => decodeEntities(m[1]!)))));
    return set;
  };
  for (const page of [...site.files].filter((f) => f.endsWith('.html')).sort()) {
    const html = site.html(page);
    const pageUrl = new URL(`${base}/${page.replace(/(^|\/)index\.html$/, '$1')}`, origin);
    const urls = [
      ...[...html.matchAll(ATTRIBUTE)].map((m) => m[3]!),
      ...[...html.matchAll(REFRESH)].map((m) => m[1]!),
      ...[...html.matchAll(META_URL)].map((m) => m[1]!),
    ];
    for (const raw of urls) {
      const href = decodeEntities(raw);
      let url: URL;
      try {
        url = new URL(href, pageUrl);
      } catch {
        broken.push({ page, url: href, problem: 'is not a URL' });
        continue;
      }
      if (url.origin !== origin || !/^https?:$/.test(url.protocol)) continue; // external: not ours to check
      const path = decodeURIComponent(url.pathname);
      if (path !== base && !path.startsWith(`${base}/`)) {
        broken.push({ page, url: href, problem: `is outside the base path ${base || '/'}` });
        continue;
      }
      const file = fileFor(path.slice(base.length) || '/', site.files);
      if (!file) {
        broken.push({ page, url: href, problem: 'leads to no file of the site' });
        continue;
      }
      const fragment = decodeURIComponent(url.hash.slice(1));
      if (fragment && file.endsWith('.html') && !idsOf(file).has(fragment)) broken.push({ page, url: href, problem: `has no element with id "${fragment}"` });
    }
  }
  return broken;
}

/** The files of a built site folder, for checkLinks. */
export function siteFolder(dir: string): SiteFiles {
  const files = new Set(listFilesBelow(dir));
  return { files, html: (path) => readFileSync(`${dir}/${path}`, 'utf8') };
}
