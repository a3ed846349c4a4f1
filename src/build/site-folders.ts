/**
 * The folders of a site being built: where each render partition's process writes its pages, and how
 * a folder is moved or merged into the site (the render processes, the record files, publish).
 */
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

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
