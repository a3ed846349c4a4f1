/**
 * The render processes: one `astro build` per render partition (src/catalog/partition.ts), a few at a
 * time, each into its own folder, merged into the site as soon as it ends. Each gets its render
 * context (src/context.ts) as one JSON file; Astro's own output goes to a log per partition, shown in
 * part when it fails; its progress and result come back as protocol messages (src/build/protocol.ts,
 * sent by src/integration.ts). The process of a one-partition catalog can start with the build,
 * before its input exists (`startEarly`): it bundles the site, then waits at the gates. The error
 * pages the published site lends are linked beside the render, as soon as a process has listed them
 * (src/build/reused-pages.ts).
 */
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTEXT_ENV } from '../context-env.ts';
import { highlightCacheFile } from '../highlight/cache.ts';
import type { RenderContext } from '../context.ts';
import { linkReused, readPageLog, readPageLogs } from './page-reuse.ts';
import { linkListedPages, type LinkResult } from './reused-pages.ts';
import { readRenderedLogs, renderedLogOf, type RenderedPages } from './rendered-pages.ts';
import { mergeInto, moveTree, renderSiteDir, renderWorkDir } from './site-folders.ts';
import { startChild, type Child } from './protocol.ts';
import { MIN_RENDER_HEAP_MB, RENDER_HEAP_PER_SNAPSHOT } from './plan.ts';
import type { Partition } from '../catalog/partition.ts';
import { snapshotBytes } from '../catalog/snapshot.ts';
import { siblingUrl } from '../util/sibling.ts';

/** A render partition: one Astro process renders the error pages of the records whose ids hash to it (src/catalog/partition.ts). */
export interface RenderPartition extends Partition {
  /** The validated catalog (src/catalog/snapshot.ts). */
  snapshot: string;
  head: string;
  /** The related errors of the snapshot's entries. */
  related: string;
}

export interface RenderOptions {
  /** The merged site goes here. */
  outDir: string;
  /** How many run at once. */
  parallel: number;
  /** The build cache: the highlight cache, and per-partition Astro caches below `astro/`. */
  cacheDir: string;
  /** Astro's output of each partition is kept here. */
  logDir: string;
  /** The published site and its pages' keys file, when its unchanged pages may be reused. */
  reuse: RenderContext['reuse'];
  /** Where the reused pages are linked while the pages are rendered (src/build/reused-pages.ts); it becomes `outDir`. */
  reusedDir: string;
  /** The standby this build claimed (src/build/standby.ts), whose folders a single partition's reused pages are placed in; null: none. */
  standby: string | null;
  /** The published files' proven identities (src/build/page-reuse.ts `writeIdentities`), for placing pages in the standby's folders; null: none. */
  identities: string | null;
  /** A shard's build: its shard and the file of its records' ids (src/catalog/shard.ts); null otherwise. */
  shard: RenderContext['shard'];
  /** Called with the number of error pages rendered so far by all partitions together. */
  onPages?: (done: number) => void;
  /** The environment the build was started with (settings.env): Astro reads the site's settings from it (errdex.config.mjs). */
  env: NodeJS.ProcessEnv;
}

export interface RenderResult {
  /** Pages rendered now. */
  rendered: number;
  /**
   * The key of every error page and listing page, those left to be reused from the published site
   * (src/catalog/page-cache.ts), and how many of the keys are of listing pages.
   */
  pages: { keys: Record<string, string>; reused: string[]; several: { keys: number; reused: number } };
  /** What the render processes noted of the pages they wrote: SHA-256 and head of each HTML page. */
  written: RenderedPages;
  /** Of the reused pages, those in place already in the standby's folders (src/build/reused-pages.ts); absent: none taken. */
  inPlace?: number;
}

/** What a render process sends as its result: the pages it rendered. */
export interface RenderProcessResult {
  pages: number;
}

/**
 * The heap limit of a render process. Left to itself, V8 lets the heap of a process that holds a
 * large catalog grow to about twice what it keeps alive: a limit makes it collect sooner. What a
 * process keeps alive grows with the catalog (about 1.2 GB resident at 100k rich records, whose
 * snapshot is 436 MiB), so the limit is RENDER_HEAP_PER_SNAPSHOT times the snapshot's size, and at least MIN_RENDER_HEAP_MB.
 */
export function renderHeapMb(partition: Pick<RenderPartition, 'snapshot'>): number {
  return Math.max(MIN_RENDER_HEAP_MB, Math.ceil((RENDER_HEAP_PER_SNAPSHOT * snapshotBytes(partition.snapshot)) / 2 ** 20));
}

/**
 * V8's heap flags for a render process: besides the limit, full collections wait until the old
 * generation holds half of it (left to itself, V8 marked the whole heap about ten times in a 10k render).
 */
const renderHeapFlags = (heapMb: number): string[] => [`--max-old-space-size=${heapMb}`, `--initial-old-space-size=${Math.floor(heapMb / 2)}`];

const pageLogOf = (p: Pick<RenderPartition, 'index'>): string => join(renderWorkDir(), `pages-${p.index}.jsonl`);
const contextFileOf = (p: Pick<RenderPartition, 'index'>): string => join(renderWorkDir(), `context-${p.index}.json`);

const samePartition = (a: RenderPartition, b: RenderPartition): boolean =>
  a.index === b.index && a.count === b.count && a.snapshot === b.snapshot && a.related === b.related && a.head === b.head;

interface RenderProcess {
  child: Child;
  done: Promise<void>;
}

export class RenderProcesses {
  /** Error pages rendered by each partition so far, and each partition's pages in all once it is done. */
  private readonly errorPages = new Map<number, number>();
  private readonly pages = new Map<number, number>();
  private readonly running = new Set<Child>();
  /** Each partition's reused pages being linked, once its process has listed them. */
  private readonly linking = new Map<number, { result: Promise<LinkResult>; kill: () => void }>();
  /** Of the reused pages linked beside the render, those in place already in the standby's folders; undefined: none taken. */
  private inPlace: number | undefined;
  private early: { partition: RenderPartition; process: RenderProcess } | undefined;
  private readonly options: RenderOptions;

  constructor(options: RenderOptions) {
    this.options = options;
    mkdirSync(options.logDir, { recursive: true });
    rmSync(renderWorkDir(), { recursive: true, force: true });
    mkdirSync(renderWorkDir(), { recursive: true });
    rmSync(options.outDir, { recursive: true, force: true });
    rmSync(options.reusedDir, { recursive: true, force: true });
  }

  /** Starts the render process of `partition` now, with the least heap limit: it bundles the site, then waits at the gates. */
  startEarly(partition: RenderPartition): void {
    const run = this.spawn(partition, MIN_RENDER_HEAP_MB, true);
    // Its failure is reported when the render awaits it; until then it must not go unhandled.
    run.done.catch(() => {});
    this.early = { partition, process: run };
  }

  /** The early process, when `partitions` are what it was started for and its heap limit will do. */
  private earlyFor(partitions: readonly RenderPartition[]): RenderProcess | undefined {
    const only = partitions.length === 1 ? partitions[0]! : undefined;
    if (!this.early || !only || !samePartition(this.early.partition, only) || renderHeapMb(only) > MIN_RENDER_HEAP_MB) return undefined;
    return this.early.process;
  }

  /** The snapshot and related errors are written: the early process lists its pages, or ends when not needed. */
  openCatalog(partitions: readonly RenderPartition[]): void {
    const early = this.earlyFor(partitions);
    if (early) early.child.send({ type: 'open', gate: 'catalog' });
    else this.cancelEarly();
  }

  /** Ends the early process, if any (the build stops, or does not need it). */
  cancelEarly(): void {
    this.early?.process.child.kill();
    this.early = undefined;
  }

  /** Ends every render process (the build stops). */
  killAll(): void {
    this.cancelEarly();
    for (const c of this.running) c.kill();
    for (const l of this.linking.values()) l.kill();
  }

  /** A render process has listed its pages: the ones the published site lends are linked now, beside the render. */
  private linkListed(p: RenderPartition): void {
    const reuse = this.options.reuse;
    if (!reuse || this.linking.has(p.index)) return;
    // The standby's folders hold every partition's pages: one partition alone may take them.
    const standby = p.count === 1 ? this.options.standby : null;
    const linking = linkListedPages({ pageLog: pageLogOf(p), site: reuse.site, into: this.options.reusedDir, standby, identities: standby && this.options.identities });
    // Awaited when the render ends (placeReused); a failure until then must not go unhandled.
    linking.result.catch(() => {});
    this.linking.set(p.index, linking);
  }

  /**
   * The reused pages into `outDir` once every partition is rendered: those linked beside the render,
   * and those of a partition that did not say it had listed its pages, linked now; the rendered pages
   * (fewer, when pages are reused) are moved in among them, and the folder takes `outDir`'s place.
   */
  private async placeReused(partitions: readonly RenderPartition[]): Promise<void> {
    const reuse = this.options.reuse;
    if (!reuse) return;
    const into = this.options.reusedDir;
    for (const p of partitions) {
      // Linked beside the render: the lines of its page log the early link read; the rest now.
      const early = this.linking.get(p.index);
      const linked = early ? await early.result : null;
      const read = linked?.lines ?? 0;
      if (linked?.inPlace !== undefined) this.inPlace = (this.inPlace ?? 0) + linked.inPlace;
      const rest = readPageLog(pageLogOf(p)).slice(read);
      linkReused([...new Set(rest.flatMap((l) => l.reused))].sort(), reuse.site, into);
    }
    this.linking.clear();
    if (!existsSync(into)) return;
    if (existsSync(this.options.outDir)) {
      mergeInto(this.options.outDir, into);
      rmSync(this.options.outDir, { recursive: true, force: true });
    }
    renameSync(into, this.options.outDir);
  }

  /**
   * Renders every partition (code blocks are highlighted by now), each merged into `outDir` as soon as
   * it is done. `parallel` lanes run one process at a time; `ready(lane)` is what a lane's first
   * process waits for (memory: src/build/plan.ts).
   */
  async render(partitions: readonly RenderPartition[], ready: (lane: number) => Promise<unknown> | undefined): Promise<RenderResult> {
    const early = this.earlyFor(partitions);
    if (!early) this.cancelEarly();
    let failed = false;
    const renderOne = (p: RenderPartition): Promise<void> => {
      if (early && p.index === 0) {
        early.child.send({ type: 'open', gate: 'pages' });
        return early.done;
      }
      return this.spawn(p, renderHeapMb(p), false).done;
    };
    // Each partition's pages are its own; the files every partition writes (Astro's assets) are the
    // same in all: one copy is kept, whichever ends first.
    const merge = (p: RenderPartition) => {
      const site = renderSiteDir(p);
      if (existsSync(this.options.outDir)) mergeInto(site, this.options.outDir);
      else moveTree(site, this.options.outDir);
    };
    let next = 0;
    const lane = async (n: number) => {
      await ready(n);
      while (!failed && next < partitions.length) {
        const p = partitions[next++]!;
        await renderOne(p);
        merge(p);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(this.options.parallel, partitions.length) }, (_, n) => lane(n)));
    } catch (e) {
      failed = true;
      this.killAll();
      rmSync(renderWorkDir(), { recursive: true, force: true });
      throw e;
    }
    await this.placeReused(partitions);
    const keys = readPageLogs(partitions.map(pageLogOf));
    const written = readRenderedLogs(partitions.map((p) => renderedLogOf(pageLogOf(p))));
    rmSync(renderWorkDir(), { recursive: true, force: true });
    return { rendered: [...this.pages.values()].reduce((a, b) => a + b, 0), pages: keys, written, ...(this.inPlace === undefined ? {} : { inPlace: this.inPlace }) };
  }

  private onErrorPages(p: RenderPartition, n: number): void {
    this.errorPages.set(p.index, n);
    this.options.onPages?.([...this.errorPages.values()].reduce((a, b) => a + b, 0));
  }

  /** Writes the partition's render context and starts its process; `gated`: it waits at the gates. */
  private spawn(p: RenderPartition, heapMb: number, gated: boolean): RenderProcess {
    const context: RenderContext = {
      snapshot: { entries: p.snapshot, head: p.head, related: p.related },
      partition: { index: p.index, count: p.count },
      shard: this.options.shard,
      outDir: renderSiteDir(p),
      astroCacheDir: join(this.options.cacheDir, 'astro', `partition-${p.index}-of-${p.count}`),
      highlightCache: highlightCacheFile(this.options.cacheDir),
      reuse: this.options.reuse,
      pageLog: pageLogOf(p),
      gated,
    };
    writeFileSync(contextFileOf(p), JSON.stringify(context));
    const logFile = join(this.options.logDir, `astro-partition-${p.index}.log`);
    const log = createWriteStream(logFile);
    const env: NodeJS.ProcessEnv = {
      ...this.options.env,
      [CONTEXT_ENV]: contextFileOf(p),
      ASTRO_TELEMETRY_DISABLED: '1',
      // Plain text, so that the log can be read.
      NO_COLOR: '1',
      // Astro writes each page through libuv's thread pool; with the default four threads they pass the
      // work around with futex calls. One thread writes as fast for less CPU (10k pages: 13.3 CPU-seconds against 13.8).
      UV_THREADPOOL_SIZE: '1',
    };
    delete env.FORCE_COLOR;
    const child = startChild(
      fileURLToPath(siblingUrl('./render-process.ts', import.meta.url)),
      [],
      (m) => {
        if (m.type === 'update') this.onErrorPages(p, m.done);
        else if (m.type === 'listed') this.linkListed(p);
        else if (m.type === 'result') this.pages.set(p.index, (m.value as RenderProcessResult).pages);
      },
      `astro build of partition ${p.index + 1}/${p.count}`,
      { env, nodeFlags: renderHeapFlags(heapMb), output: (chunk) => log.write(chunk) },
    );
    this.running.add(child);
    const done = child.done.then(
      () => {
        this.running.delete(child);
        log.end();
      },
      (e: Error) => {
        this.running.delete(child);
        log.end();
        const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n') : '';
        throw new Error(`${e.message}; its log: ${logFile}\n${tail}`);
      },
    );
    return { child, done };
  }
}
