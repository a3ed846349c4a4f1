import { describe, expect, it } from 'vitest';
import { historyLineText, historyView } from '../../../src/views/site-history.ts';

const rev = (name: string, c: string, date: string) => ({ name, sha: c.repeat(40), date });
const V1 = rev('v1.0', 'a', '2024-01-05T10:00:00Z');
const V2 = rev('v2.0', 'b', '2024-09-12T16:00:00Z');
const V3 = rev('v3.0', 'c', '2025-02-20T11:00:00.000Z');

describe('the error page’s history view', () => {
  it('is null for a record without a history', () => {
    expect(historyView({ repo: 'acme/x', history: undefined })).toBeNull();
  });

  it('says since which revision, or earlier when the site was in the first one scanned, with dates and tree links', () => {
    const v = historyView({ repo: 'acme/x', history: { scannedFrom: V1, introduced: V1, messageChanges: [] } })!;
    expect(v).toEqual({ since: { name: 'v1.0', date: '2024-01-05', href: `https://github.com/acme/x/tree/${'a'.repeat(40)}` }, orEarlier: true, changes: [], removed: null });
    expect(historyLineText(v)).toBe(' · since v1.0 or earlier');
    const later = historyView({ repo: 'acme/x', history: { scannedFrom: V1, introduced: V2, messageChanges: [] } })!;
    expect(later.orEarlier).toBe(false);
    expect(historyLineText(later)).toBe(' · since v2.0');
  });

  it('lists earlier wordings newest change first, names the last change in the header line, and the removal', () => {
    const v = historyView({
      repo: 'acme/x',
      history: {
        scannedFrom: V1,
        introduced: V1,
        messageChanges: [
          { at: V2, errorMessage: 'first {x}', messagePattern: 'first (.+?)' },
          { at: V3, errorMessage: 'second {x}', messagePattern: 'second (.+?)' },
        ],
        removed: V3,
      },
    })!;
    expect(v.changes.map((c) => [c.at.name, c.before])).toEqual([
      ['v3.0', 'second {x}'],
      ['v2.0', 'first {x}'],
    ]);
    expect(v.removed).toEqual({ name: 'v3.0', date: '2025-02-20', href: `https://github.com/acme/x/tree/${'c'.repeat(40)}` });
    expect(historyLineText(v)).toBe(' · since v1.0 or earlier · message changed in v3.0');
  });
});
