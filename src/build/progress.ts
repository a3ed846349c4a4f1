/**
 * Progress of a long build: a line per stage with its counts, rate and ETA.
 *
 * On a terminal the count line is redrawn in place (at most ten times a second). In CI, or when the
 * output is a file or pipe, only plain lines are written: one per tenth of the work (or every 30 s),
 * so that logs stay short and readable.
 */

/** Redraw in place only on a terminal, and never in CI (whose log viewers show every redraw). */
export function isInteractive(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return Boolean(stream.isTTY) && !env.CI;
}

/** `0.4 s`, `42 s`, `3 min 05 s`, `1 h 02 min`. */
export function formatDuration(seconds: number): string {
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

export const formatCount = (n: number): string => n.toLocaleString('en-US');

/** Seconds left at the rate measured since counting started, or null while there is no rate yet. */
export function etaSeconds(done: number, total: number, doneSinceStart: number, secondsSinceStart: number): number | null {
  if (doneSinceStart <= 0 || secondsSinceStart < 0.5 || total <= 0) return null;
  return Math.max(0, total - done) / (doneSinceStart / secondsSinceStart);
}

/** `4,210/20,002 pages (21%), 812/s, ETA 19 s` */
export function countLine(p: { done: number; total: number; unit: string; rate: number | null; eta: number | null }): string {
  const pct = p.total > 0 ? Math.min(100, Math.floor((p.done / p.total) * 100)) : 100;
  let line = `${formatCount(p.done)}/${formatCount(p.total)} ${p.unit} (${pct}%)`;
  if (p.rate !== null) line += `, ${formatCount(Math.round(p.rate))}/s`;
  if (p.eta !== null && p.done < p.total) line += `, ETA ${formatDuration(p.eta)}`;
  return line;
}

export interface ProgressOptions {
  /** Redraw one line in place (a terminal, not CI: isInteractive); else a line a step. */
  interactive?: boolean;
  write?: (text: string) => void;
  /** Where warnings go (stderr by default). */
  writeError?: (text: string) => void;
  now?: () => number;
}

export class Progress {
  private index = 0;
  private name = '';
  private stageStarted = 0;
  private readonly buildStarted: number;
  private readonly interactive: boolean;
  private readonly write: (text: string) => void;
  private readonly writeError: (text: string) => void;
  private readonly now: () => number;
  // The count of the current stage.
  private total = 0;
  private unit = '';
  private done = 0;
  private countStarted = 0;
  private doneAtCountStart = 0;
  private lastDraw = 0;
  private lastPlainStep = 0;
  private lastPlainAt = 0;
  private live = false;
  private readonly stages: number;

  constructor(stages: number, options: ProgressOptions = {}) {
    this.stages = stages;
    this.interactive = options.interactive ?? false;
    this.write = options.write ?? ((t) => process.stdout.write(t));
    this.writeError = options.writeError ?? ((t) => process.stderr.write(t));
    this.now = options.now ?? (() => performance.now());
    this.buildStarted = this.now();
  }

  private get prefix(): string {
    return `[${this.index}/${this.stages}]`;
  }

  stage(name: string): void {
    this.clearLive();
    this.index++;
    this.name = name;
    this.stageStarted = this.now();
    this.total = 0;
    this.write(`${this.prefix} ${name}…\n`);
  }

  /** Starts counting `total` items of this stage. */
  count(total: number, unit: string): void {
    this.total = total;
    this.unit = unit;
    this.done = 0;
    this.countStarted = this.now();
    this.doneAtCountStart = 0;
    this.lastPlainStep = 0;
    this.lastPlainAt = this.countStarted;
  }

  update(done: number): void {
    if (this.total <= 0) return;
    const now = this.now();
    // The rate is measured from the first item on, so that a slow start-up does not skew the ETA.
    if (this.done === 0 && done > 0) {
      this.countStarted = now;
      this.doneAtCountStart = done;
    }
    this.done = done;
    if (this.interactive) {
      if (now - this.lastDraw < 100 && done < this.total) return;
      this.lastDraw = now;
      this.write(`\r\x1b[2K${this.prefix} ${this.name}: ${this.line(now)}`);
      this.live = true;
      return;
    }
    const step = Math.floor((done / this.total) * 10);
    if ((step > this.lastPlainStep && done < this.total) || now - this.lastPlainAt >= 30_000) {
      this.lastPlainStep = step;
      this.lastPlainAt = now;
      this.write(`${this.prefix} ${this.name}: ${this.line(now)}\n`);
    }
  }

  /** A warning or error, on stderr, without breaking the live count line. */
  warn(text: string): void {
    this.clearLive();
    this.writeError(`${text}\n`);
  }

  /** A line of information, without breaking the live count line. */
  note(text: string): void {
    this.clearLive();
    this.write(`${text}\n`);
  }

  /** Ends the stage: its summary and time (`seconds`: the stage's own, else since the stage line). */
  end(summary: string, seconds = (this.now() - this.stageStarted) / 1000): number {
    this.clearLive();
    this.write(`${this.prefix} ${summary} (${formatDuration(seconds)})\n`);
    if (this.index === this.stages) this.write(`Built in ${formatDuration((this.now() - this.buildStarted) / 1000)}.\n`);
    return seconds;
  }

  private line(now: number): string {
    const since = (now - this.countStarted) / 1000;
    const counted = this.done - this.doneAtCountStart;
    const rate = counted > 0 && since >= 0.5 ? counted / since : null;
    return countLine({ done: this.done, total: this.total, unit: this.unit, rate, eta: etaSeconds(this.done, this.total, counted, since) });
  }

  private clearLive(): void {
    if (this.live) this.write('\r\x1b[2K');
    this.live = false;
  }
}
