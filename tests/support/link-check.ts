/**
 * Broken internal links in a built site: every href/src/action of every page that stays on the
 * site (and the URLs of meta refresh redirects and `og:url`) must name a file the site has,
 * honouring the base path, and a `#fragment` on an HTML page must name an id on it.
 * Pure: the caller gives the file list and the pages' HTML (see `readSite`, `checkSite`).
 */
import { readFileSync } from 'node:fs';
import { listFilesBelow } from '../../src/util/files.ts';
import { parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

export interface SiteFiles {
  /** Every file of the site, relative to its root with '/' separators (`a/b/index.html`). */
  files: ReadonlySet<string>;
  /** The HTML of the pages to check (and of the targets of fragment links): path -> HTML. */
  pages: ReadonlyMap<string, string>;
  /** Sub-path the site is served under (`/errdex`), '' at a domain's root. */
  basePath?: string;
  /** The site's public origin (`https://errdex.dev`): absolute links to it count as internal. */
  siteOrigin?: string;
}

export interface BrokenLink {
  /** The page holding the link, as a file path. */
  page: string;
  /** The link exactly as written. */
  href: string;
  /** The site path it resolves to (base path removed), when it resolves to one. */
  path?: string;
  reason: string;
}

const LINK_ATTRIBUTES: Record<string, string[]> = {
  a: ['href'],
  area: ['href'],
  link: ['href'],
  script: ['src'],
  img: ['src'],
  source: ['src'],
  iframe: ['src'],
  form: ['action'],
};

interface PageFacts {
  links: string[];
  ids: Set<string>;
}

function walk(node: Node, visit: (el: Element) => void): void {
  if ('tagName' in node) visit(node);
  const children = 'childNodes' in node ? node.childNodes : [];
  for (const child of children) walk(child, visit);
  if ('content' in node && node.content) walk(node.content as unknown as Node, visit);
}

/** The links a page makes and the ids it offers as fragment targets. */
export function pageFacts(html: string): PageFacts {
  const links: string[] = [];
  const ids = new Set<string>();
  walk(parse(html) as unknown as Node, (el) => {
    for (const attr of el.attrs) {
      if (attr.name === 'id' || (el.tagName === 'a' && attr.name === 'name')) ids.add(attr.value);
      if (LINK_ATTRIBUTES[el.tagName]?.includes(attr.name)) links.push(attr.value);
    }
    if (el.tagName === 'meta') {
      // Redirect pages and Open Graph tags carry URLs too: a broken one is a broken link.
      const get = (name: string) => el.attrs.find((a) => a.name === name)?.value;
      const refresh = get('http-equiv')?.toLowerCase() === 'refresh' ? /url=(.*)$/i.exec(get('content') ?? '')?.[1] : undefined;
      if (refresh) links.push(refresh.trim());
      if (get('property') === 'og:url' && get('content')) links.push(get('content')!);
    }
  });
  return { links, ids };
}

/** The site path a file is served at: `a/index.html` -> `/a/`, `x.json` -> `/x.json`. */
export function urlPathOf(file: string): string {
  return `/${file.replace(/(^|\/)index\.html$/, '$1')}`;
}

/** The file a site path names, as a static host resolves it, or null. */
export function fileForPath(path: string, files: ReadonlySet<string>): string | null {
  const rel = path.replace(/^\//, '');
  if (rel === '' || rel.endsWith('/')) return files.has(`${rel}index.html`) ? `${rel}index.html` : null;
  if (files.has(rel)) return rel;
  return files.has(`${rel}/index.html`) ? `${rel}/index.html` : null; // hosts redirect /a to /a/
}

export function findBrokenLinks(site: SiteFiles): BrokenLink[] {
  const base = (site.basePath ?? '').replace(/\/+$/, '');
  const origin = 'https://site.invalid';
  const facts = new Map<string, PageFacts>();
  const factsOf = (file: string): PageFacts | null => {
    const html = site.pages.get(file);
    if (html === undefined) return null;
    if (!facts.has(file)) facts.set(file, pageFacts(html));
    return facts.get(file)!;
  };
  const broken: BrokenLink[] = [];
  for (const page of [...site.pages.keys()].sort()) {
    const pageUrl = new URL(`${base}${urlPathOf(page)}`, origin);
    for (const href of factsOf(page)!.links) {
      let url: URL;
      try {
        const own = site.siteOrigin && href.startsWith(`${site.siteOrigin}/`) ? origin + href.slice(site.siteOrigin.length) : href;
        url = new URL(own, pageUrl);
      } catch {
        broken.push({ page, href, reason: 'is not a valid URL' });
        continue;
      }
      if (url.origin !== origin) continue; // another site, mailto:, data: …
      const report = (reason: string) => broken.push({ page, href, reason });
      if (base && url.pathname !== base && !url.pathname.startsWith(`${base}/`)) {
        report(`leaves the base path ${base}`);
        continue;
      }
      let path: string;
      try {
        path = decodeURIComponent(url.pathname.slice(base.length) || '/');
      } catch {
        report('has a malformed percent-encoding');
        continue;
      }
      const target = fileForPath(path, site.files);
      if (target === null) {
        broken.push({ page, href, path, reason: `names ${path}, which the site does not have` });
        continue;
      }
      if (url.hash.length > 1 && target.endsWith('.html')) {
        const targetFacts = factsOf(target);
        const id = decodeURIComponent(url.hash.slice(1));
        if (targetFacts && !targetFacts.ids.has(id)) broken.push({ page, href, path, reason: `names #${id}, which ${urlPathOf(target)} does not have` });
      }
    }
  }
  return broken;
}

/** Reads a built site for `findBrokenLinks`: all files, and the HTML of every page. */
export function readSite(root: string, files: string[], options: { basePath?: string; siteOrigin?: string } = {}): SiteFiles {
  const pages = new Map<string, string>();
  for (const f of files) if (f.endsWith('.html')) pages.set(f, readFileSync(`${root}/${f}`, 'utf8'));
  return { files: new Set(files), pages, ...options };
}

/** Reads the built site in `dir` and returns its broken internal links. */
export function checkSite(dir: string, options: { basePath?: string; siteOrigin?: string } = {}): BrokenLink[] {
  return findBrokenLinks(readSite(dir, listFilesBelow(dir), options));
}
