import { describe, expect, it } from 'vitest';
import { workRuns, type Block } from '../../../src/build/highlight-pool.ts';

const blocks = (langs: Record<string, number>): Block[] =>
  Object.entries(langs).flatMap(([lang, n]) => Array.from({ length: n }, (_, i) => ({ key: `${lang}-${i}`, code: `${i}`, lang })));

/** Takes batches in turn, as workers finishing at the same pace would. */
function drain(work: ReturnType<typeof workRuns>, workers: number): Block[][] {
  const got: Block[][] = Array.from({ length: workers }, () => []);
  for (let done = false; !done; ) {
    done = true;
    for (let w = 0; w < workers; w++) {
      const batch = work.take(w);
      if (batch.length > 0) done = false;
      got[w]!.push(...batch);
    }
  }
  return got;
}

describe('highlight work split between workers', () => {
  it('hands out every block exactly once', () => {
    const all = blocks({ go: 300, cpp: 500, python: 77, rust: 1 });
    const got = drain(workRuns(all, 3), 3);
    expect(got.flat().map((b) => b.key).sort()).toEqual(all.map((b) => b.key).sort());
  });

  it('keeps each worker to about half the languages when two share the work', () => {
    const all = blocks({ typescript: 1000, cpp: 1000, go: 1000, python: 1000 });
    const [a, b] = drain(workRuns(all, 2), 2).map((g) => new Set(g.map((x) => x.lang)));
    expect([...a!].sort()).toEqual(['cpp', 'go']);
    expect([...b!].sort()).toEqual(['python', 'typescript']);
  });

  it('lets a worker that ran out take from the end of the longest run left', () => {
    const work = workRuns(blocks({ cpp: 1000, go: 1000 }), 2);
    // Worker 1 is slow: worker 0 finishes its run, then takes the rest of worker 1's from its end.
    const first = work.take(1);
    const zero: Block[] = [];
    for (let batch = work.take(0); batch.length > 0; batch = work.take(0)) zero.push(...batch);
    expect(first.every((b) => b.lang === 'go')).toBe(true);
    expect(zero.length + first.length).toBe(2000);
    expect(work.take(1)).toEqual([]);
  });
});
