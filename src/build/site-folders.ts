/**
 * The folders of a site being built: the build's own working folder beside the output folder (staging,
 * the stages' folders, the snapshot), where each render partition's process writes its pages, and how
 * a folder is moved or merged into the site (the render processes, the record files, publish).
 *
 * Every working folder is the build's own, named by its pid, so that nothing a build writes can be
 * read or removed by another; those of builds that crashed are removed by the next build (under the
 * output folder's lock, src/build/lock.ts, no other build of that folder runs).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** A build's working folders: beside the output folder (the same file system, so publishing is renames). */
export interface WorkDirs {
  /** The build's own folder, holding all the others. */
  root: string;
  /** The site being built, swapped in by publish. */
  staging: string;
  /** The error pages the published site lends, linked while the render runs, then the staging folder (src/build/reused-pages.ts). */
  reused: string;
  /** What the stages beside the render write, each merged into staging by publish. */
  fullText: string;
  messageIndex: string;
  recordFiles: string;
  listIndex: string;
  /** The validated catalog as the later stages read it (src/catalog/snapshot.ts). */
  snapshots: string;
}

const WORK_PREFIX = '.build-';

export function workDirs(outDir: string, pid: number = process.pid): WorkDirs {
  const root = `${outDir}${WORK_PREFIX}${pid}`;
  return { root, staging: join(root, 'staging'), reused: join(root, 'reused'), fullText: join(root, 'pagefind'), messageIndex: join(root, 'index'), recordFiles: join(root, 'records'), listIndex: join(root, 'lists'), snapshots: join(root, 'snapshots') };
}

/**
 * Removes what builds of `outDir` that did not end left beside it: their working folders, and old
 * sites a detached delete did not finish. Call with the output folder's lock held.
 */
export function removeStaleWorkDirs(outDir: string): string[] {
  const parent = dirname(outDir);
  const name = basename(outDir);
  const ours = basename(workDirs(outDir).root);
  const stale = existsSync(parent)
    ? readdirSync(parent).filter((f) => f !== ours && (f.startsWith(`${name}${WORK_PREFIX}`) || f.startsWith(`${name}.previous-`)))
    : [];
  // An old site may be large, and a detached delete may be removing it still: it is left to another.
  for (const f of stale) {
    if (f.startsWith(`${name}.previous-`)) removeInBackground(join(parent, f));
    else rmSync(join(parent, f), { recursive: true, force: true });
  }
  return stale;
}

/** Deletes a folder from a detached process that outlives this one. */
export function removeInBackground(dir: string): void {
  const code = 'require("node:fs").rmSync(process.argv[1], { recursive: true, force: true })';
  spawn(process.execPath, ['-e', code, dir], { detached: true, stdio: 'ignore' }).unref();
}

/** Removes the render folders (.errdex/render/<pid>) of builds whose process is gone. */
export function removeStaleRenderDirs(): void {
  const root = resolve('.errdex/render');
  if (!existsSync(root)) return;
  for (const f of readdirSync(root)) {
    const pid = Number(f);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') rmSync(join(root, f), { recursive: true, force: true });
    }
  }
}

// Each partition renders into a folder below the working folder: Astro puts its server bundle inside the
// output folder only when that is below the working folder (the bundle must find node_modules), and
// otherwise into one shared ./.astro/, where partitions running side by side would delete each other's.
export const renderWorkDir = (): string => resolve('.errdex/render', String(process.pid));
/** The folder a partition's render process writes its pages to, until they are merged into the site. */
export const renderSiteDir = (p: { index: number }): string => join(renderWorkDir(), `partition-${p.index}`);

/** Renames a folder; copies it when the destination is on another file system. */
export function moveTree(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  try {
    renameSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    cpSync(from, to, { recursive: true });
  }
}

/**
 * Moves what `from` holds into `into`. Folders only one side has are moved whole; files both have
 * (fixed pages every partition renders, such as the home page, and the shared assets) are kept from `into`.
 */
export function mergeInto(from: string, into: string): void {
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    const dest = join(into, name);
    if (!existsSync(dest)) renameSync(src, dest);
    else if (lstatSync(src).isDirectory() && lstatSync(dest).isDirectory()) mergeInto(src, dest);
  }
}
