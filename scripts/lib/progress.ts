/** One line per build stage: its name, then its result and time. Plain lines (no redraws) so CI logs stay readable. */
export class Progress {
  private index = 0;
  private started = 0;
  private readonly buildStarted = performance.now();

  constructor(private readonly total: number) {}

  stage(name: string): void {
    this.index++;
    this.started = performance.now();
    process.stdout.write(`[${this.index}/${this.total}] ${name}…\n`);
  }

  done(summary: string): void {
    const s = ((performance.now() - this.started) / 1000).toFixed(1);
    process.stdout.write(`[${this.index}/${this.total}] ${summary} (${s} s)\n`);
    if (this.index === this.total) process.stdout.write(`Built in ${((performance.now() - this.buildStarted) / 1000).toFixed(1)} s.\n`);
  }
}
