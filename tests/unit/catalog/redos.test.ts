/** The ReDoS flag for backtracking consumers: recheck's verdict, cached per pattern, within a time budget. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analysePatterns, backtrackingWarning, readVerdicts } from '../../../src/catalog/redos.ts';

describe('analysePatterns', () => {
  const cacheFile = join(mkdtempSync(join(tmpdir(), 'errdex-redos-')), 'redos.json');

  it('flags what a backtracking engine takes long on, clears a plain pattern, and caches both', async () => {
    const first = await analysePatterns(['^(a+)+$', '^(a|a)*$', '^widget [0-9]+ not found$'], { budgetMs: 60_000, cacheFile });
    expect(first.analysed).toBe(3);
    expect(first.verdicts.get('^(a+)+$')!.backtracking).toBe('exponential');
    expect(first.verdicts.get('^widget [0-9]+ not found$')!.backtracking).toBe('safe');
    expect(backtrackingWarning(first.verdicts.get('^(a+)+$')!)).toMatch(/^may take exponential time on a backtracking engine/);
    expect(backtrackingWarning(first.verdicts.get('^widget [0-9]+ not found$')!)).toBeNull();
    expect(readVerdicts(cacheFile).size).toBe(3);
    // Cached: nothing analysed again, even without a budget.
    const again = await analysePatterns(['^(a+)+$'], { budgetMs: 0, cacheFile });
    expect(again).toMatchObject({ analysed: 0, unchecked: 0 });
    expect(again.verdicts.get('^(a+)+$')!.backtracking).toBe('exponential');
  }, 120_000);

  it('leaves what the budget does not reach unchecked, for the next run', async () => {
    const run = await analysePatterns(['^x(y+)+$'], { budgetMs: 0, cacheFile });
    expect(run).toMatchObject({ analysed: 0, unchecked: 1 });
    expect(run.verdicts.get('^x(y+)+$')).toEqual({ backtracking: 'unchecked' });
  });
});
