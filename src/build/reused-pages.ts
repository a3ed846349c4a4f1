/**
 * The pages a render process leaves to the published site (src/catalog/page-cache.ts), linked
 * into the new site by a child process while the render process renders the others. A render process
 * tells the build when it has listed its pages (its page log holds which are reused: a `listed`
 * message, src/context.ts). Linked after the render instead, a link and a folder per page held up the
 * build's path for seconds per 40,000 pages, with a core left idle beside it. With a standby, the
 * pages are placed in its folders, most of them there already (`placeFromStandby`).
 */
import { lstatSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { linkReused, readIdentities, readPageLog } from './page-reuse.ts';
import { childMain, startStageChild } from './protocol.ts';
import { keepOnly, takeFromStandby, takesTop } from './standby.ts';

interface LinkOptions {
  /** A render process's page log (src/catalog/page-cache.ts `PageLogLine`). */
  pageLog: string;
  /** The published site, which lends the pages. */
  site: string;
  /** The folder they are linked into (render-processes.ts merges the rendered pages into it). */
  into: string;
  /** The standby this build claimed (src/build/standby.ts), whose folders are filled in place (`placeFromStandby`); null: none. */
  standby: string | null;
  /** The identities the published site's files were proven by (src/build/page-reuse.ts `writeIdentities`); null: none. */
  identities: string | null;
}

/** What a link child did: the pages it placed, the page log's lines it read, and (with a standby) how many pages were in place already. */
export interface LinkResult {
  pages: number;
  lines: number;
  inPlace?: number;
}

/**
 * Starts linking the pages `pageLog` says are reused; resolves with how many, and how many of the log's
 * lines it read: routes the render process lists after it says it has listed its pages (a listing's)
 * are in the lines after those, linked once the render ends (src/build/render-processes.ts).
 */
export function linkListedPages(options: LinkOptions): { result: Promise<LinkResult>; kill: () => void } {
  return startStageChild<LinkResult>(import.meta.url, options, () => {}, 'linking the unchanged error pages');
}

/**
 * Places the reused pages (`reused`, paths in the site) in `into` from the standby's folders: each top
 * folder holding some (an owner's, `classes/`) is taken whole, what in it is no reused page goes, and a
 * page there that is the published one already (the same file, a link of it) stays; the others are
 * linked. A new folder per page is what linking costs most (src/build/standby.ts). Returns how many
 * pages stayed. Pages of other stages' top folders are linked as `linkReused` does.
 *
 * `identities`: the published pages' identities (`dev:ino`) as the build proved them moments before
 * (src/build/page-reuse.ts `publishedSite`), so a page there is compared with its proof, not with a
 * `stat` of the published copy; a page without one is compared with the copy itself.
 */
export function placeFromStandby(reused: readonly string[], site: string, standby: string, into: string, identities: ReadonlyMap<string, string> = new Map()): number {
  const tops = new Set<string>();
  for (const path of reused) {
    const slash = path.indexOf('/');
    if (slash > 0 && takesTop(path.slice(0, slash))) tops.add(path.slice(0, slash));
  }
  const pages = new Set(reused);
  for (const top of tops) if (takeFromStandby(standby, top, join(into, top))) keepOnly(join(into, top), pages, `${top}/`);
  let kept = 0;
  const link: string[] = [];
  for (const path of reused) {
    const target = join(into, path);
    const there = lstatSync(target, { throwIfNoEntry: false, bigint: true });
    if (there) {
      const proven = identities.get(path);
      const source = proven === undefined ? statSync(join(site, path), { throwIfNoEntry: false, bigint: true }) : undefined;
      if (there.isFile() && (proven ?? (source && `${source.dev}:${source.ino}`)) === `${there.dev}:${there.ino}`) {
        kept++;
        continue;
      }
      // Unlinked, never written into: it may be a link of a published page.
      rmSync(target, { recursive: true, force: true });
    }
    link.push(path);
  }
  linkReused(link, site, into);
  return kept;
}

childMain(import.meta.url, async (options: LinkOptions): Promise<LinkResult> => {
  const lines = readPageLog(options.pageLog);
  const reused = [...new Set(lines.flatMap((l) => l.reused))].sort();
  if (options.standby === null) {
    linkReused(reused, options.site, options.into);
    return { pages: reused.length, lines: lines.length };
  }
  const identities = options.identities === null ? undefined : readIdentities(options.identities);
  return { pages: reused.length, lines: lines.length, inPlace: placeFromStandby(reused, options.site, options.standby, options.into, identities) };
});
