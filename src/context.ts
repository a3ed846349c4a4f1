/**
 * The render context: everything the build hands a render process, and the one place pages,
 * components and the Astro integration ask for the catalog, its derived data and the routes to render.
 *
 * Under `npm run build` each render process gets one JSON file, named by ERRDEX_CONTEXT and checked
 * here against RenderContext: the validated catalog's snapshot (entries, head, related errors), the
 * process's render partition, where its pages go, and which published pages it may reuse. Anywhere
 * else (`astro dev`) the context is made in process from the catalog folder (ERRDEX_DATA or data/):
 * the catalog loaded and validated, everything in one partition, every page rendered by Astro.
 */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { catalogFromSnapshot, catalogReport, CatalogError, loadCatalog, type Catalog, type CatalogEntry } from './catalog/catalog.ts';
import { deriveCatalog, ledgerPlanFor, type Derived } from './catalog/derive/index.ts';
import { relatedErrors } from './catalog/derive/related.ts';
import type { LedgerPlan } from './catalog/ledger.ts';
import { catalogPath } from './catalog/load.ts';
import { buildDatasetVersion } from './catalog/validate.ts';
import { listingCacheKey, pageFilesToRender, type PageFile } from './catalog/page-cache.ts';
import { entriesIn, inPartition, routesIn, type Partition } from './catalog/partition.ts';
import { readHead, readRelated, readLedgerPlan, wholeEntry as wholeSnapshotEntry, type SnapshotHead } from './catalog/snapshot.ts';
import { CONTEXT_ENV } from './context-env.ts';
import { buildCacheDir, highlightCacheFile } from './highlight/cache.ts';
import { recordScopes } from './views/places.ts';


export const RenderContext = z.strictObject({
  /** The validated catalog (src/catalog/snapshot.ts): its entries, its head, each entry's related errors. */
  snapshot: z.strictObject({ entries: z.string(), head: z.string(), related: z.string() }),
  /** This process's render partition: it renders the error pages of its records and its share of the site-wide pages. */
  partition: z.strictObject({ index: z.int().min(0), count: z.int().min(1) }).refine((p) => p.index < p.count, 'index must be below count'),
  /**
   * A shard's build (src/catalog/shard.ts): the error pages of the records listed in `ids` (a JSON
   * array, written by validation) and nothing else; the merge renders the site-wide pages.
   */
  shard: z.strictObject({ index: z.int().min(0), count: z.int().min(1), ids: z.string() }).nullable(),
  /** Astro's output folder and cache folder for this process. */
  outDir: z.string(),
  astroCacheDir: z.string(),
  /** The highlight cache the build filled before the render (src/highlight/cache.ts). */
  highlightCache: z.string(),
  /** The last published site and its pages' keys (a JSON file), when its unchanged pages may be reused (src/catalog/page-cache.ts). */
  reuse: z.strictObject({ site: z.string(), keys: z.string() }).nullable(),
  /** Where this process appends each error page's key and whether it was reused. */
  pageLog: z.string(),
  /** Started before its input exists: it waits at the gates (src/build/render-gate.ts). */
  gated: z.boolean(),
});
export type RenderContext = z.infer<typeof RenderContext>;

let context: RenderContext | null | undefined;

/** Reads and checks a render context file; a file that is not one throws, saying what is wrong. */
export function readRenderContext(file: string): RenderContext {
  if (!existsSync(file)) throw new Error(`${CONTEXT_ENV} names ${file}, which does not exist`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: not a render context: ${(e as Error).message}`);
  }
  const parsed = RenderContext.safeParse(value);
  if (!parsed.success) throw new Error(`${file}: not a render context:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The build's context of this render process; null outside `npm run build` (`astro dev`). */
export function buildContext(): RenderContext | null {
  if (context !== undefined) return context;
  const file = process.env[CONTEXT_ENV];
  return (context = file ? readRenderContext(file) : null);
}

/** The highlight cache code blocks are read from: the build's, or outside the build the one ERRDEX_CACHE_DIR names. */
export function highlightCache(): string {
  return buildContext()?.highlightCache ?? highlightCacheFile(buildCacheDir(process.env));
}

/** The render partition of this process: everything, outside the build. */
export function partition(): Partition {
  return buildContext()?.partition ?? { index: 0, count: 1 };
}

let catalog: Catalog | undefined;
let derived: Derived | undefined;
let ledgerPlan: LedgerPlan | undefined;

/**
 * The catalog. In a render process, from the snapshot: of every record what listings and related
 * errors show, and its text's hash (page keys); not its code, prose and JSON twin, which a page reads
 * when it is rendered (wholeEntry). Outside the build, loaded and validated; a catalog with problems
 * throws a CatalogError listing them all.
 */
export function getCatalog(): Catalog {
  if (catalog) return catalog;
  const ctx = buildContext();
  if (!ctx) {
    // Outside the build (`astro dev`), this module is the entry: the catalog folder and dataset version from the environment.
    const loaded = loadCatalog(catalogPath(process.env), { datasetVersion: buildDatasetVersion(process.env) });
    if (loaded.problems.length > 0) throw new CatalogError(catalogReport(loaded), loaded.problems);
    return (catalog = loaded);
  }
  // No record whole: a page reads its own when it is rendered (wholeEntry).
  return (catalog = catalogFromSnapshot({ snapshot: ctx.snapshot.entries, head: ctx.snapshot.head }));
}

/**
 * The entry whole (its code, prose and text), for the page being rendered that shows it so: an error
 * page its own record, a redirect its target's description. Read again from the snapshot, and let go
 * with the page, so that a render process's memory does not grow with the pages it renders. Outside
 * the build every entry is whole already.
 */
export function wholeEntry(entry: CatalogEntry): CatalogEntry {
  const ctx = buildContext();
  return ctx ? wholeSnapshotEntry(ctx.snapshot.entries, entry) : entry;
}

/**
 * What the pages show that is computed over the whole catalog. The related errors are
 * `relatedErrors` (src/catalog/derive/related.ts): computed here outside the build; in a render process
 * the build computed them once (src/build/stages/validate.ts), and a process reads those of its own
 * partition's records only, the only pages that show them.
 */
export function getDerived(): Derived {
  if (derived) return derived;
  const c = getCatalog();
  const ctx = buildContext();
  const links = ctx ? readRelated(ctx.snapshot.related, (i) => inPartition(c.entries[i]!.record.id, ctx.partition) && inShard(c.entries[i]!.record.id)) : relatedErrors(c.entries.map((e) => e.record));
  if (!ctx) return (derived = deriveCatalog(c, links, recordScopes(c.entries.map((e) => e.record))));
  const h = snapshotHead(ctx);
  return (derived = deriveCatalog(c, links, h.scopes, { headlines: new Map(Object.entries(h.titleHeadlines)), places: new Map(Object.entries(h.placeLabels)) }));
}

/** What the URL ledger makes of this catalog: planned once by the build (the snapshot's head), or here outside it. */
export function getLedgerPlan(): LedgerPlan {
  if (ledgerPlan) return ledgerPlan;
  const ctx = buildContext();
  return (ledgerPlan = ctx ? readLedgerPlan(ctx.snapshot.head) : ledgerPlanFor(getCatalog()));
}

let head: SnapshotHead | undefined;
/** The snapshot's head, read once for the scopes, title headlines and place labels. */
const snapshotHead = (ctx: RenderContext): SnapshotHead => (head ??= readHead(ctx.snapshot.head));

let shardIds: ReadonlySet<string> | null | undefined;
/** Whether this process renders the record's page as far as shards go: always, but in a shard's build. */
function inShard(id: string): boolean {
  if (shardIds === undefined) {
    const shard = buildContext()?.shard;
    shardIds = shard ? new Set(JSON.parse(readFileSync(shard.ids, 'utf8')) as string[]) : null;
  }
  return shardIds === null || shardIds.has(id);
}

/** The entries whose pages and data files this process renders. */
export const partitionEntries = (entries: readonly CatalogEntry[]): readonly CatalogEntry[] => {
  const own = entriesIn(entries, partition());
  return buildContext()?.shard ? own.filter((e) => inShard(e.record.id)) : own;
};

/** This process's share of the pages made from the whole catalog (listings, sitemaps, the ledger's notices): none in a shard's build. */
export const partitionRoutes = <T extends { params: Record<string, string | undefined> }>(routes: readonly T[]): T[] => (buildContext()?.shard ? [] : routesIn(routes, partition()));

/** The short-link template, which a shard's build renders too: it writes its records' short links (src/build/stages/record-files.ts). */
export const templateRoutes = <T extends { params: Record<string, string | undefined> }>(routes: readonly T[]): T[] => routesIn(routes, partition());

/** The error pages to render: those the published site does not hold under the same key (src/catalog/page-cache.ts). */
export function routesToRender<T>(files: readonly PageFile<T>[]): T[] {
  const ctx = buildContext();
  const routes = pageFilesToRender(files, ctx?.reuse ?? null, ctx?.pageLog ?? null);
  // The build links the pages the published site lends while this process renders the others
  // (src/build/reused-pages.ts; the message is src/build/protocol.ts's ChildMessage `listed`).
  if (ctx?.reuse) process.send?.({ type: 'listed' });
  return routes;
}

let classesText: string | undefined;

/**
 * This process's share of a listing's pages (a repository's, a failure class's or a tag's: `pageOf`
 * gives a route's page path and its whole listing's entries), but those the published site holds under
 * the same key (src/catalog/page-cache.ts `listingCacheKey`), which the build links instead.
 */
export function listingRoutes<T extends { params: Record<string, string | undefined> }>(routes: readonly T[], pageOf: (route: T) => { path: string; entries: readonly CatalogEntry[] }): T[] {
  return keyedRoutes(routes, (route) => {
    const page = pageOf(route);
    classesText ??= JSON.stringify(getCatalog().classes);
    return { path: page.path, key: (file) => listingCacheKey(file, page.entries, classesText!) };
  });
}

/**
 * This process's share of the pages made of several records (a listing's, a message page), but those
 * the published site holds under the same key: `pageOf` gives a route's page path and its key from its
 * file. Their page log lines are counted apart from the error pages' (src/build/page-reuse.ts).
 */
export function keyedRoutes<T extends { params: Record<string, string | undefined> }>(routes: readonly T[], pageOf: (route: T) => { path: string; key: (file: string) => string }): T[] {
  const own = partitionRoutes(routes);
  const ctx = buildContext();
  if (!ctx) return own;
  const files = own.map((route) => {
    const page = pageOf(route);
    // The page's file as Astro writes it (`build.format: 'directory'`): `/a/b/` -> `a/b/index.html`.
    const file = `${page.path.slice(1)}index.html`;
    return { route, file, key: page.key(file) };
  });
  return pageFilesToRender(files, ctx.reuse, ctx.pageLog, 'several');
}

/**
 * Whether the build writes each record's JSON twin and short link itself (src/build/stages/record-files.ts),
 * so that Astro renders only the short-link template; outside the build Astro renders them all.
 */
export const recordFilesByBuild = (): boolean => buildContext() !== null;
