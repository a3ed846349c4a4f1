/**
 * The page cache, render side: errdex's own incremental build for the error pages, one per record.
 * (A record's JSON twin and short link are written by the build script every time: scripts/lib/record-files.ts.)
 *
 * Each such file has a key (src/catalog/shard.ts, recordCacheKey: the record's text, what the page
 * shows of other records, the site settings). When the last published site holds the file under the
 * same key, and the code that renders it is unchanged, the render process leaves it out of Astro's
 * routes and the build script links the published file into the new site instead
 * (scripts/lib/page-reuse.ts). A rebuild then costs Astro only the pages that changed.
 *
 * The build script passes, through the environment:
 *  - ERRDEX_PAGE_MANIFEST: the keys of the last published site's files (JSON: path -> key), only
 *    when that site and the code that rendered it can be reused;
 *  - ERRDEX_PREVIOUS_SITE: that site's folder;
 *  - ERRDEX_PAGE_LOG: where this process appends each file's key and whether it was reused.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PageFile<T> {
  /** The route Astro renders when the file cannot be reused. */
  route: T;
  /** The file's path in the site folder, as Astro writes it: `e/{id}/index.html`. */
  file: string;
  key: string;
}

/** One line of a page log: the keys of the files a route covers, and the files reused. */
export interface PageLogLine {
  keys: Record<string, string>;
  reused: string[];
}

let previous: { keys: Map<string, string>; site: string } | null | undefined;

function previousSite(env: NodeJS.ProcessEnv): typeof previous {
  if (previous !== undefined) return previous;
  const manifest = env.ERRDEX_PAGE_MANIFEST;
  const site = env.ERRDEX_PREVIOUS_SITE;
  previous =
    manifest && site && existsSync(manifest)
      ? { keys: new Map(Object.entries(JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, string>)), site }
      : null;
  return previous;
}

/**
 * The routes to render: those whose file the last published site does not hold under the same key.
 * Every file's key, and which were reused, go to the page log for the build script.
 */
export function routesToRender<T>(files: readonly PageFile<T>[], env: NodeJS.ProcessEnv = process.env): T[] {
  const prev = previousSite(env);
  const line: PageLogLine = { keys: {}, reused: [] };
  const render: T[] = [];
  for (const f of files) {
    line.keys[f.file] = f.key;
    if (prev && prev.keys.get(f.file) === f.key && existsSync(join(prev.site, f.file))) line.reused.push(f.file);
    else render.push(f.route);
  }
  if (env.ERRDEX_PAGE_LOG) appendFileSync(env.ERRDEX_PAGE_LOG, `${JSON.stringify(line)}\n`);
  return render;
}
