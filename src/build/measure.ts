/**
 * The build's stage list and its measurements: per stage the wall time, items and items/s, the peak
 * memory of the whole build (this process, its worker threads and its child processes together) and
 * what the stage wrote. `npm run build -- --report=FILE` writes them as JSON; `npm run bench` reads
 * that file, so a stage added to the build shows up in the benchmark without touching the bench.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

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
 * What a benchmark tells processes apart by: the script a process runs (its file's name without the
 * extension: `validate`, `render-process`, `build`), or else its program's name (`pagefind_extended`),
 * or `node -e` for inline code (the detached delete of an old site).
 */
export function processLabel(argv: readonly string[]): string {
  const script = argv.slice(1).find((a) => /\.[cm]?[jt]s$/.test(a));
  if (script) return basename(script).replace(/\.[^.]+$/, '');
  if (argv[1] === '-e') return 'node -e';
  return basename(argv[0] ?? '') || '?';
}

/** The processes of one label in a sampled tree, together. */
export interface ProcessFigures {
  label: string;
  processes: number;
  /** CPU time, user and system, all threads. */
  cpuSeconds: number;
  /** The largest resident memory any one of them had. */
  peakRssBytes: number;
  /** Seconds from the sampler's start when the first was first seen and the last last seen. */
  from: number;
  to: number;
}

/**
 * CPU time (user and system, all threads), resident memory and lifetime of each process of a tree,
 * from /proc: call `sample` a few times a second. A process's time after its last sample is missed
 * (at most one interval each). `cpuSeconds()` and `peakRssBytes()` are the tree's; `figures()` is by
 * label, so that a benchmark shows which process took the time and held the memory.
 */
export class ProcessSampler {
  private readonly seen = new Map<number, { label: string; ticks: number; rss: number; from: number; to: number }>();
  private readonly root: number;
  private readonly started: number;
  private treePeak = 0;

  constructor(root: number, started = performance.now()) {
    this.root = root;
    this.started = started;
  }

  sample(): void {
    const now = (performance.now() - this.started) / 1000;
    let tree = 0;
    for (const p of treePids(this.root)) {
      try {
        // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
        const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ticks = Number(f[11]) + Number(f[12]);
        const rss = rssOf(p) ?? 0;
        tree += rss;
        // Read each time: a process seen between its fork and its exec has its parent's command line.
        // An ended one (not yet waited for) has none, and keeps the label it had.
        const argv = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').filter(Boolean);
        const label = processLabel(argv);
        const known = this.seen.get(p);
        if (known) {
          if (argv.length > 0) known.label = label;
          known.ticks = ticks;
          known.rss = Math.max(known.rss, rss);
          known.to = now;
        } else this.seen.set(p, { label, ticks, rss, from: now, to: now });
      } catch {
        // Gone, or not Linux.
      }
    }
    this.treePeak = Math.max(this.treePeak, tree);
  }

  /** The most resident memory the whole tree held at one sample. */
  peakRssBytes(): number {
    return this.treePeak;
  }

  /** In seconds, at Linux's 100 clock ticks per second. */
  cpuSeconds(): number {
    let total = 0;
    for (const s of this.seen.values()) total += s.ticks;
    return total / 100;
  }

  /** By label, in the order they were first seen. */
  figures(): ProcessFigures[] {
    const by = new Map<string, ProcessFigures>();
    for (const s of this.seen.values()) {
      const f = by.get(s.label);
      if (!f) by.set(s.label, { label: s.label, processes: 1, cpuSeconds: s.ticks / 100, peakRssBytes: s.rss, from: s.from, to: s.to });
      else {
        f.processes++;
        f.cpuSeconds += s.ticks / 100;
        f.peakRssBytes = Math.max(f.peakRssBytes, s.rss);
        f.from = Math.min(f.from, s.from);
        f.to = Math.max(f.to, s.to);
      }
    }
    return [...by.values()].sort((a, b) => a.from - b.from);
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
