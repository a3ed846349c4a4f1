/**
 * The snapshot's files are written a line at a time through one buffer (src/catalog/snapshot.ts): lines
 * of any length and any characters come back as they were given, and the hash taken as they are
 * written is the file's.
 */
import { hash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { RelatedLink } from '../../../src/catalog/derive/related.ts';
import { readRelated, writeRelated } from '../../../src/catalog/snapshot.ts';

it('writes lines longer than its buffer, and characters of every width, as they are', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'errdex-snapshot-writer-')), 'related.jsonl');
  const link = (i: number, reason: string) => ({ index: i, score: 3, reasons: { note: reason } });
  const lines = [
    [link(0, 'plain')],
    // Some 12 MB on one line: more than the writer holds at once.
    Array.from({ length: 200_000 }, (_, i) => link(i, 'ü → 漢字 😀 '.repeat(3))),
    [],
    // Enough lines of multi-byte characters that some fall across the buffer's end.
    ...Array.from({ length: 40_000 }, (_, i) => [link(i, `${'é'.repeat(i % 97)}😀${i}`)]),
  ] as unknown as RelatedLink[][];
  const written = writeRelated(file, lines);
  const bytes = readFileSync(file);
  expect(bytes.byteLength).toBeGreaterThan(12_000_000);
  expect(written).toEqual({ lines: lines.length, sha1: hash('sha1', bytes) });
  expect(bytes.toString('utf8')).toBe(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  expect(readRelated(file)).toEqual(lines);
});
