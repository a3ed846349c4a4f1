import { describe, expect, it } from 'vitest';
import { relatedRowNames, rowText } from '../../../../src/catalog/derive/related-rows.ts';
import type { ErrorRecord } from '../../../../src/schema/record.ts';

let counter = 0;
type Fields = Pick<ErrorRecord, 'id' | 'repo' | 'errorClass' | 'errorMessage' | 'filePath' | 'lineNumber'>;
function rec(over: Partial<Fields>): Fields {
  counter++;
  return {
    repo: 'acme/app',
    errorClass: 'ValueError',
    errorMessage: 'x',
    filePath: 'src/a.py',
    lineNumber: counter * 10,
    ...over,
    id: counter.toString(16).padStart(16, '0'),
  };
}

/** What each row reads: its text, and its place after it. */
const reads = (rows: Fields[]) => {
  const names = relatedRowNames(rows, {});
  return rows.map((r, i) => `${names[i]?.text ?? rowText(r)}${names[i]?.place ? ` — ${names[i]!.place}` : ''}`);
};

describe('related rows', () => {
  const opening = 'Could not determine join condition between parent/child tables on relationship {self.prop} - there are no foreign keys linking these tables';

  it('show the words that differ where two messages cut alone would read the same', () => {
    const rows = [
      rec({ errorMessage: `${opening} via secondary table '{self.secondary}'. Ensure that referencing columns are associated` }),
      rec({ errorMessage: `${opening}. Ensure that referencing columns are associated with a ForeignKey` }),
      rec({ errorMessage: 'short' }),
    ];
    expect(rowText(rows[0]!)).toBe(rowText(rows[1]!));
    const text = reads(rows);
    expect(new Set(text).size).toBe(3);
    expect(text[0]).toContain('via secondary table');
    expect(text[1]).toContain('Ensure that referencing');
    for (const t of text) expect(t.length).toBeLessThanOrEqual(120);
    expect(relatedRowNames(rows, {})[2]).toBeUndefined();
  });

  it('add the place where two rows show one message, and nothing to lists whose rows differ', () => {
    const rows = [
      rec({ errorMessage: 'disk full', filePath: 'src/store.py' }),
      rec({ errorMessage: 'disk full', filePath: 'src/cache.py' }),
      rec({ errorMessage: 'other' }),
    ];
    expect(reads(rows)).toEqual(['disk full — store.py', 'disk full — cache.py', 'other']);
    expect(relatedRowNames([rows[0]!, rows[2]!], {})).toEqual([undefined, undefined]);
  });
});
