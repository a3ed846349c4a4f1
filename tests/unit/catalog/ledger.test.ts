import { describe, expect, it } from 'vitest';
import { ledgerReport, parseLedger, planLedger, serializeLedger, type PublishedRecord } from '../../../src/catalog/ledger.ts';

const rec = (id: string, slug: string, repo = 'o/r'): PublishedRecord => ({ id: id.padStart(16, '0'), repo, title: `T ${slug}`, path: `/${repo}/${slug}/` });
const V1 = '2026-01-01T00:00:00Z';
const V2 = '2026-02-01T00:00:00Z';
const V3 = '2026-03-01T00:00:00Z';

describe('planLedger', () => {
  const first = planLedger({ entries: [] }, [rec('a', 'old'), rec('b', 'gone')], V1);

  it('starts with every page, nothing to redirect', () => {
    expect(first.changes.added).toBe(2);
    expect(first.publishedBefore).toBe(0);
    expect(first.redirects).toEqual([]);
    expect(first.ledger.entries.map((e) => [e.paths, e.since, e.removedIn])).toEqual([
      [['/o/r/old/'], V1, null],
      [['/o/r/gone/'], V1, null],
    ]);
  });

  const second = planLedger(first.ledger, [rec('a', 'new')], V2);

  it('redirects an old slug and marks a vanished record removed in this version', () => {
    expect(second.redirects).toEqual([{ id: '000000000000000a', from: '/o/r/old/', to: '/o/r/new/' }]);
    expect(second.removed).toEqual([{ entry: expect.objectContaining({ id: '000000000000000b', removedIn: V2 }), paths: ['/o/r/gone/'] }]);
    expect(second.changes.renamed).toHaveLength(1);
    expect(second.changes.removedNow).toHaveLength(1);
    expect(second.publishedBefore).toBe(2);
  });

  it('keeps the removal version when later versions are built', () => {
    const third = planLedger(second.ledger, [rec('a', 'new')], V3);
    expect(third.removed[0]!.entry.removedIn).toBe(V2);
    expect(third.changes.removedNow).toEqual([]);
    // The record removed before is not counted as published.
    expect(third.publishedBefore).toBe(1);
    expect(serializeLedger(third.ledger)).toBe(serializeLedger(second.ledger));
  });

  it('restores a record that comes back, and follows a slug that changes back', () => {
    const back = planLedger(second.ledger, [rec('a', 'old'), rec('b', 'gone')], V3);
    expect(back.removed).toEqual([]);
    expect(back.changes.restored.map((e) => e.id)).toEqual(['000000000000000b']);
    expect(back.redirects).toEqual([{ id: '000000000000000a', from: '/o/r/new/', to: '/o/r/old/' }]);
  });

  it('never lets an old URL shadow a live page, and reports it', () => {
    // c takes the slug that b had: b's old URL is now c's page.
    const taken = planLedger(second.ledger, [rec('a', 'new'), rec('c', 'gone')], V3);
    expect(taken.removed).toEqual([{ entry: expect.objectContaining({ id: '000000000000000b' }), paths: [] }]);
    expect(taken.changes.shadowed).toEqual([{ id: '000000000000000b', path: '/o/r/gone/' }]);
    expect(ledgerReport(taken, true).at(-1)).toBe("  note      /o/r/gone/ (an old URL of 000000000000000b) is now another record's page");
  });
});

describe('the ledger file', () => {
  it('round-trips, one entry per line', () => {
    const plan = planLedger({ entries: [] }, [rec('a', 'x'), rec('b', 'y')], V1);
    const text = serializeLedger(plan.ledger);
    expect(text.split('\n').filter((l) => l.startsWith('    {"id"'))).toHaveLength(2);
    expect(parseLedger(text, 'l.json')).toEqual({ ledger: plan.ledger, problems: [] });
  });

  it('reports each broken entry on its line', () => {
    const text = '{\n "version": 1,\n "entries": [\n  {"id": "000000000000000a", "repo": "o/r", "title": "t", "paths": ["/o/r/x/"], "since": "v", "removedIn": null},\n  {"id": "zz", "repo": "o/r", "title": "t", "paths": ["nope"], "since": "v", "removedIn": null}\n ]\n}\n';
    const { ledger, problems } = parseLedger(text, 'l.json');
    expect(ledger.entries).toHaveLength(1);
    expect(problems.map((p) => `${p.line} ${p.field}`)).toEqual(['5 entries.1.id', '5 entries.1.paths.0']);
    expect(parseLedger('{"version": 2, "entries": []}', 'l.json').problems[0]!.message).toBe('must be 1; got 2');
    expect(parseLedger('{"version": 1,\n "entries": [', 'l.json').problems[0]).toMatchObject({ line: 2, field: '(file)' });
  });

  it('checks each page path like a slug: no "..", no line breaks or control characters, no long segments, not in the site\'s own folders', () => {
    const paths = [
      '/o/r/ok-1/',
      '/o/r/../',
      '/o/../x/',
      '/o/r/line\nbreak/',
      '/o/r/tab\there/',
      `/o/r/${'a'.repeat(300)}/`,
      '/search/r/x/',
      '/E/r/x/',
      '/_astro/r/x/',
      '/pagefind/r/x/',
      '/o/r/x y/',
      '/o/r/x?y/',
      '/o/r/',
      '/o/r/x/y/',
      'o/r/x/',
      '/o/r/x',
      '//r/x/',
      42,
    ];
    const entries = paths.map((p, i) => JSON.stringify({ id: i.toString(16).padStart(16, '0'), repo: 'o/r', title: 't', paths: [p], since: 'v', removedIn: null }));
    const text = `{\n "version": 1,\n "entries": [\n  ${entries.join(',\n  ')}\n ]\n}\n`;
    const { ledger, problems } = parseLedger(text, 'l.json');
    expect(ledger.entries.map((e) => e.paths[0])).toEqual(['/o/r/ok-1/']);
    expect(problems.map((p) => `${p.line} ${p.field} ${p.message}`)).toEqual([
      '5 entries.1.paths.0 is "/o/r/../": its segment ".." would leave its folder (in the entry of record 0000000000000001)',
      '6 entries.2.paths.0 is "/o/../x/": its segment ".." would leave its folder (in the entry of record 0000000000000002)',
      '7 entries.3.paths.0 contains the control character U+000A; it must be a page path such as "/owner/repo/slug/", on one line (in the entry of record 0000000000000003)',
      '8 entries.4.paths.0 contains the control character U+0009; it must be a page path such as "/owner/repo/slug/", on one line (in the entry of record 0000000000000004)',
      '9 entries.5.paths.0 has a segment of 300 characters; the limit is 200 (in the entry of record 0000000000000005)',
      '10 entries.6.paths.0 is "/search/r/x/", inside the site\'s own folder /search/; a record\'s page is never there (in the entry of record 0000000000000006)',
      '11 entries.7.paths.0 is "/E/r/x/", inside the site\'s own folder /e/; a record\'s page is never there (in the entry of record 0000000000000007)',
      '12 entries.8.paths.0 is "/_astro/r/x/", inside the site\'s own folder /_astro/; a record\'s page is never there (in the entry of record 0000000000000008)',
      '13 entries.9.paths.0 is "/pagefind/r/x/", inside the site\'s own folder /pagefind/; a record\'s page is never there (in the entry of record 0000000000000009)',
      '14 entries.10.paths.0 is "/o/r/x y/": a segment may hold only letters, digits, ".", "_" and "-" (in the entry of record 000000000000000a)',
      '15 entries.11.paths.0 is "/o/r/x?y/": a segment may hold only letters, digits, ".", "_" and "-" (in the entry of record 000000000000000b)',
      '16 entries.12.paths.0 is "/o/r/", with 2 segments; it must be a page path such as "/owner/repo/slug/" (in the entry of record 000000000000000c)',
      '17 entries.13.paths.0 is "/o/r/x/y/", with 4 segments; it must be a page path such as "/owner/repo/slug/" (in the entry of record 000000000000000d)',
      '18 entries.14.paths.0 is "o/r/x/"; it must be a page path such as "/owner/repo/slug/", starting and ending with "/" (in the entry of record 000000000000000e)',
      '19 entries.15.paths.0 is "/o/r/x"; it must be a page path such as "/owner/repo/slug/", starting and ending with "/" (in the entry of record 000000000000000f)',
      '20 entries.16.paths.0 is "//r/x/", with an empty segment; it must be a page path such as "/owner/repo/slug/" (in the entry of record 0000000000000010)',
      '21 entries.17.paths.0 must be a page path such as "/owner/repo/slug/"; got number (in the entry of record 0000000000000011)',
    ]);
  });
});
