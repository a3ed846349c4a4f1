import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../../../bench/lib/synthetic.ts';
import { decodeIds, encodeIds, intersectIds, matchesWords, nodeOf, queryWords, rowsOf, termFiles, words } from '../../../src/views/list-terms.ts';

interface Rec {
  errorMessage: string;
  filePath: string;
  errorClass: string | null;
}
const rowWords = (count: number): string[][] =>
  [...syntheticRecords({ count, seed: 3 })].map((line) => {
    const r = (JSON.parse(line) as { record: Rec }).record;
    return words(`${r.errorMessage} ${r.filePath} ${r.errorClass ?? ''}`);
  });

describe('the words of a filter index', () => {
  it('cuts at anything not a letter or digit, lowercases, and counts camel-case parts too', () => {
    expect(words('ValueError: HTTPServer at orm/session.py:123 (max_length)').sort()).toEqual(
      ['123', 'at', 'error', 'http', 'httpserver', 'length', 'max', 'orm', 'py', 'server', 'session', 'value', 'valueerror'].sort(),
    );
    expect(words('Größe ungültig')).toEqual(['größe', 'ungültig']);
  });

  it('drops a query word another one starts, and matches word starts only', () => {
    expect(queryWords('ValueErr')).toEqual(['valueerr', 'err']);
    const row = words('ValueError: widget store main is locked');
    expect(matchesWords(row, queryWords('valueerr lock'))).toBe(true);
    expect(matchesWords(row, queryWords('error'))).toBe(true);
    expect(matchesWords(row, queryWords('rror'))).toBe(false);
    expect(matchesWords(row, queryWords('locked missing'))).toBe(false);
  });

  it('encodes row lists as differences and reads them back', () => {
    expect(encodeIds([0, 1, 5, 6])).toEqual([1, 1, 4, 1]);
    expect(decodeIds(encodeIds([3, 9, 10, 400]))).toEqual([3, 9, 10, 400]);
    expect(intersectIds([[1, 2, 5, 9], [2, 9, 10], [0, 2, 9]])).toEqual([2, 9]);
  });

  // Small budgets cut the tree deep: every kind of node is met.
  it.each([512, 4096, 64 * 1024])('finds, through its files (budget %i), exactly the rows a scan of every row finds', (budget) => {
    const rows = rowWords(3000);
    const { tree, files } = termFiles(rows, budget);
    const all = [...new Set(rows.flat())].sort();
    const queries = ['e', 'c', 'co', 'con', 'value', 'err', 'session', 'zzz', 'x', '1', ...all.filter((_, i) => i % 37 === 0)];
    for (const q of queries) {
      const node = nodeOf(tree, q);
      const found = node ? rowsOf(files[node.file]!, node, q) : [];
      const expected = rows.flatMap((ws, id) => (ws.some((w) => w.startsWith(q)) ? [id] : []));
      expect(found, q).toEqual(expected);
    }
    expect(tree.keys.length).toBe(tree.nodes.length);
  });

  it('keeps each file near its budget, but for a word or union too big to cut', () => {
    const budget = 8 * 1024;
    const { files } = termFiles(rowWords(3000), budget);
    for (const f of files) {
      const single = f.t.length + Object.keys(f.u).length === 1;
      if (!single) expect(JSON.stringify(f).length).toBeLessThan(budget * 1.25);
    }
    expect(files.length).toBeGreaterThan(5);
  });
});
