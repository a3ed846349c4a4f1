import { describe, expect, it } from 'vitest';
import type { ErrorRecord } from '../../../src/schema/record.ts';
import { pagefindDocument } from '../../../src/search/pagefind-document.ts';
import { sampleWrapped } from '../../support/records.ts';

const REV = { name: 'v2.0', sha: 'b'.repeat(40), date: '2025-06-02T03:04:05Z' };

describe('the Pagefind document of an error', () => {
  const base = sampleWrapped()[0]!.record as unknown as ErrorRecord;

  it('holds the earlier wordings of a record with a history, as searchable text', () => {
    const r: ErrorRecord = { ...base, history: { scannedFrom: REV, introduced: REV, messageChanges: [{ at: REV, errorMessage: 'no free slot <in> {pool}', messagePattern: 'no free slot <in> (.+?)' }] } };
    const { content } = pagefindDocument(r);
    expect(content).toContain('<p data-pagefind-weight="5">no free slot &lt;in&gt; {pool}</p>');
  });

  it('adds nothing when the message never changed', () => {
    const r: ErrorRecord = { ...base, history: { scannedFrom: REV, introduced: REV, messageChanges: [] } };
    expect(pagefindDocument(r)).toEqual(pagefindDocument(base));
  });
});
