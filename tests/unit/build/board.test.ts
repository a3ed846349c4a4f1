import { describe, expect, it } from 'vitest';
import { Board } from '../../../src/build/board.ts';
import { Progress } from '../../../src/build/progress.ts';

function board() {
  let now = 0;
  const out: string[] = [];
  const progress = new Progress(3, { interactive: false, write: (t) => out.push(t), writeError: (t) => out.push(`ERR ${t}`), now: () => now });
  const b = new Board(['a', 'b', 'c'], { b: 'bee' }, progress, () => 42, () => now);
  return { b, out, at: (ms: number) => (now = ms) };
}

describe('Board', () => {
  it('shows stages in its order, one line each with its own time, whatever order they run in', () => {
    const { b, out, at } = board();
    b.stage('a').begin();
    b.stage('c').begin();
    at(1000);
    b.stage('c').end({ summary: 'c done', items: 1, unit: 'x' });
    b.stage('b').begin();
    at(3000);
    b.stage('a').end({ summary: 'a done', items: 1, unit: 'x' });
    expect(out).toEqual(['[1/3] a…\n', '[1/3] a done (3.0 s)\n', '[2/3] bee…\n']);
    at(4000);
    b.stage('b').end({ summary: 'b done', items: 2, unit: 'x' });
    expect(out.slice(3)).toEqual(['[2/3] b done (3.0 s)\n', '[3/3] c…\n', '[3/3] c done (1.0 s)\n', 'Built in 4.0 s.\n']);
    // Each stage's start from the board's: b began at 1 s, after a and c at 0.
    expect(b.results.map((r) => [r.name, r.startSeconds, r.seconds, r.peakRssBytes])).toEqual([
      ['a', 0, 3, 42],
      ['bee', 1, 3, 42],
      ['c', 0, 1, 42],
    ]);
  });

  it('catches a waiting stage\'s count up when it is shown', () => {
    const { b, out, at } = board();
    b.stage('a').begin();
    b.stage('b').begin();
    b.stage('b').count(100, 'pages');
    b.stage('b').update(50);
    at(1000);
    b.stage('a').end({ summary: 'a done', items: 0, unit: '' });
    expect(out[2]).toBe('[2/3] bee…\n');
    expect(out[3]).toMatch(/^\[2\/3\] bee: 50\/100 pages \(50%\)/);
    at(2000);
    b.stage('b').update(75);
    expect(out.at(-1)).toMatch(/^\[2\/3\] bee: 75\/100 pages \(75%\)/);
  });
});
