/**
 * The render stage: `astro build` once per chunk of the catalog (see src/catalog/shard.ts), one per
 * core at a time, each into its own folder and from the validated catalog's snapshot, merged into the
 * site as soon as it ends. Error pages the published site already holds under the same key are left
 * out by the render processes (src/catalog/page-cache.ts); their page logs say which.
 *
 * Each process runs Astro quietly (scripts/lib/astro-build.ts) and tells how many error pages it has
 * rendered as it goes (src/lib/render-progress.ts); what else it says (warnings, errors) goes to a
 * log file per chunk, shown in part when a chunk fails. The process of a one-chunk catalog can be
 * started with the build, before its input exists (RenderStage.startEarly).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGES_MARK, RENDERED_MARK } from '../../lib/render-progress.ts';
import { readPageLogs } from '../page-reuse.ts';
import { GATE_ENV, gateLine } from '../render-gate.ts';
import type { Chunk } from './validate.ts';

export interface RenderOptions {
  /** The merged site goes here. */
  outDir: string;
  /** How many run at once. */
  parallel: number;
  /** Per-chunk Astro caches go below this folder. */
  cacheDir: string;
  /** Astro's output of each chunk is kept here. */
  logDir: string;
  env: NodeJS.ProcessEnv;
  /** Called with the number of error pages rendered so far by all chunks together. */
  onPages?: (done: number) => void;
}

export interface RenderResult {
  /** Pages rendered now. */
  rendered: number;
  /** The key of every error page, and those left to be reused from the published site (src/catalog/page-cache.ts). */
  pages: { keys: Record<string, string>; reused: string[] };
}

/** What a render process needs to know of its chunk before it starts: all but how many records it holds. */
export type ChunkFiles = Omit<Chunk, 'records'>;

/** The least heap limit of a render process (see renderHeapMb). */
const MIN_HEAP_MB = 1024;

/**
 * The heap limit of a render process. Left to itself, V8 lets the heap of a process that holds a
 * large catalog grow to about twice what it keeps alive (about 1.9 GB per process at 100k records,
 * 2 processes at a time): a limit makes it collect sooner. What a process keeps alive grows with the
 * catalog (under 1.1 GB at 100k records, whose snapshot is 287 MiB), so the limit is five times the
 * snapshot's size, and at least 1 GB: collecting more often costs some render time, not the build.
 */
export function renderHeapMb(chunk: Pick<Chunk, 'snapshot'>): number {
  return Math.max(MIN_HEAP_MB, Math.ceil((5 * statSync(chunk.snapshot).size) / 2 ** 20));
}

/**
 * V8's heap flags for a render process with the heap limit `heapMb`. Besides the limit, full collections
 * wait until the old generation holds half of it: left to itself, V8 marked the whole heap (some 160 MB
 * of records and modules at 10k pages, the pages' garbage promoted on top) about ten times in a 10k
 * render, on the second core. The render process alone, four pairs at 10k pages: 11.3-12.6 CPU-seconds
 * against 12.4-13.4 (docs/benchmarks.md, session 8).
 */
const renderHeapFlags = (heapMb: number): string[] => [`--max-old-space-size=${heapMb}`, `--initial-old-space-size=${Math.floor(heapMb / 2)}`];

// Each chunk renders into a folder below the working folder: Astro puts its server bundle inside the
// output folder only when that is below the working folder (the bundle must find node_modules), and
// otherwise into one shared ./.astro/, where chunks running side by side would delete each other's.
const renderWorkDir = (): string => resolve('.errdex/render', String(process.pid));
/** The folder a chunk's render process writes its pages to, until they are merged into the site. */
export const renderSiteDir = (c: Pick<Chunk, 'index'>): string => join(renderWorkDir(), `chunk-${c.index}`);
/** The page log of a chunk's render process (scripts/lib/page-reuse.ts). */
const pageLogOf = (c: Pick<Chunk, 'index'>): string => join(renderWorkDir(), `pages-${c.index}.jsonl`);

const sameChunk = (a: ChunkFiles, b: ChunkFiles): boolean =>
  a.index === b.index && a.count === b.count && a.snapshot === b.snapshot && a.related === b.related;

/** One render process: `done` settles when it ends. */
interface RenderProcess {
  child: ChildProcess;
  done: Promise<void>;
}

/**
 * The render stage: each chunk's `astro build`, `parallel` at a time. The render process of a
 * one-chunk catalog can be started before the catalog is validated (startEarly): Astro's start and
 * bundling (about 2 CPU-seconds) then take the core that validation leaves idle, and the process
 * waits at gates (scripts/lib/render-gate.ts) until its snapshot is written and its code highlighted.
 */
export class RenderStage {
  /** Error pages rendered by each chunk so far, and each chunk's pages in all once it is done. */
  private readonly errorPages = new Map<number, number>();
  private readonly pages = new Map<number, number>();
  private readonly running = new Set<ChildProcess>();
  private early: { chunk: ChunkFiles; process: RenderProcess } | undefined;

  private readonly options: RenderOptions;

  constructor(options: RenderOptions) {
    this.options = options;
    mkdirSync(options.logDir, { recursive: true });
    rmSync(renderWorkDir(), { recursive: true, force: true });
    rmSync(options.outDir, { recursive: true, force: true });
  }

  /**
   * Starts the render process of `chunk` now, with the least heap limit: it bundles the site, then
   * waits for openCatalog() and for render() (or ends with cancelEarly()).
   */
  startEarly(chunk: ChunkFiles): void {
    const run = this.spawn(chunk, MIN_HEAP_MB, true);
    // Its failure is reported when the render awaits it; until then it must not go unhandled.
    run.done.catch(() => {});
    this.early = { chunk, process: run };
  }

  /** The early process, when `chunks` are what it was started for and its heap limit will do. */
  private earlyFor(chunks: readonly Chunk[]): RenderProcess | undefined {
    const only = chunks.length === 1 ? chunks[0]! : undefined;
    if (!this.early || !only || !sameChunk(this.early.chunk, only) || renderHeapMb(only) > MIN_HEAP_MB) return undefined;
    return this.early.process;
  }

  /**
   * The catalog's snapshot is written and its chunks are known: the early process lists its pages,
   * or ends when the chunks are not the one it was started for (a larger catalog).
   */
  openCatalog(chunks: readonly Chunk[]): void {
    const early = this.earlyFor(chunks);
    if (early) early.child.stdin!.write(gateLine('catalog'));
    else this.cancelEarly();
  }

  /** Ends the early process, if any (the build stops, or does not need it). */
  cancelEarly(): void {
    this.early?.process.child.kill();
    this.early = undefined;
  }

  /**
   * Renders every chunk (code blocks are highlighted by now), each merged into `outDir` as soon as it is
   * done, while the others render. The render runs `parallel` lanes of one process at a time:
   * `lanes.ready(lane)` is what a lane's first process waits for (memory: see scripts/build.ts).
   */
  async render(
    chunks: readonly Chunk[],
    lanes: { ready?: (lane: number) => Promise<unknown> | undefined } = {},
  ): Promise<RenderResult> {
    const early = this.earlyFor(chunks);
    if (!early) this.cancelEarly();
    let failed = false;
    const renderChunk = (chunk: Chunk): Promise<void> => {
      if (early && chunk.index === 0) {
        early.child.stdin!.end(gateLine('pages'));
        return early.done;
      }
      return this.spawn(chunk, renderHeapMb(chunk), false).done;
    };
    // Each chunk's pages are its own; the files every chunk writes (Astro's assets) are the same in all:
    // one copy is kept, whichever chunk ends first.
    const merge = (chunk: Chunk) => {
      const site = renderSiteDir(chunk);
      if (existsSync(this.options.outDir)) mergeInto(site, this.options.outDir);
      else moveTree(site, this.options.outDir);
    };
    // A simple pool: each lane takes the next chunk when its current one ends.
    let next = 0;
    const lane = async (n: number) => {
      await lanes.ready?.(n);
      while (!failed && next < chunks.length) {
        const chunk = chunks[next++]!;
        await renderChunk(chunk);
        merge(chunk);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(this.options.parallel, chunks.length) }, (_, n) => lane(n)));
    } catch (e) {
      failed = true;
      for (const c of this.running) c.kill();
      rmSync(renderWorkDir(), { recursive: true, force: true });
      throw e;
    }
    const keys = readPageLogs(chunks.map(pageLogOf));
    rmSync(renderWorkDir(), { recursive: true, force: true });
    return { rendered: [...this.pages.values()].reduce((a, b) => a + b, 0), pages: keys };
  }

  private onErrorPages(chunk: ChunkFiles, n: number): void {
    this.errorPages.set(chunk.index, n);
    this.options.onPages?.([...this.errorPages.values()].reduce((a, b) => a + b, 0));
  }

  /** Starts the render process of `chunk`; `gated`: it waits at the gates (scripts/lib/render-gate.ts). */
  private spawn(chunk: ChunkFiles, heapMb: number, gated: boolean): RenderProcess {
    const logFile = join(this.options.logDir, `astro-chunk-${chunk.index}.log`);
    const log = createWriteStream(logFile);
    const env: NodeJS.ProcessEnv = {
      ...this.options.env,
      ASTRO_TELEMETRY_DISABLED: '1',
      // Plain text, so that the log can be read and counted.
      NO_COLOR: '1',
      ERRDEX_OUT_DIR: renderSiteDir(chunk),
      ERRDEX_SHARD: `${chunk.index}/${chunk.count}`,
      ERRDEX_CATALOG_SNAPSHOT: chunk.snapshot,
      ERRDEX_RELATED: chunk.related,
      ...(chunk.twinsSha256 ? { ERRDEX_TWINS_SHA256: chunk.twinsSha256 } : {}),
      ERRDEX_ASTRO_CACHE_DIR: join(this.options.cacheDir, `chunk-${chunk.index}-of-${chunk.count}`),
      ERRDEX_PAGE_LOG: pageLogOf(chunk),
      // The JSON twins and short links are written by the build script (scripts/lib/record-files.ts).
      ERRDEX_RECORD_FILES: 'script',
      ERRDEX_RENDER_PROGRESS: '1',
      // Astro writes each page through libuv's thread pool (mkdir, open, write, close); with the default
      // four threads they pass the work around with futex calls (267,000 for 10k pages, strace). One
      // thread writes as fast for less CPU: the render process alone took 13.3 CPU-seconds against
      // 13.8 (means of 4 runs each, 10k pages).
      UV_THREADPOOL_SIZE: '1',
      ...(gated ? { [GATE_ENV]: '1' } : {}),
    };
    delete env.FORCE_COLOR;
    const child = spawn(process.execPath, [...renderHeapFlags(heapMb), fileURLToPath(new URL('../render-process.ts', import.meta.url))], {
      stdio: [gated ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      env,
    });
    // A process that ended early (a failed bundle) closes its input: what is written to it then is lost, not an error.
    child.stdin?.on('error', () => {});
    this.running.add(child);
    let rest = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (text: string) => {
      const lines = (rest + text).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith(RENDERED_MARK)) this.onErrorPages(chunk, Number(line.slice(RENDERED_MARK.length)));
        else if (line.startsWith(PAGES_MARK)) this.pages.set(chunk.index, Number(line.slice(PAGES_MARK.length)));
        else log.write(`${line}\n`);
      }
    });
    child.stderr!.on('data', (data: Buffer) => log.write(data));
    const done = new Promise<void>((resolve, fail) => {
      child.on('error', fail);
      child.on('close', (code, signal) => {
        this.running.delete(child);
        log.end(rest);
        if (code === 0) return resolve();
        const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n') : '';
        fail(new Error(`astro build of chunk ${chunk.index + 1}/${chunk.count} failed (${signal ?? `exit code ${code}`}); its log: ${logFile}\n${tail}`));
      });
    });
    return { child, done };
  }
}

/** Renames a folder; copies it when the destination is on another file system. */
function moveTree(from: string, to: string): void {
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
 * (fixed pages every shard renders, such as the home page, and the shared assets) are kept from `into`.
 */
export function mergeInto(from: string, into: string): void {
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    const dest = join(into, name);
    if (!existsSync(dest)) renameSync(src, dest);
    else if (lstatSync(src).isDirectory() && lstatSync(dest).isDirectory()) mergeInto(src, dest);
  }
}
