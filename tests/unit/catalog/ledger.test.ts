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
  });

  it('keeps the removal version when later versions are built', () => {
    const third = planLedger(second.ledger, [rec('a', 'new')], V3);
    expect(third.removed[0]!.entry.removedIn).toBe(V2);
    expect(third.changes.removedNow).toEqual([]);
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
    expect(problems.map((p) => `${p.line} ${p.field}`)).toEqual(['5 entries.1.id', '5 entries.1.paths']);
    expect(parseLedger('{"version": 2, "entries": []}', 'l.json').problems[0]!.message).toBe('must be 1; got 2');
    expect(parseLedger('{"version": 1,\n "entries": [', 'l.json').problems[0]).toMatchObject({ line: 2, field: '(file)' });
  });
});
