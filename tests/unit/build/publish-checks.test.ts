import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countProblems, fullTextPages, massRemovals, removedOf, siteRecordIds } from '../../../src/build/publish-checks.ts';

const whole = { records: 3, errorPages: 3, missingPages: [], jsonTwins: 3, indexRows: 3, messageIndex: 3, fullText: 3 };

describe('the checks before publishing', () => {
  it('accept a site whose counts agree, and name each count that does not', () => {
    expect(countProblems(whole)).toEqual([]);
    expect(countProblems({ ...whole, fullText: 0, jsonTwins: 4 })).toEqual(['4 JSON twins for 3 records', '0 pages in the full-text index for 3 records']);
    expect(countProblems({ ...whole, missingPages: ['a/b/c/index.html'] })).toEqual(['1 error pages listed but not written (a/b/c/index.html)']);
    expect(countProblems({ records: 0, errorPages: 0, missingPages: [], jsonTwins: 0, indexRows: 0, messageIndex: 0, fullText: 0 })[0]).toMatch(/no valid records/);
  });

  it('stop a removal of more than half the published records, by the site or by the ledger', () => {
    expect(massRemovals([{ source: 'site', published: 4, removed: 2 }])).toEqual([]);
    expect(massRemovals([{ source: 'site', published: 4, removed: 3 }])).toHaveLength(1);
    expect(massRemovals([{ source: 'site', published: 0, removed: 0 }, { source: 'ledger', published: 10, removed: 10 }]).map((r) => r.source)).toEqual(['ledger']);
    expect(massRemovals([{ source: 'site', published: 10, removed: 2 }], 0.1)).toHaveLength(1);
    expect(removedOf(new Set(['a', 'b', 'c']), new Set(['b', 'd']))).toBe(2);
  });

  it('read the records of a site from its JSON twins, and the pages of its full-text index from every part', () => {
    const site = mkdtempSync(join(tmpdir(), 'errdex-checks-'));
    expect(siteRecordIds(site).size).toBe(0);
    mkdirSync(join(site, 'api/errors'), { recursive: true });
    for (const id of ['aaaa', 'bbbb']) writeFileSync(join(site, 'api/errors', `${id}.json`), '{}');
    expect([...siteRecordIds(site)].sort()).toEqual(['aaaa', 'bbbb']);
    expect(fullTextPages(site)).toBe(0);
    mkdirSync(join(site, 'pagefind/part-1'), { recursive: true });
    const entry = (n: number) => JSON.stringify({ version: '1.6.0', languages: { en: { hash: 'x', wasm: 'en', page_count: n } } });
    writeFileSync(join(site, 'pagefind/pagefind-entry.json'), entry(5));
    writeFileSync(join(site, 'pagefind/part-1/pagefind-entry.json'), entry(7));
    expect(fullTextPages(site)).toBe(5);
    writeFileSync(join(site, 'pagefind/errdex-parts.json'), JSON.stringify({ parts: ['part-1'] }));
    expect(fullTextPages(site)).toBe(12);
  });
});
