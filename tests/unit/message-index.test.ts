import { describe, expect, it } from 'vitest';
import { isKeyWord, shardOf, templateKeys, textKeys, wordKey } from '../../src/search/keys.ts';
import { buildMessageIndex, chooseKeys, fromTuple, type EntryTuple } from '../../src/search/message-index.ts';
import { sampleWrapped } from './helpers.ts';
import type { ErrorRecord } from '../../src/schema/record.ts';

function record(id: string, errorMessage: string, messagePattern = '.+'): ErrorRecord {
  const base = sampleWrapped()[0]!.record as unknown as ErrorRecord;
  return { ...base, id, slug: `s-${id}`, errorMessage, messagePattern };
}

describe('index keys', () => {
  it('keeps words and adjacent pairs of literal text, never values or words glued to a placeholder', () => {
    const k = (keys: string[]) => keys.map((key) => key.split(' ').map(wordKey).join(' '));
    expect(templateKeys('failed to open socket {path}: {err}')).toEqual(k(['failed', 'failed to', 'to', 'to open', 'open', 'open socket', 'socket']));
    expect(templateKeys('timed out after {n}ms waiting for frame_count')).toEqual(
      k(['timed', 'timed out', 'out', 'out after', 'after', 'waiting', 'waiting for', 'for', 'for frame_count', 'frame_count']),
    );
    expect(templateKeys('{}: {}')).toEqual([]);
  });

  it('finds the same keys in a concrete message (values are not keys)', () => {
    const keys = textKeys('failed to open socket /tmp/x.sock: 0x1f 12 deadbeef12345678');
    for (const k of templateKeys('failed to open socket {path}: {err}')) expect(keys).toContain(k);
    expect(keys).not.toContain('12');
    expect(keys).not.toContain(wordKey('12'));
    expect(keys).not.toContain('0x1f');
    expect(isKeyWord('deadbeef12345678')).toBe(false);
    expect(isKeyWord('utf8')).toBe(true);
  });

  it('keys a word by its letters, so transposed, doubled and repeated-letter typos keep the key', () => {
    expect(wordKey('validate')).toBe(wordKey('vlaidate'));
    expect(wordKey('deadlines')).toBe(wordKey('deadlinnes'));
    expect(wordKey('path_value')).toBe(wordKey('pth_value'));
    expect(wordKey('socket')).not.toBe(wordKey('bucket'));
  });

  it('hashes a key to the same shard everywhere', () => {
    expect(shardOf('open socket', 4096, 1)).toBe(shardOf('open socket', 4096, 1));
    expect(shardOf('open socket', 4096, 1)).toBeLessThan(4096);
  });

  it('chooses the rarest keys, each on words the others do not use', () => {
    const df = new Map([['a', 1], ['a b', 1], ['b', 2], ['c', 5], ['b c', 1]]);
    expect(chooseKeys(['a', 'a b', 'b', 'c', 'b c'], df, 2)).toEqual(['a', 'b c']);
    expect(chooseKeys(['a', 'b', 'c'], df, 3)).toEqual(['a', 'b', 'c']);
  });
});

describe('buildMessageIndex', () => {
  const records = [
    record('0000000000000001', 'failed to open socket {path}'),
    record('0000000000000002', 'failed to open file {path}'),
    record('0000000000000003', '{}: {}'),
  ];
  const built = buildMessageIndex(records, { keysPerRecord: 2, targetShardBytes: 200 });

  it('files each entry in the shards of its chosen keys, and lists records with no key', () => {
    expect(built.manifest.shards).toBeGreaterThan(1);
    expect(built.unindexed).toEqual([{ id: '0000000000000003', template: '{}: {}' }]);
    const socketShard = JSON.parse(built.shards[shardOf(wordKey('socket'), built.manifest.shards, built.manifest.seed)]!) as EntryTuple[];
    expect(socketShard.map(fromTuple).map((e) => e.id)).toContain('0000000000000001');
    const all = built.shards.flatMap((s) => (JSON.parse(s) as EntryTuple[]).map((t) => t[0]));
    expect(new Set(all)).toEqual(new Set(['0000000000000001', '0000000000000002']));
  });

  it('is deterministic: the same catalog gives the same version and shards', () => {
    const again = buildMessageIndex(records, { keysPerRecord: 2, targetShardBytes: 200 });
    expect(again.manifest).toEqual(built.manifest);
    expect(again.shards).toEqual(built.shards);
  });

  it('entries carry what results and filters show', () => {
    const e = fromTuple(JSON.parse(built.shards.find((s) => s.includes('0000000000000001'))!)[0]);
    expect(Object.keys(e).sort()).toEqual(['errorClass', 'errorType', 'id', 'language', 'pattern', 'repo', 'severity', 'slug', 'summary', 'tags', 'template']);
    expect(e.language).toBe('Python');
  });
});
