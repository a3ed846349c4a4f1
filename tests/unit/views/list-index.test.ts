import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../../../bench/lib/synthetic.ts';
import { type ListIndexRecord, listIndex, listIndexFiles, packSlug, rowEntries, rowFileName, rowStarts, rowsToShow, SHOWN_STEP, termFileName, unpackSlug } from '../../../src/views/list-index.ts';
import { nodeOf, queryWords, rowsOf, intersectIds, type TermFile } from '../../../src/views/list-terms.ts';

const records = (count: number): ListIndexRecord[] => [...syntheticRecords({ count, seed: 7, classIds: ['lock-held', 'bad-input'] })].map((line) => (JSON.parse(line) as { record: ListIndexRecord }).record);
const titles = new Map([
  ['lock-held', 'Lock held'],
  ['bad-input', 'Bad input'],
]);

/** The gzipped bytes a query fetches, as the filter does: head, the word files its words name, the row files of the first matches it shows. */
const written = new Map<readonly ListIndexRecord[], { head: ReturnType<typeof listIndexFiles>['head']; gz: Map<string, number>; json: Map<string, string> }>();
function queryBytes(rs: readonly ListIndexRecord[], query: string): { bytes: number; matches: number } {
  if (!written.has(rs)) {
    const { head, files } = listIndexFiles(listIndex('repo', rs, titles));
    written.set(rs, { head, gz: new Map(files.map((f) => [f.name, gzipSync(f.json, { level: 9 }).length])), json: new Map(files.map((f) => [f.name, f.json])) });
  }
  const { head, gz, json } = written.get(rs)!;
  const names = new Set<string>();
  const lists = queryWords(query).map((w) => {
    const node = nodeOf(head.terms, w);
    if (!node) return [];
    names.add(termFileName(node.file));
    return rowsOf(JSON.parse(json.get(termFileName(node.file))!) as TermFile, node, w);
  });
  const ids = intersectIds(lists);
  for (const f of rowsToShow(ids.slice(0, SHOWN_STEP), rowStarts(head.rows), () => false).files) names.add(rowFileName(f));
  return { bytes: JSON.stringify(head).length + [...names].reduce((n, name) => n + gz.get(name)!, 0), matches: ids.length };
}

describe('the filter index of a listing', () => {
  it('reads back every error as written: message, file, line, severity, classes, slug and repository', () => {
    const rs = records(800);
    const index = listIndex('tag', rs, titles);
    const back = index.rows.flatMap((f) => rowEntries(f, index));
    expect(back).toEqual(
      rs.map((r) => ({
        message: r.errorMessage,
        file: r.filePath,
        line: r.lineNumber ?? null,
        severity: r.severity,
        errorClass: r.errorClass ?? '',
        slug: r.slug,
        repo: r.repo,
        failureClass: r.backgroundTag ? { id: r.backgroundTag, title: titles.get(r.backgroundTag)! } : null,
      })),
    );
    expect(back.some((e) => e.failureClass)).toBe(true);
  });

  it('keeps a slug that is not the message words and a tail whole', () => {
    expect(packSlug('Unexpected frame received', 'unexpected-frame-received-b024d3')).toBe('~-b024d3');
    expect(unpackSlug('Unexpected frame received', '~-b024d3')).toBe('unexpected-frame-received-b024d3');
    expect(packSlug('Unexpected frame received', 'my-own-slug')).toBe('my-own-slug');
    expect(packSlug('%s', 'error-b024d3')).toBe('error-b024d3');
    expect(unpackSlug('%s', 'error-b024d3')).toBe('error-b024d3');
  });

  it('lists the rows of each quick filter', () => {
    const rs = records(500);
    const file = rs[10]!.filePath;
    const index = listIndex('repo', rs, titles, [{ kind: 'file', value: file }]);
    let id = -1;
    const ids = index.facets[0]!.file.u.map((d) => (id += d));
    expect(ids).toEqual(rs.flatMap((r, i) => (r.filePath === file ? [i] : [])));
  });

  it('costs a query about the same on 1,000 and 10,000 errors, within 200 KB', () => {
    const small = records(1000);
    const big = records(10000);
    const word = big[123]!.errorMessage.split(' ').find((w) => /^[a-z]{5,}$/.test(w))!;
    for (const q of ['e', 'co', word, `${word} ${big[123]!.filePath.split('/').at(-1)}`, 'invalid value']) {
      const a = queryBytes(small, q);
      const b = queryBytes(big, q);
      expect(b.bytes, q).toBeLessThanOrEqual(200 * 1024);
      expect(b.matches, q).toBeGreaterThan(0);
      // Not ten times as much for ten times the rows.
      expect(b.bytes / a.bytes, q).toBeLessThan(4);
    }
  });
});
