/**
 * The page cache, build side (the render side is src/catalog/page-cache.ts).
 *
 * After a build is published, the keys of its error pages (and of its full-text index's parts:
 * src/build/search-index.ts) are written to `pages.json` in the build cache, with the key of the
 * code that rendered them and a proof of each published file (its content hash and identity:
 * src/build/file-proofs.ts), and those files are kept in the cache too (`site/`: hard links to the
 * published files, no extra disk). The next build hands those keys to its render processes when the
 * code is the same, for the files whose kept copy is still the one recorded: a cache restored from
 * elsewhere lends only what it proves. The render processes leave the unchanged files out, and this
 * module links them from the cache's copy into the new site (a hard link: a published file is never
 * written to, and the old site's folder is deleted by name only, so the new site keeps the data).
 * So the build cache folder alone is what a CI must keep between runs for page reuse
 * (docs/deploy.md), wherever the checkout is: nothing in it names an absolute path that is read.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageLogLine } from '../catalog/page-cache.ts';
import { proofHolds, proofOf, writtenProof, type FileProof, type OwnFiles } from './file-proofs.ts';
import { PAGEFIND_DIR, PAGEFIND_PARTS_FILE, PART_DIR } from './pagefind-bundle.ts';
import { listFilesBelow, writeFileAtomic } from '../util/files.ts';
import { fileHead, type PageHead, type RenderedPages } from './rendered-pages.ts';

export interface PageManifest {
  /** Key of the code that rendered the site (codeKey). */
  code: string;
  /** The folder the site was published to (for information: files are reused from the cache's copy, keptSite). */
  site: string;
  /** Path in the site -> key. */
  files: Record<string, string>;
  /** Path in the site -> what the published copy was (absent in a manifest of an older errdex: nothing is reused). */
  proofs?: Record<string, FileProof>;
  /** Path in the site -> the page's head, of the HTML pages among them: a reused page's title without reading it. */
  heads?: Record<string, PageHead>;
}

/** The page manifest of a build cache, or of a shard's folder (src/build/merge.ts). */
export const manifestFile = (cacheDir: string): string => join(cacheDir, 'pages.json');
/** The cache's copy of the last published site's reusable files: its error pages and full-text index. */
export const keptSite = (cacheDir: string): string => join(cacheDir, 'site');

/** errdex's own folder: this checkout, or the installed package (two folders above this module). */
const ERRDEX_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Everything that shapes a page besides its record and the site settings (which hold the project's
 * overrides' hashes: src/build/project.ts): errdex's source and configuration, and the locked
 * dependencies, errdex's own and the project's (`project`, the working folder). Any change there
 * renders every page again.
 */
export function codeKey(project = resolve('.'), root = ERRDEX_ROOT): string {
  const hash = createHash('sha1');
  const add = (dir: string, path: string) => {
    hash.update(path).update('\0').update(readFileSync(join(dir, path))).update('\0');
  };
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) add(root, path);
    }
  };
  walk('src');
  for (const file of ['astro.config.mjs', 'errdex.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json']) if (existsSync(join(root, file))) add(root, file);
  // An installed errdex: the versions the project's lockfile pins (errdex's dependencies among them).
  if (resolve(project) !== resolve(root) && existsSync(join(project, 'package-lock.json'))) add(project, 'package-lock.json');
  return hash.digest('hex');
}

/** A page manifest (`pages.json`: the build cache's, or a shard's), or null when it is missing or unreadable. */
export function readManifest(file: string): PageManifest | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PageManifest;
  } catch {
    return null;
  }
}

/** Writes the page manifest of a build cache (or a shard's folder), whole or not at all. */
export function writeManifest(cacheDir: string, manifest: PageManifest): void {
  mkdirSync(cacheDir, { recursive: true });
  writeFileAtomic(manifestFile(cacheDir), JSON.stringify(manifest));
}

/** What the last published site holds: the cache's copy of its files, and the keys and proofs of those that are as recorded. */
export interface PublishedSite {
  site: string;
  /** Path in the site -> key. */
  keys: Record<string, string>;
  proofs: Record<string, FileProof>;
  /** The heads of the HTML pages among them, where the manifest has them. */
  heads: Record<string, PageHead>;
  /** Files the manifest lists whose kept copy is missing or another (rendered again). */
  unproven: number;
  /** Every path the manifest lists, proven or not: what the kept copy may hold. */
  listed: string[];
  /** Of the proven paths, those proven by their identity: their proof still states the kept copy exactly. */
  identical: Set<string>;
}

/** The files of a site path that its proof covers: a full-text index's root part is not the parts inside it. */
export const notOwnOf = (sitePath: string): OwnFiles | undefined =>
  sitePath === `${PAGEFIND_DIR}/` ? (f) => f === PAGEFIND_PARTS_FILE || PART_DIR.test(f) : undefined;

/**
 * The last published site's keys, of the files whose copy kept in the cache is the one recorded;
 * null when nothing can be reused: no earlier build recorded, other code, the copy gone, an
 * unreadable manifest, or --no-cache (`force`).
 */
export function publishedSite(options: { cacheDir: string; code: string; force: boolean }): PublishedSite | null {
  const file = manifestFile(options.cacheDir);
  const kept = keptSite(options.cacheDir);
  if (options.force || !existsSync(kept)) return null;
  const manifest = readManifest(file);
  if (!manifest || manifest.code !== options.code) return null;
  const keys: Record<string, string> = {};
  const proofs: Record<string, FileProof> = {};
  const heads: Record<string, PageHead> = {};
  const identical = new Set<string>();
  let unproven = 0;
  for (const [path, key] of Object.entries(manifest.files)) {
    const proof = manifest.proofs?.[path];
    const holds = proofHolds(join(kept, path), proof, notOwnOf(path));
    if (holds) {
      keys[path] = key;
      proofs[path] = proof!;
      if (holds === 'identity') identical.add(path);
      const head = manifest.heads?.[path];
      if (head) heads[path] = head;
    } else unproven++;
  }
  return { site: kept, keys, proofs, heads, unproven, listed: Object.keys(manifest.files), identical };
}

/**
 * What a build changed of the kept copy's site: the paths the previous manifest listed, and those this
 * build linked from the kept copy unchanged (reused error pages and full-text parts). With it, bringing
 * the copy up to date touches what changed only, not every file of the site.
 */
export interface KeptChanges {
  listed: readonly string[];
  unchanged: ReadonlySet<string>;
}

/** A build's changes to the kept copy: what it reused of `published` (null: nothing, and the copy is gone through whole). */
export function keptChanges(published: PublishedSite | null, reused: Iterable<string>): KeptChanges | null {
  return published ? { listed: published.listed, unchanged: new Set(reused) } : null;
}

/**
 * Keeps the reusable files of the site just published in the cache (`keptSite`): the files and
 * folders (a path ending in '/': the full-text index's parts) that `keys` names, hard-linked from
 * `site`. A copy already there is brought up to date in place: a file that is already a link of the
 * published one stays, another is replaced, and what is no longer reusable goes, with the folders it
 * leaves empty. Made anew, the copy took a new folder per error page, the dearest of file operations
 * on this project's machine, and the old copy was deleted folder by folder (docs/benchmarks.md, "Links,
 * not new files"). The caller forgets the page manifest first: a copy left half updated by a crash is
 * trusted only where a later manifest's proofs hold.
 *
 * With `changes` (a build that reused the copy's files), only the paths it did not link from the copy
 * unchanged are gone through: those it made anew and those the previous manifest listed that are no
 * longer reusable. A reused file is a link of the copy's, so its copy is already the published file.
 */
export function keepReusable(site: string, keys: Record<string, string>, cacheDir: string, changes: KeptChanges | null = null): void {
  const kept = keptSite(cacheDir);
  if (changes && existsSync(kept)) {
    keepChanged(site, keys, kept, changes);
    return;
  }
  const files = new Set(Object.keys(keys).flatMap((path) => filesOf(site, path)));
  // Each reusable file of the site, with its identity: stat once, for the filter and the comparison.
  const sources = new Map<string, Stats>();
  for (const f of files) {
    const st = statSync(join(site, f), { throwIfNoEntry: false });
    if (st) sources.set(f, st);
  }
  const present = [...sources.keys()];
  if (!existsSync(kept)) {
    const next = `${kept}.next-${process.pid}`;
    rmSync(next, { recursive: true, force: true });
    linkReused(present, site, next);
    mkdirSync(next, { recursive: true });
    renameSync(next, kept);
    return;
  }
  const emptied = new Set<string>();
  for (const f of listFilesBelow(kept)) {
    if (sources.has(f)) continue;
    rmSync(join(kept, f), { force: true });
    emptied.add(dirname(f));
  }
  const missing: string[] = [];
  for (const [f, source] of sources) {
    const copy = lstatSync(join(kept, f), { throwIfNoEntry: false });
    if (copy?.ino === source.ino && copy.dev === source.dev) continue;
    if (copy) rmSync(join(kept, f), { recursive: true, force: true });
    missing.push(f);
  }
  linkReused(missing, site, kept);
  removeEmptyFolders(kept, emptied);
}

/** The files of a site path in `root`: the file, or a folder's (a full-text part's) own files, as its proof counts them. */
const filesOf = (root: string, path: string): string[] => (path.endsWith('/') ? listFilesBelow(join(root, path), notOwnOf(path)).map((f) => `${path}${f}`) : [path]);

/** keepReusable for the paths a build changed: each one's copy removed, and linked again when it is still reusable. */
function keepChanged(site: string, keys: Record<string, string>, kept: string, changes: KeptChanges): void {
  const reusable = new Set(Object.keys(keys));
  const changed = [...[...reusable].filter((p) => !changes.unchanged.has(p)), ...changes.listed.filter((p) => !reusable.has(p))];
  const emptied = new Set<string>();
  const link: string[] = [];
  for (const path of changed) {
    for (const f of filesOf(kept, path)) {
      rmSync(join(kept, f), { force: true });
      emptied.add(dirname(f));
    }
    if (reusable.has(path)) link.push(...filesOf(site, path).filter((f) => existsSync(join(site, f))));
  }
  linkReused(link, site, kept);
  removeEmptyFolders(kept, emptied);
}

/** Removes each of `dirs` (relative to `root`) that is empty, and then its parents that are left empty. */
function removeEmptyFolders(root: string, dirs: ReadonlySet<string>): void {
  for (let dir of [...dirs].sort((a, b) => b.length - a.length)) {
    while (dir !== '.' && dir !== '') {
      try {
        rmdirSync(join(root, dir));
      } catch {
        break;
      }
      dir = dirname(dir);
    }
  }
}

/**
 * What lets render processes reuse the published site's pages (its folder, and its keys written to a
 * file in the build's working folder `workDir`), or null.
 */
export function reuseFiles(published: PublishedSite | null, workDir: string): { site: string; keys: string } | null {
  if (!published) return null;
  const keys = join(workDir, 'previous-keys.json');
  mkdirSync(workDir, { recursive: true });
  writeFileSync(keys, JSON.stringify(published.keys));
  return { site: published.site, keys };
}

/**
 * The identities (`dev:ino`) of the files `publishedSite` proved by their identity, written to a file in
 * `workDir` (a line `path<TAB>dev:ino` each) for the process that places the reused pages in the
 * standby's folders (src/build/reused-pages.ts): a page there that has its published file's identity is
 * in place, known without a `stat` of the published copy. Null when no site was published.
 */
export function writeIdentities(published: PublishedSite | null, workDir: string): string | null {
  if (!published) return null;
  const file = join(workDir, 'previous-identities.tsv');
  const lines: string[] = [];
  for (const path of published.identical) {
    const stat = published.proofs[path]!.stat;
    // A folder's proof (a full-text part) is a hash of its files' identities, no file's: left out.
    if (!path.endsWith('/')) lines.push(`${path}\t${stat.slice(0, stat.indexOf(':', stat.indexOf(':') + 1))}\n`);
  }
  mkdirSync(workDir, { recursive: true });
  writeFileSync(file, lines.join(''));
  return file;
}

/** The identities `writeIdentities` wrote: path -> `dev:ino`. */
export function readIdentities(file: string): Map<string, string> {
  const identities = new Map<string, string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) identities.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return identities;
}

/**
 * The whole lines of a render process's page log (none when it has none). A line is appended whole, but
 * may be read while it is being written (the early link reads the log as the render goes on): the text
 * after the last line break is not a line yet.
 */
export function readPageLog(file: string): PageLogLine[] {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.pop();
  return lines.filter(Boolean).map((text) => JSON.parse(text) as PageLogLine);
}

/** The page logs of all render processes, merged; `several`: how many of the keys, and of the reused, are of pages of several records (a listing's, a message page). */
export function readPageLogs(logFiles: readonly string[]): { keys: Record<string, string>; reused: string[]; several: { keys: number; reused: number } } {
  const keys: Record<string, string> = {};
  const reused = new Set<string>();
  const several = { keys: 0, reused: 0 };
  for (const line of logFiles.flatMap(readPageLog)) {
    Object.assign(keys, line.keys);
    if (line.kind === 'several') {
      several.keys += Object.keys(line.keys).length;
      several.reused += line.reused.length;
    }
    for (const f of line.reused) reused.add(f);
  }
  return { keys, reused: [...reused].sort(), several };
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

/**
 * The head of each HTML page among the site's reusable files (`paths`): as its render process noted
 * it (`written`), else as the manifest it was reused under recorded it, else read from the page.
 */
export function reusableHeads(site: string, paths: readonly string[], written: RenderedPages, previous: PublishedSite | null): Record<string, PageHead> {
  const heads: Record<string, PageHead> = {};
  for (const path of paths) if (path.endsWith('.html')) heads[path] = written.heads[path] ?? previous?.heads[path] ?? fileHead(join(site, path));
  return heads;
}

/**
 * Records the keys of the site just published and a proof of each of its files, for the next build,
 * without reading back what is known: the proofs of reused files, unchanged on disk, are carried over
 * from `previous`, and the content hash of a file rendered now is the one its render process took of
 * the bytes it wrote (`written`). Other files (the full-text index's parts) are read. A file linked
 * from the kept copy unchanged (`unchanged`) whose proof held by identity keeps that proof as it is:
 * a link has the identity of the file it links, so its identity is not even read.
 */
export function writePageManifest(cacheDir: string, published: Omit<PageManifest, 'proofs'>, previous: PublishedSite | null, written: RenderedPages, unchanged: ReadonlySet<string> = new Set()): void {
  const proofs: Record<string, FileProof> = {};
  for (const path of Object.keys(published.files)) {
    const known = previous?.proofs[path];
    if (known && unchanged.has(path) && previous!.identical.has(path)) {
      proofs[path] = known;
      continue;
    }
    const sha256 = written.sha256[path];
    const file = join(published.site, path);
    proofs[path] = sha256 === undefined ? proofOf(file, known, notOwnOf(path)) : writtenProof(file, sha256);
  }
  writeManifest(cacheDir, { ...published, proofs });
}
