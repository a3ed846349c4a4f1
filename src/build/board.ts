/**
 * The progress of stages that run side by side, shown one stage at a time, in the plan's order
 * (src/build/plan.ts, STAGES): a stage's lines wait until the stages before it have ended, then its
 * count catches up at once. Each stage's line ends with one figure, its own time from start to end;
 * its measurements (src/build/measure.ts) go to the build's report.
 */
import type { StageResult } from './measure.ts';
import type { Progress } from './progress.ts';

export interface StageProgress {
  /** The stage has started: its time runs from now. */
  begin(): void;
  count(total: number, unit: string): void;
  update(done: number): void;
  end(result: { summary: string; items: number; unit: string; output?: { files: number | null; bytes: number } }): void;
}

interface Shown {
  begunAt: number | null;
  displayed: boolean;
  total: number;
  unit: string;
  done: number;
  ended: (Parameters<StageProgress['end']>[0] & { seconds: number }) | null;
}

export class Board {
  private readonly shown = new Map<string, Shown>();
  private current = 0;
  readonly results: StageResult[] = [];
  private readonly order: readonly string[];
  private readonly labels: Record<string, string>;
  private readonly progress: Progress;
  private readonly peakSinceLast: () => number;
  private readonly now: () => number;
  /** When the board was made: the build's clock, from which the report gives each stage's start. */
  private readonly origin: number;

  /** `order`: stage names in the order shown; `labels`: how each is called on screen and in the report. */
  constructor(order: readonly string[], labels: Record<string, string>, progress: Progress, peakSinceLast: () => number, now = () => performance.now()) {
    this.order = order;
    this.labels = labels;
    this.progress = progress;
    this.peakSinceLast = peakSinceLast;
    this.now = now;
    this.origin = now();
    for (const name of order) this.shown.set(name, { begunAt: null, displayed: false, total: 0, unit: '', done: 0, ended: null });
  }

  stage(name: string): StageProgress {
    const s = this.shown.get(name);
    if (!s) throw new Error(`no stage ${name} on the board`);
    const isCurrent = () => this.order[this.current] === name;
    return {
      begin: () => {
        if (s.begunAt !== null) return;
        s.begunAt = this.now();
        if (isCurrent()) this.show(name);
      },
      count: (total, unit) => {
        [s.total, s.unit, s.done] = [total, unit, 0];
        if (isCurrent()) this.progress.count(total, unit);
      },
      update: (done) => {
        s.done = done;
        if (isCurrent()) this.progress.update(done);
      },
      end: (result) => {
        s.begunAt ??= this.now();
        s.ended = { ...result, seconds: (this.now() - s.begunAt) / 1000 };
        if (isCurrent()) this.advance();
      },
    };
  }

  /** A warning or error, at once, on stderr. */
  warn(text: string): void {
    this.progress.warn(text);
  }

  /** A line of information, at once. */
  note(text: string): void {
    this.progress.note(text);
  }

  private show(name: string): void {
    const s = this.shown.get(name)!;
    s.displayed = true;
    this.progress.stage(this.labels[name] ?? name);
    if (s.total > 0) {
      this.progress.count(s.total, s.unit);
      if (s.done > 0) this.progress.update(s.done);
    }
  }

  /** The current stage has ended: its line, then the next stages' as far as they have got. */
  private advance(): void {
    for (;;) {
      const name = this.order[this.current]!;
      const s = this.shown.get(name)!;
      if (!s.ended) return;
      if (!s.displayed) this.show(name);
      const e = s.ended;
      this.progress.end(e.summary, e.seconds);
      this.results.push({
        name: this.labels[name] ?? name,
        seconds: e.seconds,
        startSeconds: (s.begunAt! - this.origin) / 1000,
        items: e.items,
        unit: e.unit,
        peakRssBytes: this.peakSinceLast(),
        outputFiles: e.output?.files ?? null,
        outputBytes: e.output?.bytes ?? null,
        summary: e.summary,
      });
      this.current++;
      const next = this.order[this.current];
      if (next === undefined) return;
      if (this.shown.get(next)!.begunAt !== null) this.show(next);
      else return;
    }
  }
}
