import { describe, expect, it } from 'vitest';
import { twinFacts, twinPath } from '../../../src/lookup/twin.ts';
import { readRecords } from '../../support/index-site.ts';

const record = readRecords('tests/fixtures/catalogs/search-sites/errors.jsonl')[0]!;

describe('twinFacts', () => {
  it('takes the explanation, the first solution and the link to the raising line', () => {
    const twin = { record: { ...record, solutions: ['first', 'second'] }, datasetVersion: '2026-08-15T17:31:12.345Z' };
    expect(twinFacts(record.id, twin)).toEqual({
      meaning: record.documentation,
      firstSolution: 'first',
      githubUrl: `https://github.com/${record.repo}/blob/${record.analyzedSha}/${record.filePath}#L${record.lineNumber}`,
    });
    expect(twinPath(record.id)).toBe(`/api/errors/${record.id}.json`);
  });

  it("reads a twin with fields left out, and refuses another record's or a file that is no twin", () => {
    expect(twinFacts('x1', { record: { id: 'x1', githubUrl: 'https://github.com/o/r/blob/s/f.py#L1-L9' } })).toEqual({ meaning: null, firstSolution: null, githubUrl: 'https://github.com/o/r/blob/s/f.py#L1-L9' });
    expect(twinFacts('x1', { record: { id: 'x1', solutions: [] } })?.firstSolution).toBeNull();
    expect(twinFacts('other', { record })).toBeNull();
    expect(twinFacts(record.id, '<html>')).toBeNull();
  });
});
