import { cpSync, linkSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { proofHolds, proofOf } from '../../../src/build/file-proofs.ts';

describe('proofs of published files', () => {
  it('prove a file by its identity, kept by hard links and renames, else by its content', () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-proof-'));
    const file = join(dir, 'page.html');
    writeFileSync(file, 'the page');
    const proof = proofOf(file, undefined);
    expect(proofHolds(file, proof)).toBe('identity');
    // Linked into the next site and renamed with it: the same file.
    mkdirSync(join(dir, 'next'));
    linkSync(file, join(dir, 'next/page.html'));
    expect(proofOf(join(dir, 'next/page.html'), proof)).toEqual(proof);
    // A copy (a restored backup): another identity, the same content.
    cpSync(file, join(dir, 'copy.html'));
    expect(proofHolds(join(dir, 'copy.html'), proof)).toBe('content');
    // Another run's page at the same path: not proven.
    rmSync(file);
    writeFileSync(file, 'another run');
    expect(proofHolds(file, proof)).toBeNull();
    expect(proofHolds(join(dir, 'missing.html'), proof)).toBeNull();
    expect(proofHolds(join(dir, 'copy.html'), undefined)).toBeNull();
  });

  it('prove a folder by its own files, leaving out what the caller says is not its own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-proof-'));
    const part = join(dir, 'pagefind/');
    mkdirSync(join(part, 'part-1'), { recursive: true });
    writeFileSync(join(part, 'entry.json'), '{}');
    writeFileSync(join(part, 'part-1/entry.json'), '{"a":1}');
    const notOwn = (f: string) => f === 'part-1';
    const proof = proofOf(part, undefined, notOwn);
    writeFileSync(join(part, 'part-1/entry.json'), '{"a":2}');
    expect(proofHolds(part, proof, notOwn)).toBe('identity');
    expect(proofHolds(part, proof)).toBeNull();
    renameSync(join(part, 'entry.json'), join(part, 'moved.json'));
    expect(proofHolds(part, proof, notOwn)).toBeNull();
  });
});
