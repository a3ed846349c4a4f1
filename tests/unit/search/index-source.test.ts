import { describe, expect, it } from 'vitest';
import type { ErrorRecord } from '../../../src/schema/record.ts';
import { indexSource, MANIFEST_FILE } from '../../../src/search/index-source.ts';
import { matchPaste } from '../../../src/search/matcher.ts';
import { buildMessageIndex, shardFile, type EntryTuple } from '../../../src/search/message-index.ts';
import { sampleWrapped } from '../../support/records.ts';

let n = 0;
function record(errorMessage: string, messagePattern: string): ErrorRecord {
  const base = sampleWrapped()[0]!.record as unknown as ErrorRecord;
  const id = (++n).toString(16).padStart(16, '0');
  return { ...base, id, slug: `e-${id}`, errorMessage, messagePattern };
}

const records = [
  record('frame {id} not found in buffer {buf}', 'frame (.+?) not found in buffer (.+?)'),
  record('timed out after {secs}s waiting for handshake', 'timed out after (\\d+)s waiting for handshake'),
  record('failed to open socket {path}', 'failed to open socket (.+?)'),
];
const built = buildMessageIndex(records, { targetShardBytes: 200 });

/** The index's files by path, as a site serves them, with every read logged; `fail` names paths that fail once. */
function files(fail: Set<string> = new Set()) {
  const reads: string[] = [];
  const content = new Map<string, unknown>([[MANIFEST_FILE, built.manifest], ...built.shards.map((s, i) => [shardFile(built.manifest, i), JSON.parse(s)] as [string, unknown])]);
  const read = async (path: string) => {
    reads.push(path);
    if (fail.delete(path)) throw new Error(`${path}: HTTP 503`);
    if (!content.has(path)) throw new Error(`${path}: HTTP 404`);
    return structuredClone(content.get(path));
  };
  return { reads, read, content };
}

describe('indexSource', () => {
  it('answers as matchPaste does on the same index, reading the manifest and the shards of the paste only', async () => {
    const site = files();
    const source = indexSource(site.read);
    const paste = 'KeyError: frame 7 not found in buffer 2';
    const direct = await matchPaste(paste, built.manifest, async (i) => JSON.parse(built.shards[i]!) as EntryTuple[]);
    const r = await source.match(paste);
    expect(r.results.map((x) => [x.entry.id, x.kind])).toEqual(direct.results.map((x) => [x.entry.id, x.kind]));
    expect(r.results[0]!.entry.id).toBe(records[0]!.id);
    expect(site.reads).toEqual([MANIFEST_FILE, ...direct.shards.map((s) => shardFile(built.manifest, s))]);
    expect(built.manifest.shards).toBeGreaterThan(direct.shards.length);
  });

  it('reads each file once across queries', async () => {
    const site = files();
    const source = indexSource(site.read);
    await source.match('frame 7 not found in buffer 2');
    const first = site.reads.length;
    await source.match('frame 8 not found in buffer 3');
    expect(site.reads.length).toBe(first);
    await source.manifest();
    expect(site.reads.filter((p) => p === MANIFEST_FILE)).toHaveLength(1);
  });

  it('forgets a failed read, so the next query tries again', async () => {
    const site = files(new Set([MANIFEST_FILE]));
    const source = indexSource(site.read);
    await expect(source.match('frame 7 not found in buffer 2')).rejects.toThrow('HTTP 503');
    expect((await source.match('frame 7 not found in buffer 2')).results[0]!.entry.id).toBe(records[0]!.id);
    expect(site.reads.filter((p) => p === MANIFEST_FILE)).toHaveLength(2);
  });

  it('reads the manifest again after a query failed on shards a new build replaced', async () => {
    const site = files();
    const source = indexSource(site.read);
    await source.manifest();
    // A new build: the shards the cached manifest names are gone.
    for (const key of [...site.content.keys()]) if (key !== MANIFEST_FILE) site.content.delete(key);
    await expect(source.match('timed out after 30s waiting for handshake')).rejects.toThrow('HTTP 404');
    await source.manifest();
    expect(site.reads.filter((p) => p === MANIFEST_FILE)).toHaveLength(2);
  });
});
