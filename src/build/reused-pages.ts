/**
 * The error pages a render process leaves to the published site (src/catalog/page-cache.ts), linked
 * into the new site by a child process while the render process renders the others. A render process
 * tells the build when it has listed its pages (its page log holds which are reused: a `listed`
 * message, src/context.ts). Linked after the render instead, a link and a folder per page held up the
 * build's path for seconds per 40,000 pages, with a core left idle beside it.
 *
 * Or, when the plan says so (src/build/plan.ts `linkAhead`), every error page the published site holds
 * is linked from the build's start, before validation has read the catalog, and once the render has
 * listed its pages the ones it did not reuse are removed (`pruneAhead`): a merge reuses every page and
 * an edit all but a few, so the links, a folder each, no longer wait for the render to list them.
 */
import { readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PAGEFIND_DIR } from './pagefind-bundle.ts';
import { linkReused, readPageLogs } from './page-reuse.ts';
import { childMain, startStageChild } from './protocol.ts';

interface LinkOptions {
  /** A render process's page log (src/catalog/page-cache.ts `PageLogLine`). */
  pageLog?: string;
  /** Or the published site's keys (src/build/page-reuse.ts `reuseFiles`): every error page it holds. */
  keys?: string;
  /** The published site, which lends the pages. */
  site: string;
  /** The folder they are linked into (render-processes.ts merges the rendered pages into it). */
  into: string;
}

/** The error pages among the published site's keyed files: all but the full-text index's parts. */
export function publishedPages(keysFile: string): string[] {
  return Object.keys(JSON.parse(readFileSync(keysFile, 'utf8')) as Record<string, string>).filter((path) => !path.startsWith(`${PAGEFIND_DIR}/`));
}

/** Starts linking the pages `pageLog` says are reused, or, given `keys`, every page the published site holds; resolves with how many. */
export function linkListedPages(options: LinkOptions & ({ pageLog: string } | { keys: string }), low = false): { result: Promise<number>; kill: () => void } {
  return startStageChild<number>(import.meta.url, options, () => {}, 'linking the unchanged error pages', { priority: low ? 'low' : 'normal' });
}

/**
 * Removes from `into` the pages linked ahead (all of `keysFile`'s) that the render did not reuse, and
 * the folders that leaves empty: what remains is `reused`, as if those alone had been linked.
 */
export function pruneAhead(keysFile: string, reused: readonly string[], into: string): number {
  const kept = new Set(reused);
  let removed = 0;
  for (const path of publishedPages(keysFile)) {
    if (kept.has(path)) continue;
    rmSync(join(into, path));
    removed++;
    for (let dir = dirname(path); dir !== '.'; dir = dirname(dir)) {
      try {
        rmdirSync(join(into, dir));
      } catch {
        break;
      }
    }
  }
  return removed;
}

childMain(import.meta.url, async (options: LinkOptions) => {
  const files = options.keys ? publishedPages(options.keys) : readPageLogs([options.pageLog!]).reused;
  linkReused(files, options.site, options.into);
  return files.length;
});
