import { describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../../../src/catalog/catalog.ts';
import { messageGroups, messagePath } from '../../../../src/catalog/derive/message-groups.ts';
import { planMessagePages } from '../../../../src/catalog/derive/message-ledger.ts';
import { parseLedger, serializeLedger } from '../../../../src/catalog/ledger.ts';
import type { ErrorRecord } from '../../../../src/schema/record.ts';

const entry = (id: string, errorMessage: string): CatalogEntry =>
  ({ record: { id: id.padStart(16, '0'), repo: 'o/r', slug: `s-${id}`, errorMessage, filePath: `${id}.py`, lineNumber: 1 } as ErrorRecord }) as CatalogEntry;
const V1 = '2026-01-01T00:00:00.000Z';
const V2 = '2026-02-01T00:00:00.000Z';

describe('message pages in the URL ledger', () => {
  const twice = [entry('a', 'twice'), entry('b', 'twice')];
  const first = planMessagePages([], messageGroups(twice), twice, V1);

  it('records each message page published, since its first dataset version', () => {
    expect(first.entries).toEqual([{ path: messagePath({ repo: 'o/r', errorMessage: 'twice' }), repo: 'o/r', title: 'twice', since: V1, goneIn: null }]);
    expect(first.redirects).toEqual([]);
    expect(first.gone).toEqual([]);
    expect(planMessagePages(first.entries, messageGroups(twice), twice, V2).entries).toEqual(first.entries);
  });

  it('redirects a message page to the one record left, and says when none is', () => {
    const one = [entry('a', 'twice')];
    const shrunk = planMessagePages(first.entries, messageGroups(one), one, V2);
    expect(shrunk.redirects).toEqual([{ from: first.entries[0]!.path, to: '/o/r/s-a/' }]);
    expect(shrunk.entries).toEqual(first.entries);
    const none = [entry('c', 'other')];
    const gone = planMessagePages(shrunk.entries, messageGroups(none), none, V2);
    expect(gone.gone).toEqual([{ ...first.entries[0]!, goneIn: V2 }]);
    // Gone stays gone from the version it went, and a message raised twice again has its page back.
    expect(planMessagePages(gone.entries, [], none, '2026-03-01T00:00:00.000Z').gone[0]!.goneIn).toBe(V2);
    expect(planMessagePages(gone.entries, messageGroups(twice), twice, '2026-03-01T00:00:00.000Z').entries).toEqual(first.entries);
  });

  it('reads back what it writes, and a ledger without message pages keeps its old form', () => {
    const ledger = { entries: [], messages: first.entries };
    expect(parseLedger(serializeLedger(ledger), 'l.json')).toEqual({ ledger, problems: [] });
    expect(serializeLedger({ entries: [] })).not.toContain('messages');
    const bad = parseLedger('{"version": 1, "entries": [], "messages": [{"path": "/o/r/x/", "repo": "o/r", "title": "t", "since": "v", "goneIn": 3}]}', 'l.json');
    expect(bad.problems.map((p) => `${p.field}: ${p.message}`)).toEqual([
      'messages.0.path: must be a message page path such as "/owner/repo/m/slug/"',
      'messages.0.goneIn: must be a dataset version or null',
    ]);
  });
});
