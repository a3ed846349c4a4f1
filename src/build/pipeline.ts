/**
 * The pipeline: runs stages as a graph. Each stage is `{ name, needs, run(ctx) }`; it starts as soon as
 * every stage it needs has ended, so stages that need nothing of each other run side by side. Which
 * stage needs which is the plan's business (src/build/plan.ts): `replan` gives the stages not yet begun
 * new needs when the plan is made again.
 *
 * One cancellation path: when a stage fails (or `cancel` is called), the others are told through
 * `ctx.signal` and the functions they gave `ctx.onCancel` (ending their child processes), the pipeline
 * waits for every running stage to settle, runs the clean-ups, and `run` rejects with the first error.
 */

export interface StageContext<S> {
  /** What the stages hand each other. */
  readonly state: S;
  readonly signal: AbortSignal;
  /** Called when the build is cancelled while this stage runs (end its child processes here). */
  onCancel(f: () => void): void;
  /** Resolves when that stage has ended; rejects if the build is cancelled first. */
  ended(name: string): Promise<void>;
  /** Whether that stage has started. */
  started(name: string): boolean;
}

export interface Stage<S> {
  name: string;
  needs: readonly string[];
  run(ctx: StageContext<S>): Promise<void>;
}

/** A stage's failure, named: the build's message says which stage failed. */
export class StageError extends Error {
  readonly stage: string;
  constructor(stage: string, cause: unknown) {
    super((cause as Error)?.message ?? String(cause), { cause });
    this.stage = stage;
  }
}

export class Pipeline<S> {
  private readonly stages = new Map<string, Stage<S>>();
  private readonly begun = new Set<string>();
  private readonly endedStages = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly cancellers = new Set<() => void>();
  private readonly cleanups: ((failed: boolean) => void)[] = [];
  private readonly controller = new AbortController();
  private failure: StageError | undefined;
  private finish: (() => void) | undefined;
  /** Rejects when the build is cancelled: what a stage awaits of another stops waiting then. */
  private readonly aborted: Promise<never>;

  readonly state: S;

  constructor(state: S, stages: readonly Stage<S>[]) {
    this.state = state;
    this.aborted = new Promise<never>((_, reject) => this.controller.signal.addEventListener('abort', () => reject(this.controller.signal.reason)));
    this.aborted.catch(() => {});
    for (const s of stages) {
      this.stages.set(s.name, s);
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.endedStages.set(s.name, { promise, resolve });
    }
    for (const s of stages) for (const n of s.needs) if (!this.stages.has(n)) throw new Error(`stage ${s.name} needs ${n}, which is not in the pipeline`);
  }

  /** Runs when the pipeline ends, failed or not (`failed`), in the order added. */
  onCleanup(f: (failed: boolean) => void): void {
    this.cleanups.push(f);
  }

  /** New needs for the stages not yet begun (the plan made again). */
  replan(needs: ReadonlyMap<string, readonly string[]>): void {
    for (const [name, n] of needs) {
      const s = this.stages.get(name);
      if (s && !this.begun.has(name)) this.stages.set(name, { ...s, needs: n });
    }
    this.startReady();
  }

  /** Ends the build: every running stage is cancelled, and `run` rejects with `reason`. */
  cancel(reason: StageError): void {
    if (this.failure) return;
    this.failure = reason;
    this.controller.abort(reason);
    for (const f of this.cancellers) {
      try {
        f();
      } catch {
        // Ending a process that has already ended.
      }
    }
    this.settleIfIdle();
  }

  async run(): Promise<void> {
    const done = new Promise<void>((resolve) => (this.finish = resolve));
    this.startReady();
    await done;
    for (const f of this.cleanups) f(this.failure !== undefined);
    if (this.failure) throw this.failure;
  }

  private startReady(): void {
    if (this.failure) return;
    for (const s of this.stages.values()) {
      if (this.begun.has(s.name)) continue;
      if (s.needs.every((n) => this.begun.has(n) && !this.running.has(n))) this.start(s);
    }
    this.settleIfIdle();
  }

  private start(s: Stage<S>): void {
    this.begun.add(s.name);
    const mine = new Set<() => void>();
    const ctx: StageContext<S> = {
      state: this.state,
      signal: this.controller.signal,
      onCancel: (f) => {
        mine.add(f);
        this.cancellers.add(f);
      },
      ended: (name) => Promise.race([this.endedStages.get(name)?.promise ?? Promise.reject(new Error(`no stage ${name}`)), this.aborted]),
      started: (name) => this.begun.has(name),
    };
    const p = Promise.resolve()
      .then(() => s.run(ctx))
      .then(
        () => {
          this.running.delete(s.name);
          for (const f of mine) this.cancellers.delete(f);
          if (this.failure) return this.settleIfIdle();
          this.endedStages.get(s.name)!.resolve();
          this.startReady();
        },
        (e: unknown) => {
          this.running.delete(s.name);
          // Cancelled with the others: a child process the failed stage started may still be running.
          this.cancel(e instanceof StageError ? e : new StageError(s.name, e));
          for (const f of mine) this.cancellers.delete(f);
          this.settleIfIdle();
        },
      );
    this.running.set(s.name, p);
  }

  /** The pipeline is over when nothing runs and nothing more can start (all done, or cancelled). */
  private settleIfIdle(): void {
    if (this.running.size > 0 || !this.finish) return;
    if (!this.failure && this.begun.size < this.stages.size) {
      const waiting = [...this.stages.values()].filter((s) => !this.begun.has(s.name));
      // Nothing runs, yet stages wait: their needs can never be met.
      this.failure = new StageError(waiting[0]!.name, new Error(`stages ${waiting.map((s) => s.name).join(', ')} wait for each other`));
    }
    const finish = this.finish;
    this.finish = undefined;
    finish();
  }
}
