/**
 * The render stage: `astro build` in one process per shard at once (see src/catalog/shard.ts), each
 * into its own folder and with its own incremental-build cache, then the shards merged into one site.
 *
 * Astro logs a line per file it writes; those lines drive the progress count and go, with everything
 * else Astro says, to a log file per shard (shown in part when a shard fails).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface RenderOptions {
  /** The merged site goes here. */
  outDir: string;
  shards: number;
  /** Per-shard Astro caches go below this folder. */
  cacheDir: string;
  /** Astro's output of each shard is kept here. */
  logDir: string;
  env: NodeJS.ProcessEnv;
  /** Ignore the incremental-build cache (render every page), still refreshing it for next time. */
  force?: boolean;
  /** Called with the number of files written so far by all shards together. */
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
export const countMarks = (text: string, mark: RegExp): number => text.match(mark)?.length ?? 0;

export async function renderShards(options: RenderOptions): Promise<RenderResult> {
  mkdirSync(options.logDir, { recursive: true });
  const dirs = Array.from({ length: options.shards }, (_, i) => (i === 0 ? options.outDir : `${options.outDir}.shard-${i}`));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  let files = 0;
  let reused = 0;
  const children: ChildProcess[] = [];
  const runs = dirs.map((dir, index) => {
    const logFile = join(options.logDir, `astro-shard-${index}.log`);
    const log = createWriteStream(logFile);
    const args = [resolve('node_modules/astro/bin/astro.mjs'), 'build', ...(options.force ? ['--force'] : [])];
    const env: NodeJS.ProcessEnv = {
      ...options.env,
      ASTRO_TELEMETRY_DISABLED: '1',
      // Plain text, so that the log can be read and counted.
      NO_COLOR: '1',
      ERRDEX_OUT_DIR: dir,
      ERRDEX_SHARD: `${index}/${options.shards}`,
      ERRDEX_ASTRO_CACHE_DIR: join(options.cacheDir, `shard-${index}-of-${options.shards}`),
    };
    delete env.FORCE_COLOR;
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    children.push(child);
    let rest = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      log.write(chunk);
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      const text = lines.join('\n');
      const seen = countMarks(text, FILE_MARK);
      reused += countMarks(text, REUSED_MARK);
      if (seen > 0) {
        files += seen;
        options.onFile?.(files);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => log.write(chunk));
    return new Promise<void>((done, fail) => {
      child.on('error', fail);
      child.on('close', (code, signal) => {
        log.end();
        if (code === 0) return done();
        const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter((l) => countMarks(l, FILE_MARK) === 0).slice(-40).join('\n') : '';
        fail(new Error(`astro build of shard ${index + 1}/${options.shards} failed (${signal ?? `exit code ${code}`}); its log: ${logFile}\n${tail}`));
      });
    });
  });
  try {
    await Promise.all(runs);
  } catch (e) {
    for (const c of children) if (c.exitCode === null) c.kill();
    throw e;
  }
  for (const dir of dirs.slice(1)) {
    mergeInto(dir, options.outDir);
    rmSync(dir, { recursive: true, force: true });
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
