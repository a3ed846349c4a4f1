/**
 * Running and measuring builds for the benchmarks (scripts/bench.ts, scripts/bench-shards.ts): a
 * command to its end with the memory and CPU of its whole process tree sampled, an errdex build with
 * its own report, the comparison of two sites, file by file, and the file system left to settle
 * after large deletions before a timed build.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatDuration } from '../../src/build/progress.ts';
import { ProcessSampler, type BuildReport, type ProcessFigures } from '../../src/build/measure.ts';

export interface Measured {
  seconds: number;
  peakRssBytes: number;
  /** CPU time of the whole process tree (user and system), sampled (src/build/measure.ts ProcessSampler). */
  cpuSeconds: number;
  /** The same, and each process's own peak memory, by process (its script or program). */
  processes: ProcessFigures[];
  status: number;
  output: string;
}

/** Runs a command to its end, sampling the memory and CPU of its whole process tree. */
export function runMeasured(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; echo?: boolean } = {}): Promise<Measured> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const processes = new ProcessSampler(child.pid!, started);
    const timer = setInterval(() => processes.sample(), 200);
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (options.echo) process.stdout.write(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', fail);
    child.on('close', (code) => {
      clearInterval(timer);
      done({ seconds: (performance.now() - started) / 1000, peakRssBytes: processes.peakRssBytes(), cpuSeconds: processes.cpuSeconds(), processes: processes.figures(), status: code ?? 1, output });
    });
  });
}

export type Built = BuildReport & { wallSeconds: number; treePeakRssBytes: number; cpuSeconds: number; processes: ProcessFigures[] };

/** An errdex command (`script`: scripts/build.ts or scripts/merge.ts) with its report; throws when it fails. */
export async function errdexBuild(catalog: string, dist: string, cache: string, report: string, args: string[] = [], script = 'scripts/build.ts', env: NodeJS.ProcessEnv = {}): Promise<Built> {
  const run = await runMeasured(process.execPath, [script, `--report=${report}`, ...args], {
    env: { ERRDEX_DATA: catalog, ERRDEX_DIST: dist, ERRDEX_CACHE_DIR: cache, CI: '1', ...env },
    echo: true,
  });
  if (run.status !== 0) throw new Error(`errdex build failed:\n${run.output.slice(-3000)}`);
  const r = JSON.parse(readFileSync(report, 'utf8')) as BuildReport;
  // The whole process, as `npm run build` runs it (the baseline's times are its processes' too), less
  // the report's walk over the site, which is the benchmark's and not the build's.
  return { ...r, wallSeconds: run.seconds - r.reportSeconds, treePeakRssBytes: Math.max(run.peakRssBytes, r.peakRssBytes), cpuSeconds: run.cpuSeconds, processes: run.processes };
}

/** The files of a site, by path, with a hash of each one's bytes. */
export function siteHashes(site: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, rel: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path, `${rel}${e.name}/`);
      else out.set(`${rel}${e.name}`, createHash('sha1').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(site, '');
  return out;
}

/** Whether two sites hold the same files with the same bytes; the paths that differ (or are in one only). */
export function compareSites(a: string, b: string): { same: boolean; differing: string[]; files: number } {
  const [ha, hb] = [siteHashes(a), siteHashes(b)];
  const differing = [...new Set([...ha.keys(), ...hb.keys()])].filter((p) => ha.get(p) !== hb.get(p)).sort();
  return { same: differing.length === 0, differing, files: ha.size };
}

const BENCH = resolve('.errdex/bench');
const TRASH = join(BENCH, '.trash');
/** When the last large deletion the bench knows of ended (ms since the epoch), kept between runs. */
const LAST_DELETION = join(BENCH, '.last-deletion');

/**
 * Deleting a large tree makes creating files slow for minutes on ext4 (this machine's file system):
 * a new inode does not reuse a number freed in the last 60 s, or 360 s while that inode's table block
 * has unwritten changes (which creating its neighbours causes), and the allocator checks each such
 * number in turn (`recently_deleted`: a third of all samples in a `perf` profile of writing 10,000 folders).
 * Measured here: 10,000 folders each with a file took 0.5 s on a quiet file system and 3 to 5 s after
 * large deletions. A build writes 20,000 to 45,000 files at 10,000 records, errdex and the baseline
 * alike, so each timed build starts only when the last deletion is this old.
 */
const SETTLE_SECONDS = 370;

function noteDeletion(): void {
  writeFileSync(LAST_DELETION, String(Date.now()));
}

/** Moves a file or folder out of the way without deleting it (the trash is emptied at the end). */
export function discard(path: string): void {
  if (!existsSync(path)) return;
  mkdirSync(TRASH, { recursive: true });
  renameSync(path, join(TRASH, `${basename(path)}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`));
}

/**
 * Waits for the deletion of the site a build replaced (an incremental build publishes, then deletes the
 * old site in the background: src/build/stages/publish.ts) to end, and notes it.
 */
export async function awaitSiteDeletion(dist: string): Promise<void> {
  const previous = () => existsSync(dirname(dist)) && readdirSync(dirname(dist)).some((n) => n.startsWith(`${basename(dist)}.previous-`));
  if (!previous()) return;
  while (previous()) await sleep(500);
  noteDeletion();
}

/** Waits until the last large deletion is SETTLE_SECONDS old. */
export async function settle(): Promise<void> {
  execFileSync('sync');
  const last = existsSync(LAST_DELETION) ? Number(readFileSync(LAST_DELETION, 'utf8')) : 0;
  const wait = last + SETTLE_SECONDS * 1000 - Date.now();
  if (wait > 0) {
    console.log(`(waiting ${formatDuration(wait / 1000)} for the file system to settle after a deletion)`);
    await sleep(wait);
  }
}

/** Deletes what `discard` moved aside, once nothing is timed any more, and notes the deletion. */
export function emptyTrash(): void {
  if (!existsSync(TRASH)) return;
  rmSync(TRASH, { recursive: true, force: true });
  noteDeletion();
}
