/**
 * The render stage: `astro build` once per chunk of the catalog (see src/catalog/shard.ts), one per
 * core at a time, each into its own folder, from its own catalog snapshot and with its own
 * incremental-build cache; then the chunks merged into one site.
 *
 * Astro logs a line per file it writes; those lines drive the progress count and go, with everything
 * else Astro says, to a log file per chunk (shown in part when a chunk fails).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Chunk } from './prepare.ts';

export interface RenderOptions {
  /** The merged site goes here. */
  outDir: string;
  /** The chunks of the catalog, each rendered by one `astro build` (see scripts/lib/prepare.ts). */
  chunks: Chunk[];
  /** How many run at once. */
  parallel: number;
  /** Per-chunk Astro caches go below this folder. */
  cacheDir: string;
  /** Astro's output of each chunk is kept here. */
  logDir: string;
  env: NodeJS.ProcessEnv;
  /** Ignore the incremental-build cache (render every page), still refreshing it for next time. */
  force?: boolean;
  /** Called with the number of files written so far by all chunks together. */
  onFile?: (done: number) => void;
}

export interface RenderResult {
  /** Files rendered now. */
  rendered: number;
  /** Files copied unchanged from the incremental-build cache. */
  reused: number;
}

/**
 * Astro logs `├─ /path/index.html` per file it writes, then `(+2ms)`, or `(cached)`/`(restored)` for
 * a file reused from its incremental cache. With several pages in flight these pieces interleave
 * on a line, so they are counted wherever they appear.
 */
const FILE_MARK = /[├└]─ /g;
const REUSED_MARK = /\((?:cached|restored)\)/g;
const countMarks = (text: string, mark: RegExp): number => text.match(mark)?.length ?? 0;

export async function renderChunks(options: RenderOptions): Promise<RenderResult> {
  mkdirSync(options.logDir, { recursive: true });
  const dirOf = (c: Chunk) => (c.index === 0 ? options.outDir : `${options.outDir}.chunk-${c.index}`);
  for (const c of options.chunks) rmSync(dirOf(c), { recursive: true, force: true });
  let files = 0;
  let reused = 0;
  const running = new Set<ChildProcess>();
  let failed = false;

  const renderChunk = (chunk: Chunk) => {
    const logFile = join(options.logDir, `astro-chunk-${chunk.index}.log`);
    const log = createWriteStream(logFile);
    const args = [resolve('node_modules/astro/bin/astro.mjs'), 'build', ...(options.force ? ['--force'] : [])];
    const env: NodeJS.ProcessEnv = {
      ...options.env,
      ASTRO_TELEMETRY_DISABLED: '1',
      // Plain text, so that the log can be read and counted.
      NO_COLOR: '1',
      ERRDEX_OUT_DIR: dirOf(chunk),
      ERRDEX_SHARD: `${chunk.index}/${chunk.count}`,
      ERRDEX_CATALOG_SNAPSHOT: chunk.snapshot,
      ERRDEX_ASTRO_CACHE_DIR: join(options.cacheDir, `chunk-${chunk.index}-of-${chunk.count}`),
    };
    delete env.FORCE_COLOR;
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    running.add(child);
    let rest = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunkText: string) => {
      log.write(chunkText);
      const lines = (rest + chunkText).split('\n');
      rest = lines.pop()!;
      const text = lines.join('\n');
      const seen = countMarks(text, FILE_MARK);
      reused += countMarks(text, REUSED_MARK);
      if (seen > 0) {
        files += seen;
        options.onFile?.(files);
      }
    });
    child.stderr!.on('data', (data: Buffer) => log.write(data));
    return new Promise<void>((done, fail) => {
      child.on('error', fail);
      child.on('close', (code, signal) => {
        running.delete(child);
        log.end();
        if (code === 0) return done();
        const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter((l) => countMarks(l, FILE_MARK) === 0).slice(-40).join('\n') : '';
        fail(new Error(`astro build of chunk ${chunk.index + 1}/${chunk.count} failed (${signal ?? `exit code ${code}`}); its log: ${logFile}\n${tail}`));
      });
    });
  };

  // A simple pool: each lane takes the next chunk when its current one ends.
  let next = 0;
  const lane = async () => {
    while (!failed && next < options.chunks.length) await renderChunk(options.chunks[next++]!);
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.parallel, options.chunks.length) }, lane));
  } catch (e) {
    failed = true;
    for (const c of running) c.kill();
    throw e;
  }
  for (const c of options.chunks.slice(1)) {
    mergeInto(dirOf(c), options.outDir);
    rmSync(dirOf(c), { recursive: true, force: true });
  }
  return { rendered: files - reused, reused };
}

/**
 * Moves what `from` holds into `into`. Folders only one side has are moved whole; files both have
 * (pages every shard renders, such as the home page, and the shared assets) are kept from `into`.
 */
export function mergeInto(from: string, into: string): void {
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    const dest = join(into, name);
    if (!existsSync(dest)) renameSync(src, dest);
    else if (lstatSync(src).isDirectory() && lstatSync(dest).isDirectory()) mergeInto(src, dest);
  }
}
