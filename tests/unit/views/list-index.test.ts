import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../../../bench/lib/synthetic.ts';
import { type ListIndexRecord, SHARD_BUDGET, listIndexShards, packSlug, shardEntries, unpackSlug } from '../../../src/views/list-index.ts';

const records = (count: number): ListIndexRecord[] => [...syntheticRecords({ count, seed: 7 })].map((line) => (JSON.parse(line) as { record: ListIndexRecord }).record);

describe('the filter index of a repository', () => {
  it('reads back every error as written: message, file, line, severity, class and slug', () => {
    const rs = records(800);
    const back = listIndexShards(rs, 16 * 1024).flatMap(shardEntries);
    expect(back).toEqual(rs.map((r) => ({ message: r.errorMessage, file: r.filePath, line: r.lineNumber ?? null, severity: r.severity, errorClass: r.errorClass ?? '', slug: r.slug })));
  });

  it('keeps a slug that is not the message words and a tail whole', () => {
    expect(packSlug('Unexpected frame received', 'unexpected-frame-received-b024d3')).toBe('~-b024d3');
    expect(unpackSlug('Unexpected frame received', '~-b024d3')).toBe('unexpected-frame-received-b024d3');
    expect(packSlug('Unexpected frame received', 'my-own-slug')).toBe('my-own-slug');
    expect(packSlug('%s', 'error-b024d3')).toBe('error-b024d3');
    expect(unpackSlug('%s', 'error-b024d3')).toBe('error-b024d3');
  });

  it('of 5,000 errors is a few shards of at most the budget, about 200 KB gzipped together', () => {
    const shards = listIndexShards(records(5000));
    expect(shards.length).toBeGreaterThan(2);
    let gz = 0;
    for (const s of shards) {
      const json = JSON.stringify(s);
      // A shard ends with the row that takes it past the budget.
      expect(json.length).toBeLessThan(SHARD_BUDGET * 1.1);
      gz += gzipSync(json, { level: 9 }).length;
    }
    expect(shards.reduce((n, s) => n + s.rows.length, 0)).toBe(5000);
    expect(gz).toBeLessThanOrEqual(200 * 1024);
  });
});
