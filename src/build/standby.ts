/**
 * The standby: the site a build replaced, kept beside the output folder (`dist.standby`) instead of
 * deleted, so that the next build fills its folders in place rather than making new ones.
 *
 * A new folder is the dearest file operation on this project's machine (docs/benchmarks.md, "Links, not
 * new files"), and a site has one for every error page and every short link; deleting the replaced site
 * file by file in the background keeps a core busy long after a large catalog's edit. After a build that reused
 * the published site, the site it replaced differs from the new one by that build's changes only: its
 * unchanged files are links of the new site's (publishing renames folders, and reused files are hard
 * links), so keeping it costs the changed files' bytes.
 *
 * The next build claims the standby under the output folder's lock (a build that fails leaves it to be
 * deleted in the background, as any old site: src/build/site-folders.ts), and a stage takes its folders
 * from it: the record files `api/errors/` and `e/`, the filter indexes `list-index/`, the message index
 * `search-index/`, the render's reused pages the top folders that hold them (an owner's, `classes/`:
 * src/build/reused-pages.ts). A stage trusts none of its files: each is kept only when it is the file
 * the stage's listing proves, or the published page itself (the same identity), else replaced by a new
 * file or link (src/build/unchanged-files.ts, `seeded`), and what the stage does not make is removed.
 * What no stage took is deleted in the background when the build publishes.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { removeInBackground } from './site-folders.ts';

/**
 * The folders the stages beside the render take from the standby: the record files', the filter
 * indexes' and the message index's (src/build/stages/record-files.ts, src/build/stages/list-index.ts,
 * src/build/search-index.ts). The render's reused pages take the other top folders that hold some
 * (`takesTop`).
 */
export const STAGE_FOLDERS: readonly string[] = ['api/errors', 'e', 'list-index', 'search-index'];

/** Whether the render may take the standby's top folder `name` (none another stage takes, nor one holding one). */
export const takesTop = (name: string): boolean => !STAGE_FOLDERS.some((f) => f === name || f.startsWith(`${name}/`));

/** Where the standby is kept between builds: beside the output folder (renames only, one file system). */
export const standbyDir = (outDir: string): string => `${outDir}.standby`;

/** The standby as a build holds it: named like an old site, so that a build which fails leaves it to be deleted. */
export const claimedStandbyDir = (outDir: string, pid: number = process.pid): string => `${outDir}.previous-${pid}-standby`;

/** Claims the standby for this build (call under the output folder's lock): its folder, or null when there is none. */
export function claimStandby(outDir: string): string | null {
  const from = standbyDir(outDir);
  if (!existsSync(from)) return null;
  const to = claimedStandbyDir(outDir);
  renameSync(from, to);
  return to;
}

/**
 * Moves the folder `path` of the claimed standby to `into` (a stage's folder); false when the standby
 * has none (the stage then makes the folder).
 */
export function takeFromStandby(standby: string | null, path: string, into: string): boolean {
  if (standby === null || !existsSync(join(standby, path))) return false;
  mkdirSync(dirname(into), { recursive: true });
  renameSync(join(standby, path), into);
  return true;
}

/**
 * After publishing: the site replaced (`previous`) becomes the standby when `keep` (a build that reused
 * the published site), else it is deleted in the background; what is left of the claimed standby is.
 */
export function keepStandby(outDir: string, previous: string | null, keep: boolean): void {
  const claimed = claimedStandbyDir(outDir);
  if (existsSync(claimed)) removeInBackground(claimed);
  if (previous === null) return;
  if (keep && !existsSync(standbyDir(outDir))) renameSync(previous, standbyDir(outDir));
  else removeInBackground(previous);
}

/**
 * Removes from `dir`, a folder taken from the standby, every file whose path below it is not in `made`
 * (paths joined by '/'), and the folders that leaves empty. Returns how many files are left.
 */
export function keepOnly(dir: string, made: ReadonlySet<string>, prefix = ''): number {
  let left = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${prefix}${entry.name}`;
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) {
      const kept = keepOnly(abs, made, `${path}/`);
      if (kept === 0) rmdirSync(abs);
      left += kept;
    } else if (made.has(path)) left++;
    else rmSync(abs, { force: true });
  }
  return left;
}
