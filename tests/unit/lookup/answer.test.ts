import { describe, expect, it } from 'vitest';
import { messagePath } from '../../../src/catalog/derive/message-groups.ts';
import { pageAnswer } from '../../../src/lookup/answer.ts';
import { mergeHits } from '../../../src/search/results.ts';
import type { ErrorRecord } from '../../../src/schema/record.ts';
import { noConfidentMatch, POSSIBLY_RELATED } from '../../../src/search/confidence.ts';
import { matchPaste } from '../../../src/search/matcher.ts';
import { buildMessageIndex, type EntryTuple } from '../../../src/search/message-index.ts';
import { sampleWrapped } from '../../support/records.ts';

let n = 0;
function record(errorMessage: string, messagePattern: string, extra: Partial<ErrorRecord> = {}): ErrorRecord {
  const base = sampleWrapped()[0]!.record as unknown as ErrorRecord;
  const id = (++n).toString(16).padStart(16, '0');
  return { ...base, id, slug: `e-${id}`, errorMessage, messagePattern, ...extra };
}

const shared = 'connection pool exhausted after {n} attempts';
const records = [
  record(shared, 'connection pool exhausted after (.+?) attempts', { filePath: 'pool/a.py', lineNumber: 10 }),
  record(shared, 'connection pool exhausted after (.+?) attempts', { filePath: 'pool/b.py', lineNumber: 20 }),
  record('frame {id} not found in buffer {buf}', 'frame (.+?) not found in buffer (.+?)'),
  record('frame {id} dropped in buffer {buf}', 'frame (.+?) dropped in buffer (.+?)'),
  record('frame {id} lost in buffer {buf}', 'frame (.+?) lost in buffer (.+?)'),
  record('frame {id} late in buffer {buf}', 'frame (.+?) late in buffer (.+?)'),
];
const built = buildMessageIndex(records, { targetShardBytes: 300, messagePage: messagePath });
const results = (paste: string) => matchPaste(paste, built.manifest, async (i) => JSON.parse(built.shards[i]!) as EntryTuple[]);

describe('pageAnswer', () => {
  it("answers with the record's page for a message one record raises", async () => {
    const a = pageAnswer(await results('frame 7 not found in buffer 2'));
    expect(a.found && [a.hit.path, a.top.entry.id, a.places]).toEqual([`/${records[2]!.repo}/e-${records[2]!.id}/`, records[2]!.id, []]);
  });

  it('answers with the message page, and its places, for a message raised in several places', async () => {
    const a = pageAnswer(await results('connection pool exhausted after 3 attempts'));
    if (!a.found) throw new Error('no entry');
    expect(a.hit.messagePage).toBe(true);
    expect(a.hit.path).toBe(messagePath(records[0]!));
    expect(a.places.map((p) => p.entry.file).sort()).toEqual(['pool/a.py', 'pool/b.py']);
    expect(a.top).toBe(a.places[0]);
  });

  it('finds no entry where the page says so, with at most the rows it calls possibly related', async () => {
    const weak = await results('frame 9 vanished from buffer 3 in transit');
    expect(weak.results.length).toBeGreaterThan(POSSIBLY_RELATED);
    expect(noConfidentMatch(weak.results)).toBe(true);
    const a = pageAnswer(weak);
    expect(a.found).toBe(false);
    expect(!a.found && a.related.map((h) => h.path)).toEqual(mergeHits(weak.related, []).map((h) => h.path));
    expect(!a.found && a.related.length).toBe(POSSIBLY_RELATED);
    expect(pageAnswer({ results: [], related: [] })).toEqual({ found: false, related: [] });
  });
});
