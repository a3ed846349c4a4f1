import { describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../../../src/catalog/catalog.ts';
import { MESSAGE_TITLE_MAX, messageGroups, messagePath, placeLabels, sharedTitles } from '../../../../src/catalog/derive/message-groups.ts';
import type { ErrorRecord } from '../../../../src/schema/record.ts';

let counter = 0;
type Fields = Pick<ErrorRecord, 'id' | 'repo' | 'errorClass' | 'errorMessage' | 'filePath' | 'lineNumber'>;
function rec(over: Partial<Fields>): Fields {
  counter++;
  return {
    repo: 'acme/app',
    errorClass: 'ValueError',
    errorMessage: 'Unexpected source',
    filePath: 'src/a.py',
    lineNumber: counter,
    ...over,
    id: counter.toString(16).padStart(16, '0'),
  };
}
const entry = (r: Fields) => ({ record: r as ErrorRecord }) as CatalogEntry;

describe('message groups', () => {
  it('groups the records of one repository that share a message, in code order, and leaves single ones out', () => {
    const a = rec({ filePath: 'src/b.py', lineNumber: 3 });
    const b = rec({ filePath: 'src/a.py', lineNumber: 9 });
    const other = rec({ repo: 'acme/lib' });
    const single = rec({ errorMessage: 'only here' });
    const groups = messageGroups([a, b, other, single].map(entry));
    expect(groups).toHaveLength(1);
    expect(groups[0]!.entries.map((e) => e.record.id)).toEqual([b.id, a.id]);
    expect(groups[0]!.path).toBe(messagePath(a));
  });

  it('keeps the words that differ in a message page title when another message page of the repository starts alike', () => {
    const long = 'A value is required for bind parameter {key}, in parameter group {index} of the statement';
    const a = [rec({ errorMessage: `${long} (a)` }), rec({ errorMessage: `${long} (a)` })];
    const b = [rec({ errorMessage: `${long} (b)` }), rec({ errorMessage: `${long} (b)` })];
    const c = [rec({ errorMessage: 'short' }), rec({ errorMessage: 'short' })];
    const groups = messageGroups([...a, ...b, ...c].map(entry));
    expect(groups.map((g) => g.titleHeadline)).toEqual([
      'ValueError: A value is required for bind parameter … (a)',
      'ValueError: A value is required for bind parameter … (b)',
      'ValueError: short',
    ]);
    for (const g of groups) expect(g.titleHeadline.length).toBeLessThanOrEqual(MESSAGE_TITLE_MAX);
    expect(groups[0]!.errorClass).toBe('ValueError');
  });

  it('gives a message page a path of the repository and the message text alone', () => {
    const path = messagePath({ repo: 'acme/app', errorMessage: 'Unknown PG numeric type: {coltype}' });
    expect(path).toMatch(/^\/acme\/app\/m\/unknown-pg-numeric-type-coltype-[0-9a-f]{8}\/$/);
    expect(messagePath({ repo: 'acme/app', errorMessage: 'Unknown PG numeric type: {coltype}' })).toBe(path);
    expect(messagePath({ repo: 'acme/app', errorMessage: 'Unknown PG numeric type: {coltype}!' })).not.toBe(path);
    expect(messagePath({ repo: 'acme/app', errorMessage: '{x}' })).toMatch(/^\/acme\/app\/m\/x-[0-9a-f]{8}\/$/);
    expect(messagePath({ repo: 'acme/app', errorMessage: '…' })).toMatch(/^\/acme\/app\/m\/message-[0-9a-f]{8}\/$/);
  });
});

describe('place labels', () => {
  it('labels only records whose title another shares, with the shortest file ending and the function', () => {
    const a = rec({ filePath: 'pkg/one/util.py' });
    const b = rec({ filePath: 'pkg/two/util.py' });
    const c = rec({ filePath: 'pkg/two/main.py' });
    const alone = rec({ errorMessage: 'something else' });
    const labels = placeLabels([a, b, c, alone], { [c.id]: 'Loader.read' });
    expect(labels.get(a.id)).toBe('one/util.py');
    expect(labels.get(b.id)).toBe('two/util.py');
    expect(labels.get(c.id)).toBe('main.py, Loader.read');
    expect(labels.has(alone.id)).toBe(false);
    expect(sharedTitles([a, b, c, alone]).map((r) => r.id)).toEqual([a.id, b.id, c.id]);
  });

  it('adds the line where file and function are shared, and the id where even the line is', () => {
    const a = rec({ filePath: 'x.py', lineNumber: 10 });
    const b = rec({ filePath: 'x.py', lineNumber: 20 });
    const c = rec({ filePath: 'x.py', lineNumber: 20 });
    const d = rec({ filePath: 'x.py', lineNumber: 30 });
    const labels = placeLabels([a, b, c, d], { [a.id]: 'f', [b.id]: 'f', [c.id]: 'f', [d.id]: 'g' });
    expect(labels.get(a.id)).toBe('x.py:10, f');
    expect(labels.get(b.id)).toBe(`x.py:20 #${b.id.slice(0, 8)}, f`);
    expect(labels.get(c.id)).toBe(`x.py:20 #${c.id.slice(0, 8)}, f`);
    expect(labels.get(d.id)).toBe('x.py, g');
  });

  it('leaves long messages that the title cuts to the same words to their words (titles.ts), not to a place', () => {
    const long = 'a message long enough that the page title has to cut it before this part, which differs';
    const a = rec({ errorMessage: `${long} here`, filePath: 'a.py' });
    const b = rec({ errorMessage: `${long} there`, filePath: 'b.py' });
    const c = rec({ errorMessage: `${long} there`, filePath: 'c.py' });
    const labels = placeLabels([a, b, c], {});
    expect([labels.get(a.id), labels.get(b.id), labels.get(c.id)]).toEqual([undefined, 'b.py', 'c.py']);
    expect(sharedTitles([a, b, c]).map((r) => r.id)).toEqual([b.id, c.id]);
  });
});
