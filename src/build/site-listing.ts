/**
 * A site's folders as the build that published it read them: each folder's entries, with the identity
 * the folder had when they were read (device, inode, change and modification times). Adding, removing
 * or renaming an entry changes a folder's times, so a folder that still has the identity recorded
 * still has the entries recorded, and a later build takes them from the record instead of reading the
 * folder again.
 *
 * Why: an edit's build fills the standby's folders in place (src/build/standby.ts), some 100,000 of
 * them at 100k records, and by then the kernel has often dropped them from its caches: reading them
 * again cost seconds of CPU beside the path, where a `stat` of each costs a tenth of that
 * (docs/benchmarks.md, "Standby folders known from the record"). Publishing walks the site and writes the
 * record (`site-listing.json` in the build cache); when the site it replaced becomes the standby, so
 * does that site's record (`standby-listing.json`), which the next build reads.
 *
 * A record is never trusted beyond the identity: a folder changed since (a file dropped into the
 * published site, a standby folder a stage filled) is read again. Only a change within the clock tick
 * of the folder's `stat`, on a file system whose times are coarse, would go unseen; nothing writes
 * into a site's folders while its build reads them.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFile } from '../util/files.ts';

/** An entry: its kind ('d' folder, 'f' file, 'o' anything else: a link, a socket) then its name. */
export type ListedEntry = string;

export interface ListedFolder {
  /** `dev:ino:ctimeNs:mtimeNs`, taken before the entries were read. */
  id: string;
  entries: ListedEntry[];
}

/** Folders by their path in the site ('' the site's own, 'acme/cli' below it). */
export type SiteListing = Map<string, ListedFolder>;

export const siteListingFile = (cacheDir: string): string => join(cacheDir, 'site-listing.json');
export const standbyListingFile = (cacheDir: string): string => join(cacheDir, 'standby-listing.json');

export const isFolder = (entry: ListedEntry): boolean => entry.charCodeAt(0) === 100; // 'd'
export const isFile = (entry: ListedEntry): boolean => entry.charCodeAt(0) === 102; // 'f'
export const nameOf = (entry: ListedEntry): string => entry.slice(1);

/** The identity a folder has now; null when it is no folder. */
function folderId(dir: string): string | null {
  const st = lstatSync(dir, { throwIfNoEntry: false, bigint: true });
  return st?.isDirectory() ? `${st.dev}:${st.ino}:${st.ctimeNs}:${st.mtimeNs}` : null;
}

function readEntries(dir: string): ListedEntry[] {
  return readdirSync(dir, { withFileTypes: true }).map((e) => `${e.isDirectory() ? 'd' : e.isFile() ? 'f' : 'o'}${e.name}`);
}

/**
 * The entries of the folder `dir` (at `path` in its site): those `known` records when the folder has
 * the identity recorded, else read. `out`, when given, records them with the identity the folder had
 * before they were read.
 */
export function listFolder(dir: string, path: string, known?: SiteListing, out?: SiteListing): ListedEntry[] {
  const id = known || out ? folderId(dir) : null;
  const recorded = id === null ? undefined : known?.get(path);
  const entries = recorded && recorded.id === id ? recorded.entries : readEntries(dir);
  if (out && id !== null) out.set(path, { id, entries });
  return entries;
}

/** The record in `file`; empty when there is none or it cannot be read (every folder is then read). */
export function readListing(file: string | null): SiteListing {
  if (file === null || !existsSync(file)) return new Map();
  try {
    const { folders } = JSON.parse(readFileSync(file, 'utf8')) as { folders: Record<string, [string, ...ListedEntry[]]> };
    return new Map(Object.entries(folders).map(([path, [id, ...entries]]) => [path, { id, entries }]));
  } catch {
    return new Map();
  }
}

function writeListing(file: string, listing: SiteListing): void {
  const folders: Record<string, [string, ...ListedEntry[]]> = {};
  for (const [path, { id, entries }] of listing) folders[path] = [id, ...entries];
  // A record torn by a crash is unreadable, and every folder is then read.
  replaceFile(file, JSON.stringify({ folders }));
}

/**
 * After publishing: the published site's record becomes the standby's when the site it describes was
 * kept as the standby (`standbyKept`), else the standby's record goes; `listing` is the new site's.
 */
export function keepListings(cacheDir: string, listing: SiteListing, standbyKept: boolean): void {
  const site = siteListingFile(cacheDir);
  const standby = standbyListingFile(cacheDir);
  if (standbyKept && existsSync(site)) renameSync(site, standby);
  else rmSync(standby, { force: true });
  writeListing(site, listing);
}
