import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedFolder, unchangedFiles } from '../../../src/build/unchanged-files.ts';

function fixture() {
  const dir = mkdtempSync(join(tmpdir(), 'errdex-unchanged-'));
  const published = join(dir, 'site');
  const out = join(dir, 'out');
  mkdirSync(join(published, 'a'), { recursive: true });
  mkdirSync(join(out, 'a'), { recursive: true });
  writeFileSync(join(published, 'a/same.json'), '{"x":1}');
  writeFileSync(join(published, 'a/size.json'), '{"x":1}');
  writeFileSync(join(published, 'a/longer.json'), '{"x":10}');
  writeFileSync(join(published, 'a/old-name.json'), 'moved');
  return { dir, published, out };
}

const sameFile = (a: string, b: string) => statSync(a).ino === statSync(b).ino && statSync(a).dev === statSync(b).dev;

describe('unchangedFiles', () => {
  it('links a file the published site holds byte for byte, and writes every other', () => {
    const { published, out } = fixture();
    const files = unchangedFiles(out, published);
    files.write('a/same.json', '{"x":1}');
    // The same size, other bytes; another size; no published file.
    files.write('a/size.json', '{"x":2}');
    files.write('a/longer.json', '{"x":1}');
    files.write('a/new.json', Buffer.from('new'));
    expect(files.counts).toEqual({ linked: 1, written: 3 });
    expect(sameFile(join(out, 'a/same.json'), join(published, 'a/same.json'))).toBe(true);
    for (const [f, text] of [['a/size.json', '{"x":2}'], ['a/longer.json', '{"x":1}'], ['a/new.json', 'new']] as const) {
      expect(readFileSync(join(out, f), 'utf8')).toBe(text);
      expect(statSync(join(out, f)).nlink).toBe(1);
    }
    // The published files are untouched.
    expect(readFileSync(join(published, 'a/size.json'), 'utf8')).toBe('{"x":1}');
  });

  it('compares with the published file named, where a file moved', () => {
    const { published, out } = fixture();
    const files = unchangedFiles(out, published);
    files.write('a/new-name.json', 'moved', 'a/old-name.json');
    expect(sameFile(join(out, 'a/new-name.json'), join(published, 'a/old-name.json'))).toBe(true);
  });

  it('writes everything when there is no published site, or --no-cache asks to use nothing of an earlier build', () => {
    const { dir, published, out } = fixture();
    expect(publishedFolder({ outDir: published, useCache: true })).toBe(published);
    for (const settings of [{ outDir: join(dir, 'nothing'), useCache: true }, { outDir: published, useCache: false }]) {
      expect(publishedFolder(settings)).toBeNull();
    }
    const files = unchangedFiles(out, null);
    files.write('a/same.json', '{"x":1}');
    expect(files.counts).toEqual({ linked: 0, written: 1 });
  });
});
