import { hash } from 'node:crypto';
import { cpSync, linkSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statOf } from '../../../src/build/file-proofs.ts';
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

/** A listing's lines as path -> [identity, hash]. */
const readListing = (file: string): Record<string, [string, string]> =>
  Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [path, stat, sha1] = line.split('\t');
        return [path!, [stat!, sha1!]];
      }),
  );

const sameFile = (a: string, b: string) => statSync(a).ino === statSync(b).ino && statSync(a).dev === statSync(b).dev;

describe('unchangedFiles', () => {
  it('links a file the published site holds byte for byte, and writes every other', () => {
    const { published, out } = fixture();
    const files = unchangedFiles(out, { site: published, listing: null });
    files.write('a/same.json', '{"x":1}');
    // The same size, other bytes; another size; no published file.
    files.write('a/size.json', '{"x":2}');
    files.write('a/longer.json', '{"x":1}');
    files.write('a/new.json', Buffer.from('new'));
    expect(files.counts).toEqual({ linked: 1, written: 3, kept: 0 });
    expect(sameFile(join(out, 'a/same.json'), join(published, 'a/same.json'))).toBe(true);
    for (const [f, text] of [
      ['a/size.json', '{"x":2}'],
      ['a/longer.json', '{"x":1}'],
      ['a/new.json', 'new'],
    ] as const) {
      expect(readFileSync(join(out, f), 'utf8')).toBe(text);
      expect(statSync(join(out, f)).nlink).toBe(1);
    }
    // The published files are untouched.
    expect(readFileSync(join(published, 'a/size.json'), 'utf8')).toBe('{"x":1}');
  });

  it("links from the folders beside the site the files they list, by the listed hash or the bytes (a merge's shards)", () => {
    const { dir, out } = fixture();
    const shard = (name: string, files: Record<string, string>, listed: string[]) => {
      const site = join(dir, name);
      for (const [f, text] of Object.entries(files)) {
        mkdirSync(join(site, f, '..'), { recursive: true });
        writeFileSync(join(site, f), text);
      }
      const listing = join(dir, `${name}.tsv`);
      writeFileSync(listing, listed.map((f) => `${f}\t${statOf(join(site, f))}\t${hash('sha1', files[f]!, 'base64')}\n`).join(''));
      return { site, listing };
    };
    const one = shard('one', { 'a/x.json': 'x' }, ['a/x.json']);
    // Listed with another identity (an artifact downloaded again): its bytes are compared.
    const two = shard('two', { 'a/y.json': 'y', 'a/z.json': 'z' }, ['a/y.json', 'a/z.json']);
    writeFileSync(join(two.site, 'a/z.json'), 'z');
    const files = unchangedFiles(out, { site: null, listing: null, beside: [one, two] });
    files.write('a/x.json', 'x');
    files.write('a/y.json', 'y');
    files.write('a/z.json', 'z');
    // A file no shard lists is written; so is one whose bytes differ from the shard's (below).
    files.write('a/same.json', '{"x":1}');
    expect(files.counts).toEqual({ linked: 3, written: 1, kept: 0 });
    expect(sameFile(join(out, 'a/x.json'), join(one.site, 'a/x.json'))).toBe(true);
    expect(sameFile(join(out, 'a/z.json'), join(two.site, 'a/z.json'))).toBe(true);
    const other = unchangedFiles(join(dir, 'out-2'), { site: null, listing: null, beside: [one] });
    mkdirSync(join(dir, 'out-2', 'a'), { recursive: true });
    other.write('a/x.json', 'x changed');
    expect(other.counts).toEqual({ linked: 0, written: 1, kept: 0 });
    expect(readFileSync(join(one.site, 'a/x.json'), 'utf8')).toBe('x');
  });

  it('compares with the published file named, where a file moved', () => {
    const { published, out } = fixture();
    const files = unchangedFiles(out, { site: published, listing: null });
    files.write('a/new-name.json', 'moved', 'a/old-name.json');
    expect(sameFile(join(out, 'a/new-name.json'), join(published, 'a/old-name.json'))).toBe(true);
  });

  it('writes everything when there is no published site, or --no-cache asks to use nothing of an earlier build', () => {
    const { dir, published, out } = fixture();
    expect(publishedFolder({ outDir: published, useCache: true })).toBe(published);
    for (const settings of [
      { outDir: join(dir, 'nothing'), useCache: true },
      { outDir: published, useCache: false },
    ]) {
      expect(publishedFolder(settings)).toBeNull();
    }
    const files = unchangedFiles(out, null);
    files.write('a/same.json', '{"x":1}');
    expect(files.counts).toEqual({ linked: 0, written: 1, kept: 0 });
  });

  /** Two builds: the first writes `site` with its listing; publishing renames it into place, as publish does. */
  function publishFirst() {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-listing-'));
    const listing = join(dir, 'cache/published-files/stage.json');
    const first = join(dir, 'staging');
    mkdirSync(join(first, 'a'), { recursive: true });
    const files = unchangedFiles(first, { site: null, listing });
    files.write('a/same.json', '{"x":1}');
    files.write('a/edited.json', '{"x":1}');
    files.save();
    const site = join(dir, 'site');
    renameSync(first, site);
    const out = join(dir, 'out');
    mkdirSync(join(out, 'a'), { recursive: true });
    return { dir, listing, site, out };
  }

  it('lists what it wrote, and the next build links by the listing what is unchanged', () => {
    const { listing, site, out } = publishFirst();
    const listed = readListing(listing);
    expect(Object.keys(listed).sort()).toEqual(['a/edited.json', 'a/same.json']);
    const files = unchangedFiles(out, { site, listing });
    files.write('a/same.json', '{"x":1}');
    files.write('a/edited.json', '{"x":2}');
    files.write('a/new.json', '{"x":3}');
    files.save();
    expect(files.counts).toEqual({ linked: 1, written: 2, kept: 0 });
    expect(sameFile(join(out, 'a/same.json'), join(site, 'a/same.json'))).toBe(true);
    expect(readFileSync(join(out, 'a/edited.json'), 'utf8')).toBe('{"x":2}');
    // The listing now states the new files.
    const next = readListing(listing);
    expect(Object.keys(next).sort()).toEqual(['a/edited.json', 'a/new.json', 'a/same.json']);
    expect(next['a/same.json']).toEqual(listed['a/same.json']);
    expect(next['a/edited.json']![1]).not.toBe(listed['a/edited.json']![1]);
  });

  it('takes a listed file whose identity is the listed one to hold the listed bytes: it is not read', () => {
    const { published, out } = fixture();
    // The listing says a/size.json holds {"x":2}, and states the file's identity as it is: it holds {"x":1}.
    const listing = join(out, '..', 'listing.json');
    writeFileSync(listing, `a/size.json\t${statOf(join(published, 'a/size.json'))}\t${hash('sha1', '{"x":2}', 'base64')}\n`);
    const files = unchangedFiles(out, { site: published, listing });
    files.write('a/size.json', '{"x":2}');
    files.write('a/same.json', '{"x":1}');
    expect(files.counts).toEqual({ linked: 2, written: 0, kept: 0 });
  });

  it('compares the bytes of a file whose identity is not the listed one (another build published, a file replaced)', () => {
    const { dir, site, listing, out } = publishFirst();
    // The site replaced by a copy: the same bytes, other inodes; one file's bytes changed.
    const copy = join(dir, 'copy');
    cpSync(site, copy, { recursive: true });
    rmSync(site, { recursive: true });
    renameSync(copy, site);
    writeFileSync(join(site, 'a/edited.json'), '{"x":9}');
    const files = unchangedFiles(out, { site, listing });
    files.write('a/same.json', '{"x":1}');
    files.write('a/edited.json', '{"x":1}');
    expect(files.counts).toEqual({ linked: 1, written: 1, kept: 0 });
    expect(sameFile(join(out, 'a/same.json'), join(site, 'a/same.json'))).toBe(true);
    expect(readFileSync(join(out, 'a/edited.json'), 'utf8')).toBe('{"x":1}');
  });

  it('uses nothing of a listing that is not one it wrote whole', () => {
    const { published, out } = fixture();
    // As in the test above, but without the last newline: the file is read, and its bytes differ.
    const listing = join(out, '..', 'listing.json');
    writeFileSync(listing, `a/size.json\t${statOf(join(published, 'a/size.json'))}\t${hash('sha1', '{"x":2}', 'base64')}`);
    const files = unchangedFiles(out, { site: published, listing });
    files.write('a/size.json', '{"x":2}');
    expect(files.counts).toEqual({ linked: 0, written: 1, kept: 0 });
  });

  it('links by a hash known beforehand only a file the listing proves: listed with that hash, and still the file listed', () => {
    const { dir, site, listing, out } = publishFirst();
    const files = unchangedFiles(out, { site, listing });
    const sha1 = (text: string) => hash('sha1', text, 'base64');
    const unread = () => {
      throw new Error('read although the listing proves the published file');
    };
    expect(files.writeKnown('a/same.json', sha1('{"x":1}'), unread)).toBe(7);
    expect(sameFile(join(out, 'a/same.json'), join(site, 'a/same.json'))).toBe(true);
    // Another hash; a path not listed; a file replaced since (same bytes, another identity): the bytes are written, or linked once compared.
    expect(files.writeKnown('a/edited.json', sha1('{"x":22}'), () => '{"x":22}')).toBe(8);
    expect(files.writeKnown('a/new.json', sha1('{"x":1}'), () => '{"x":1}')).toBe(7);
    expect(files.counts).toEqual({ linked: 1, written: 2, kept: 0 });
    expect(readFileSync(join(out, 'a/edited.json'), 'utf8')).toBe('{"x":22}');
    expect(readFileSync(join(out, 'a/new.json'), 'utf8')).toBe('{"x":1}');
    // Replaced since it was listed (same bytes, another identity): read, compared, then linked.
    writeFileSync(join(dir, 'other'), '{"x":1}');
    renameSync(join(dir, 'other'), join(site, 'a/same.json'));
    const again = join(dir, 'again');
    mkdirSync(join(again, 'a'), { recursive: true });
    const other = unchangedFiles(again, { site, listing });
    let read = 0;
    expect(other.writeKnown('a/same.json', sha1('{"x":1}'), () => (read++, '{"x":1}'))).toBe(7);
    expect(read).toBe(1);
    expect(other.counts).toEqual({ linked: 1, written: 0, kept: 0 });
    expect(sameFile(join(again, 'a/same.json'), join(site, 'a/same.json'))).toBe(true);
    files.save();
    expect(readListing(listing)['a/same.json']).toEqual([statOf(join(out, 'a/same.json')), sha1('{"x":1}')]);
    expect(readListing(listing)['a/edited.json']![1]).toBe(sha1('{"x":22}'));
  });

  it("fills a seeded folder in place: keeps a file that is the published one, and never writes into one that is not", () => {
    const unreadable = (): string => {
      throw new Error('read although the listing proves the file in place');
    };
    const { dir, site, listing, out } = publishFirst();
    // Seeded as a standby would be: one path a link of its published file, one a link of another
    // published file (the bytes an older site had there), one an unrelated file.
    linkSync(join(site, 'a/same.json'), join(out, 'a/same.json'));
    linkSync(join(site, 'a/same.json'), join(out, 'a/edited.json'));
    writeFileSync(join(out, 'a/new.json'), 'old bytes');
    const before = statOf(join(out, 'a/same.json'));
    const files = unchangedFiles(out, { site, listing, seeded: true });
    const sha1 = (text: string) => hash('sha1', text, 'base64');
    // The listing proves the seeded file by its identity alone: the published copy is not needed.
    renameSync(join(site, 'a/same.json'), join(dir, 'aside.json'));
    expect(files.writeKnown('a/same.json', sha1('{"x":1}'), unreadable)).toBe(7);
    renameSync(join(dir, 'aside.json'), join(site, 'a/same.json'));
    files.write('a/edited.json', '{"x":2}');
    files.write('a/new.json', '{"x":3}');
    expect(statOf(join(out, 'a/same.json'))).toBe(before);
    expect(files.counts).toEqual({ linked: 1, written: 2, kept: 1 });
    expect(readFileSync(join(out, 'a/edited.json'), 'utf8')).toBe('{"x":2}');
    expect(readFileSync(join(out, 'a/new.json'), 'utf8')).toBe('{"x":3}');
    // The published file the seeded path was linked to still holds its own bytes.
    expect(readFileSync(join(site, 'a/same.json'), 'utf8')).toBe('{"x":1}');
    expect(sameFile(join(out, 'a/edited.json'), join(site, 'a/same.json'))).toBe(false);
    // Without `seeded`, a path already there is an error, never a write into its file.
    const strict = unchangedFiles(out, { site, listing });
    expect(() => strict.write('a/new.json', '{"x":4}')).toThrow(/EEXIST/);
    expect(readFileSync(join(out, 'a/new.json'), 'utf8')).toBe('{"x":3}');
    rmSync(dir, { recursive: true, force: true });
  });
});
