import { describe, expect, it } from 'vitest';
import { countLine, etaSeconds, formatDuration, isInteractive, Progress } from '../../../src/build/progress.ts';

describe('formatDuration', () => {
  it('reads naturally from tenths of a second to hours', () => {
    expect(formatDuration(0.42)).toBe('0.4 s');
    expect(formatDuration(42.4)).toBe('42 s');
    expect(formatDuration(185)).toBe('3 min 05 s');
    expect(formatDuration(3725)).toBe('1 h 02 min');
  });
});

describe('etaSeconds', () => {
  it('projects the remaining items at the rate measured so far', () => {
    expect(etaSeconds(250, 1000, 250, 5)).toBe(15);
  });
  it('has no answer before there is a rate', () => {
    expect(etaSeconds(0, 1000, 0, 3)).toBeNull();
    expect(etaSeconds(10, 1000, 10, 0.1)).toBeNull();
  });
});

describe('countLine', () => {
  it('shows counts, percentage, rate and ETA', () => {
    expect(countLine({ done: 4210, total: 20002, unit: 'files', rate: 812.4, eta: 19.4 })).toBe('4,210/20,002 files (21%), 812/s, ETA 19 s');
  });
  it('drops the ETA once done and never shows more than 100%', () => {
    expect(countLine({ done: 20004, total: 20000, unit: 'files', rate: 10, eta: 0 })).toBe('20,004/20,000 files (100%), 10/s');
  });
});

describe('isInteractive', () => {
  it('redraws only on a terminal outside CI', () => {
    expect(isInteractive({ isTTY: true }, {})).toBe(true);
    expect(isInteractive({ isTTY: true }, { CI: 'true' })).toBe(false);
    expect(isInteractive({ isTTY: false }, {})).toBe(false);
  });
});

/** A Progress on a fake clock, collecting what it writes. */
function fakeProgress(interactive: boolean) {
  let now = 0;
  const out: string[] = [];
  const p = new Progress(2, { interactive, write: (t) => out.push(t), writeError: (t) => out.push(`ERR ${t}`), now: () => now });
  return { p, out, tick: (ms: number) => (now += ms) };
}

describe('Progress', () => {
  it('writes plain lines in CI: the stage, one line per tenth of the work, and the summary with its time', () => {
    const { p, out, tick } = fakeProgress(false);
    p.stage('render');
    p.count(100, 'files');
    for (let i = 1; i <= 100; i++) {
      tick(100);
      p.update(i);
    }
    p.end('100 files');
    expect(out[0]).toBe('[1/2] render…\n');
    const counts = out.filter((l) => l.startsWith('[1/2] render: '));
    expect(counts).toHaveLength(9); // 10%, 20%, … 90%; the summary says 100%
    expect(counts[0]).toMatch(/^\[1\/2\] render: 10\/100 files \(10%\), 10\/s, ETA 9\.0 s\n$/);
    expect(out.every((l) => !l.includes('\r'))).toBe(true);
    expect(out.at(-1)).toBe('[1/2] 100 files (10 s)\n');
  });

  it('redraws one line in place on a terminal, at most ten times a second, and clears it before the summary', () => {
    const { p, out, tick } = fakeProgress(true);
    p.stage('highlight');
    p.count(1000, 'blocks');
    for (let i = 1; i <= 1000; i++) {
      tick(2);
      p.update(i);
    }
    const redraws = out.filter((l) => l.startsWith('\r\x1b[2K[1/2] highlight: '));
    expect(redraws.length).toBeGreaterThan(10);
    expect(redraws.length).toBeLessThanOrEqual(21); // 2 s of work at most every 100 ms, plus the last
    p.warn('careful');
    expect(out.slice(-2)).toEqual(['\r\x1b[2K', 'ERR careful\n']);
    p.end('done');
    expect(out.at(-1)).toBe('[1/2] done (2.0 s)\n');
  });

  it('prints the build total after the last stage', () => {
    const { p, out, tick } = fakeProgress(false);
    p.stage('a');
    tick(1000);
    p.end('a done');
    p.stage('b');
    tick(2000);
    p.end('b done');
    expect(out.at(-1)).toBe('Built in 3.0 s.\n');
  });
});
