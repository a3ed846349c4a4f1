/**
 * The build's stage list and its measurements: per stage the wall time, items and items/s, the peak
 * memory of the whole build (this process, its worker threads and its child processes together) and
 * what the stage wrote. `npm run build -- --report=FILE` writes them as JSON; `npm run bench` reads
 * that file, so a stage added to the build shows up in the benchmark without touching the bench.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface StageResult {
  name: string;
  seconds: number;
  /** When it started, from the board's start (the build's, after its imports): stages overlap, and this shows how. */
  startSeconds: number;
  /** What the stage counted (records, blocks, pages) and how many. */
  items: number;
  unit: string;
  /** Peak resident memory of the build's process tree while the stage ran. */
  peakRssBytes: number;
  /** Files and bytes the stage wrote, when it writes any. */
  outputFiles: number | null;
  outputBytes: number | null;
  summary: string;
}

export interface BuildReport {
  catalog: string;
  records: number;
  /** Pages and data files in the published site. */
  siteFiles: number;
  siteBytes: number;
  /** The build's own clock: from the end of the script's imports to the end of its last stage. */
  seconds: number;
  /** Spent after the build, walking the site for this report: not part of the build. */
  reportSeconds: number;
  peakRssBytes: number;
  stages: StageResult[];
}

/** Resident memory of a process, from /proc (Linux); null when it is gone or /proc is missing. */
function rssOf(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // Not Linux, or the process just ended.
  }
  return out;
}

/** A process and all its descendants. */
function* treePids(pid: number): Generator<number> {
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop()!;
    yield p;
    stack.push(...childrenOf(p));
  }
}

/** Resident memory of a process and all its descendants. */
export function treeRss(pid: number = process.pid): number {
  let total = 0;
  for (const p of treePids(pid)) total += (p === process.pid ? process.memoryUsage.rss() : rssOf(p)) ?? 0;
  return total;
}

/**
 * CPU time (user and system, all threads) of each process of a tree, from /proc: call `sample` a few
 * times a second; `seconds()` sums each process's last reading. A process's time after its last sample
 * is missed (at most one interval each).
 */
export class TreeCpu {
  private readonly ticks = new Map<number, number>();

  private readonly root: number;

  constructor(root: number) {
    this.root = root;
  }

  sample(): void {
    for (const p of treePids(this.root)) {
      try {
        // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
        const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        this.ticks.set(p, Number(f[11]) + Number(f[12]));
      } catch {
        // Gone, or not Linux.
      }
    }
  }

  /** In seconds, at Linux's 100 clock ticks per second. */
  seconds(): number {
    let total = 0;
    for (const t of this.ticks.values()) total += t;
    return total / 100;
  }
}

/** Samples the process tree's memory a few times a second; `peak()` is the highest seen since `reset()`. */
export class MemorySampler {
  private max = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(intervalMs = 250) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  sample(): void {
    this.max = Math.max(this.max, treeRss());
  }

  /** Returns the peak since the last reset, and starts a new one. */
  reset(): number {
    this.sample();
    const peak = this.max;
    this.max = 0;
    return peak;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** Files and bytes below a folder. */
export function treeSize(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) {
        files++;
        bytes += statSync(full).size;
      }
    }
  };
  walk(dir);
  return { files, bytes };
}
