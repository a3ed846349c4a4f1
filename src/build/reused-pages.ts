/**
 * The pages a render process leaves to the published site (src/catalog/page-cache.ts), linked
 * into the new site by a child process while the render process renders the others. A render process
 * tells the build when it has listed its pages (its page log holds which are reused: a `listed`
 * message, src/context.ts). Linked after the render instead, a link and a folder per page held up the
 * build's path for seconds per 40,000 pages, with a core left idle beside it.
 */
import { linkReused, readPageLog } from './page-reuse.ts';
import { childMain, startStageChild } from './protocol.ts';

interface LinkOptions {
  /** A render process's page log (src/catalog/page-cache.ts `PageLogLine`). */
  pageLog: string;
  /** The published site, which lends the pages. */
  site: string;
  /** The folder they are linked into (render-processes.ts merges the rendered pages into it). */
  into: string;
}

/**
 * Starts linking the pages `pageLog` says are reused; resolves with how many, and how many of the log's
 * lines it read: routes the render process lists after it says it has listed its pages (a listing's)
 * are in the lines after those, linked once the render ends (src/build/render-processes.ts).
 */
export function linkListedPages(options: LinkOptions): { result: Promise<{ pages: number; lines: number }>; kill: () => void } {
  return startStageChild<{ pages: number; lines: number }>(import.meta.url, options, () => {}, 'linking the unchanged error pages');
}

childMain(import.meta.url, async (options: LinkOptions) => {
  const lines = readPageLog(options.pageLog);
  const reused = [...new Set(lines.flatMap((l) => l.reused))].sort();
  linkReused(reused, options.site, options.into);
  return { pages: reused.length, lines: lines.length };
});
