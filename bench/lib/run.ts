/**
 * Running and measuring builds for the benchmarks (scripts/bench.ts, scripts/bench-shards.ts): a
 * command to its end with the memory and CPU of its whole process tree sampled, an errdex build with
 * its own report, and the comparison of two sites, file by file.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TreeCpu, treeRss, type BuildReport } from '../../src/build/measure.ts';

export interface Measured {
  seconds: number;
  peakRssBytes: number;
  /** CPU time of the whole process tree (user and system), sampled (stages.ts TreeCpu). */
  cpuSeconds: number;
  status: number;
  output: string;
}

/** Runs a command to its end, sampling the memory of its whole process tree. */
export function runMeasured(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; echo?: boolean } = {}): Promise<Measured> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let peak = 0;
    const cpu = new TreeCpu(child.pid!);
    const timer = setInterval(() => {
      peak = Math.max(peak, treeRss(child.pid!));
      cpu.sample();
    }, 200);
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
      done({ seconds: (performance.now() - started) / 1000, peakRssBytes: peak, cpuSeconds: cpu.seconds(), status: code ?? 1, output });
    });
  });
}

export type Built = BuildReport & { wallSeconds: number; treePeakRssBytes: number; cpuSeconds: number };

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
  return { ...r, wallSeconds: run.seconds - r.reportSeconds, treePeakRssBytes: Math.max(run.peakRssBytes, r.peakRssBytes), cpuSeconds: run.cpuSeconds };
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
