/**
 * What validation and derive keep in the build cache for the next build of the same code
 * (src/build/stages/validate.ts): the entries found sound alone, and the related errors under the key
 * of what they are made from.
 */
import { hash } from 'node:crypto';
import { copyFileSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogMemo, keepRelated, readKnown, reusedRelated, writeSound } from '../../../src/build/stages/validate.ts';
import { relatedInputsKey } from '../../../src/catalog/derive/related.ts';
import { writeRelated } from '../../../src/catalog/snapshot.ts';
import type { ErrorRecord } from '../../../src/schema/record.ts';
import { sampleWrapped, tempCatalog } from '../../support/records.ts';

describe('the entries found sound alone', () => {
  it('keeps the sound entries for the same code only', () => {
    const file = join(tempCatalog({}), 'cache', 'validated.txt');
    expect(readKnown({ file, code: 'one' })).toEqual(new Set());
    writeSound({ file, code: 'one' }, ['h1', 'h2']);
    expect(readKnown({ file, code: 'one' })).toEqual(new Set(['h1', 'h2']));
    expect(readKnown({ file, code: 'two' })).toEqual(new Set());
    writeSound({ file, code: 'one' }, []);
    expect(readKnown({ file, code: 'one' })).toEqual(new Set());
  });
});

describe('related errors kept for the next build', () => {
  const records = () => sampleWrapped().map((w) => w.record as unknown as ErrorRecord);

  it('are keyed by what they are made from: a message, tag or line changes the key, prose does not', () => {
    const key = relatedInputsKey(records());
    const edit = (f: (r: ErrorRecord) => void) => {
      const rs = records();
      f(rs[1]!);
      return relatedInputsKey(rs);
    };
    expect(edit((r) => (r.documentation = 'Another explanation.'))).toBe(key);
    expect(edit((r) => (r.errorMessage = `${r.errorMessage} again`))).not.toBe(key);
    expect(edit((r) => (r.tags = [...r.tags, 'another-tag']))).not.toBe(key);
    expect(edit((r) => (r.lineNumber = (r.lineNumber ?? 0) + 1))).not.toBe(key);
    expect(relatedInputsKey(records().reverse())).not.toBe(key);
  });

  it('are taken back for the same key only, and only as they were kept', async () => {
    const text = '[]\n[{"index":0}]\n';
    const dir = tempCatalog({ 'related.jsonl': text });
    const memo = catalogMemo(join(dir, 'cache', 'catalog'));
    const out = join(dir, 'out.jsonl');
    expect(reusedRelated(memo, 'k1', out)).toBeNull();
    const from = join(dir, 'related.jsonl');
    keepRelated(memo, 'k1', from, { sha1: hash('sha1', text), linked: 1 });
    // The kept copy may share the build's file: writing that file again leaves the kept one as it was.
    writeRelated(from, [[], [], []]);
    expect(reusedRelated(memo, 'k1', out)).toBe(1);
    expect(readFileSync(out, 'utf8')).toBe(text);
    // As kept (its identity): linked, not read.
    expect(statSync(out).ino).toBe(statSync(memo.related).ino);
    // Put back by another hand (a cache restored): another identity, the same bytes, taken by its hash.
    const restored = join(dir, 'restored.jsonl');
    copyFileSync(memo.related, restored);
    renameSync(restored, memo.related);
    expect(reusedRelated(memo, 'k1', out)).toBe(1);
    expect(statSync(out).ino).not.toBe(statSync(memo.related).ino);
    expect(reusedRelated(memo, 'k1', from)).toBe(1);
    rmSync(from);
    expect(readFileSync(memo.related, 'utf8')).toBe(text);
    expect(reusedRelated(memo, 'k2', out)).toBeNull();
    writeFileSync(memo.related, '[]\n[]\n');
    expect(reusedRelated(memo, 'k1', out)).toBeNull();
  });
});
