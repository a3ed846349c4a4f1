/** The ReDoS flag for backtracking consumers: recheck's verdict, a function of the pattern alone, memoised per pattern. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addBacktrackingWarnings, analysePatterns, backtrackingWarning, readVerdicts, writeVerdicts } from '../../../src/catalog/redos.ts';
import type { CatalogEntry } from '../../../src/catalog/catalog.ts';

const freshCache = () => join(mkdtempSync(join(tmpdir(), 'errdex-redos-')), 'redos.json');

// `^[a-z]{40}x+$` repeats more than the checker's maxRepeatCount allows: undecided, whatever the machine.
const expected = {
  '^widget [0-9]+ not found$': 'safe',
  '^(a+)+$': 'exponential',
  '.*.*.*=': 'polynomial',
  '^[a-z]{40}x+$': 'unknown',
};
const patterns = Object.keys(expected);

describe('analysePatterns', () => {
  it('gives each pattern the same verdict from two cold caches and from a warm one', async () => {
    const cacheA = freshCache();
    const cacheB = freshCache();
    const a = await analysePatterns(patterns, { cacheFile: cacheA });
    const b = await analysePatterns(patterns, { cacheFile: cacheB });
    const warm = await analysePatterns(patterns, { cacheFile: cacheA });
    expect(a.analysed).toBe(4);
    expect(b.analysed).toBe(4);
    expect(warm.analysed).toBe(0);
    const kinds = (r: typeof a) => Object.fromEntries([...r.verdicts].map(([p, v]) => [p, v.backtracking]));
    expect(kinds(a)).toEqual(expected);
    expect(b.verdicts).toEqual(a.verdicts);
    expect(warm.verdicts).toEqual(a.verdicts);
    // The memo files are byte-identical too.
    expect(readFileSync(cacheB, 'utf8')).toBe(readFileSync(cacheA, 'utf8'));
    expect(backtrackingWarning(a.verdicts.get('^(a+)+$')!)).toMatch(/^may take exponential time on a backtracking engine/);
    expect(backtrackingWarning(a.verdicts.get('.*.*.*=')!)).toMatch(/polynomial time/);
    expect(backtrackingWarning(a.verdicts.get('^widget [0-9]+ not found$')!)).toBeNull();
    expect(backtrackingWarning(a.verdicts.get('^[a-z]{40}x+$')!)).toBeNull();
  }, 120_000);

  it('reads no verdict from a file of another checker version or settings', () => {
    const file = freshCache();
    writeVerdicts(file, new Map([['^a$', { backtracking: 'safe' }]]));
    expect(readVerdicts(file).size).toBe(1);
    const other = file.replace(/redos\.json$/, 'other.json');
    writeFileSync(other, readFileSync(file, 'utf8').replace(/"checker":"recheck [^"]*"/, '"checker":"recheck 0.0.0 {}"'));
    expect(readVerdicts(other).size).toBe(0);
  });
});

describe('addBacktrackingWarnings', () => {
  const entry = (messagePattern: string, line: number) => ({ record: { messagePattern }, origin: { file: 'data/a.jsonl', line } }) as unknown as CatalogEntry;

  it('warns on the vulnerable patterns of the given verdicts and counts the patterns they lack', () => {
    const catalog = { entries: [entry('^(a+)+$', 1), entry('^ok$', 2), entry('^new (.+)$', 3), entry('^new (.+)$', 4)], warnings: [] };
    const verdicts = new Map([
      ['^(a+)+$', { backtracking: 'exponential' as const, summary: 'exponential' }],
      ['^ok$', { backtracking: 'safe' as const }],
    ]);
    expect(addBacktrackingWarnings(catalog, verdicts)).toEqual({ unchecked: 1, flagged: 1 });
    expect(catalog.warnings).toMatchObject([{ file: 'data/a.jsonl', line: 1, field: 'record.messagePattern', code: 'redos', severity: 'warning' }]);
  });
});
