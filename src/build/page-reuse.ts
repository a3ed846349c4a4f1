/**
 * The page cache, build side (the render side is src/catalog/page-cache.ts).
 *
 * After a build is published, the keys of its error pages (and of its full-text index's parts:
 * src/build/search-index.ts) are written to `pages.json` in the build cache, with the key of the
 * code that rendered them, and those files are kept in the cache too (`site/`, hard links to the
 * published files: no extra disk). The next build hands those keys to its render processes when the
 * code is the same; they leave the unchanged files out, and this module links them from the cache's
 * copy into the new site (a hard link: a published file is never written to, and the old site's
 * folder is deleted by name only, so the new site keeps the data). So the build cache folder alone
 * is what a CI must keep between runs for page reuse (docs/deploy.md), wherever the checkout is.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { PageLogLine } from '../catalog/page-cache.ts';
import { listFilesBelow } from '../util/files.ts';

interface PageManifest {
  /** Key of the code that rendered the site (codeKey). */
  code: string;
  /** The folder the site was published to (for information: the files are reused from the cache's copy, keptSite). */
  site: string;
  /** Path in the site -> key. */
  files: Record<string, string>;
}

const manifestFile = (cacheDir: string): string => join(cacheDir, 'pages.json');
/** The cache's copy of the last published site's reusable files: its error pages and full-text index. */
export const keptSite = (cacheDir: string): string => join(cacheDir, 'site');

/**
 * Everything that shapes a page besides its record and the site settings: the project's source,
 * configuration and locked dependencies. Any change there renders every page again.
 */
export function codeKey(root = resolve('.')): string {
  const hash = createHash('sha1');
  const add = (path: string) => {
    hash.update(path).update('\0').update(readFileSync(join(root, path))).update('\0');
  };
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) add(path);
    }
  };
  walk('src');
  for (const file of ['astro.config.mjs', 'errdex.config.mjs', 'package-lock.json', 'tsconfig.json']) if (existsSync(join(root, file))) add(file);
  return hash.digest('hex');
}

/** What the last published site holds: its folder and its files' keys. */
export interface PublishedSite {
  site: string;
  /** Path in the site -> key. */
  keys: Record<string, string>;
}

/**
 * The last published site's keys, and the cache's copy of its files to link them from; null when
 * nothing can be reused: no earlier build recorded, other code, the copy gone, or --no-cache (`force`).
 */
export function publishedSite(options: { cacheDir: string; code: string; force: boolean }): PublishedSite | null {
  const file = manifestFile(options.cacheDir);
  const kept = keptSite(options.cacheDir);
  if (options.force || !existsSync(file) || !existsSync(kept)) return null;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as PageManifest;
  if (manifest.code !== options.code) return null;
  return { site: kept, keys: manifest.files };
}

/**
 * Keeps the reusable files of the site just published in the cache (`keptSite`): the files and
 * folders (a path ending in '/': the full-text index's parts) that `keys` names, hard-linked from
 * `site`. Made beside the old copy and renamed into place.
 */
export function keepReusable(site: string, keys: Record<string, string>, cacheDir: string): void {
  const kept = keptSite(cacheDir);
  const next = `${kept}.next-${process.pid}`;
  const old = `${kept}.old-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  const files = new Set<string>();
  for (const path of Object.keys(keys)) {
    if (!path.endsWith('/')) files.add(path);
    else for (const f of listFilesBelow(join(site, path))) files.add(`${path}${f}`);
  }
  linkReused([...files].filter((f) => existsSync(join(site, f))), site, next);
  mkdirSync(next, { recursive: true });
  if (existsSync(kept)) renameSync(kept, old);
  renameSync(next, kept);
  rmSync(old, { recursive: true, force: true });
}

/** What lets render processes reuse the published site's pages (its folder, and its keys written to a file), or null. */
export function reuseFiles(published: PublishedSite | null, cacheDir: string): { site: string; keys: string } | null {
  if (!published) return null;
  const keys = join(cacheDir, 'pages.previous-keys.json');
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(keys, JSON.stringify(published.keys));
  return { site: published.site, keys };
}

/** The page logs of all render processes, merged. */
export function readPageLogs(logFiles: readonly string[]): { keys: Record<string, string>; reused: string[] } {
  const keys: Record<string, string> = {};
  const reused = new Set<string>();
  for (const file of logFiles) {
    if (!existsSync(file)) continue;
    for (const text of readFileSync(file, 'utf8').split('\n')) {
      if (!text) continue;
      const line = JSON.parse(text) as PageLogLine;
      Object.assign(keys, line.keys);
      for (const f of line.reused) reused.add(f);
    }
  }
  return { keys, reused: [...reused].sort() };
}

/** Links each reused file from the published site into the new one (a copy across file systems). */
export function linkReused(files: readonly string[], from: string, into: string): void {
  const made = new Set<string>();
  for (const file of files) {
    const target = join(into, file);
    const dir = dirname(target);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    try {
      linkSync(join(from, file), target);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw new Error(`Could not reuse ${file} of the published site: ${(e as Error).message}`);
      copyFileSync(join(from, file), target);
    }
  }
}

export function forgetPageManifest(cacheDir: string): void {
  rmSync(manifestFile(cacheDir), { force: true });
}

/** Records the keys of the site just published, for the next build. */
export function writePageManifest(cacheDir: string, manifest: PageManifest): void {
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(manifestFile(cacheDir), JSON.stringify(manifest));
}
