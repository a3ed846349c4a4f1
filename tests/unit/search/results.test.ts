import { describe, expect, it } from 'vitest';
import type { ErrorRecord } from '../../../src/schema/record.ts';
import { matchPaste } from '../../../src/search/matcher.ts';
import { buildMessageIndex, type EntryTuple } from '../../../src/search/message-index.ts';
import { mergeHits } from '../../../src/search/results.ts';
import { sampleWrapped } from '../../support/records.ts';

let n = 0;
function record(errorMessage: string, messagePattern: string, extra: Partial<ErrorRecord> = {}): ErrorRecord {
  const base = sampleWrapped()[0]!.record as unknown as ErrorRecord;
  const id = (++n).toString(16).padStart(16, '0');
  return { ...base, id, slug: `e-${id}`, errorMessage, messagePattern, repo: 'acme/db', ...extra };
}

// One message raised in two places of a repository, and once in another repository.
const message = 'Instance {state} is not persisted in this session';
const pattern = 'Instance (.+?) is not persisted in this session';
const records = [
  record(message, pattern, { filePath: 'lib/acme/orm/session.py', lineNumber: 120 }),
  record(message, pattern, { filePath: 'lib/acme/orm/unitofwork.py', lineNumber: 300 }),
  record(message, pattern, { repo: 'other/db', filePath: 'db/session.py', lineNumber: 5 }),
  record('Instance {state} has been deleted', 'Instance (.+?) has been deleted'),
];
const page = (r: Pick<ErrorRecord, 'repo' | 'errorMessage'>) => `/${r.repo}/m/${r.errorMessage.length}/`;
const built = buildMessageIndex(records, { targetShardBytes: 300, messagePage: page });
const load = async (i: number) => JSON.parse(built.shards[i]!) as EntryTuple[];
const hits = async (paste: string) => mergeHits((await matchPaste(paste, built.manifest, load)).results, []);

describe('the message page in the result list', () => {
  it('goes first when the message is raised in several places and no frame picks one', async () => {
    const first = (await hits("Instance <User at 0x7f> is not persisted in this session"))[0]!;
    expect(first.messagePage).toBe(true);
    expect(first.path).toMatch(/^\/(acme|other)\/db\/m\//);
    // Only the repository's own records of that message carry the page.
    const entries = built.shards.flatMap((s) => JSON.parse(s) as EntryTuple[]);
    expect([...new Set(entries.filter((t) => t[14]).map((t) => t[0]))].sort()).toEqual([records[0]!.id, records[1]!.id]);
  });

  it('gives way to the record a frame of the paste picks', async () => {
    const traced = await hits('Traceback (most recent call last):\n  File "/usr/lib/python3.12/site-packages/acme/orm/unitofwork.py", line 300, in flush\nInvalidRequestError: Instance <User at 0x7f> is not persisted in this session');
    expect(traced[0]!.messagePage).toBeUndefined();
    expect(traced[0]!.path).toBe(`/acme/db/${records[1]!.slug}/`);
  });

  it('is not shown for a message raised once', async () => {
    expect((await hits('Instance <User at 0x7f> has been deleted'))[0]!.messagePage).toBeUndefined();
  });
});
