import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepReusable, keptSite, linkReused } from '../../../src/build/page-reuse.ts';
import { listFilesBelow } from '../../../src/util/files.ts';

const write = (root: string, files: Record<string, string>) => {
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
};
const identity = (f: string) => `${statSync(f).dev}:${statSync(f).ino}`;

describe('keepReusable', () => {
  it('keeps links of the reusable files, and brings the copy up to date in place', () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-kept-'));
    const cache = join(dir, 'cache');
    const first = join(dir, 'first');
    write(first, { 'r/a/index.html': 'a', 'r/b/index.html': 'b', 'r/gone/index.html': 'gone', 'pagefind/x.pf': 'x', 'pagefind/part-1/y.pf': 'y', 'other.html': 'not kept' });
    const keys1 = { 'r/a/index.html': 'ka', 'r/b/index.html': 'kb', 'r/gone/index.html': 'kg', 'pagefind/': 'p0', 'pagefind/part-1/': 'p1' };
    keepReusable(first, keys1, cache);
    const kept = keptSite(cache);
    expect(listFilesBelow(kept)).toEqual(['pagefind/part-1/y.pf', 'pagefind/x.pf', 'r/a/index.html', 'r/b/index.html', 'r/gone/index.html']);
    for (const f of listFilesBelow(kept)) expect(identity(join(kept, f))).toBe(identity(join(first, f)));

    // The next site, as a build makes it: unchanged files linked from the kept copy, the others new.
    const second = join(dir, 'second');
    linkReused(['r/a/index.html', 'pagefind/part-1/y.pf'], kept, second);
    write(second, { 'r/b/index.html': 'b2', 'r/c/index.html': 'c', 'pagefind/x.pf': 'x2' });
    const unchanged = identity(join(kept, 'r/a/index.html'));
    keepReusable(second, { 'r/a/index.html': 'ka', 'r/b/index.html': 'kb2', 'r/c/index.html': 'kc', 'pagefind/': 'p0b', 'pagefind/part-1/': 'p1' }, cache);
    expect(listFilesBelow(kept)).toEqual(['pagefind/part-1/y.pf', 'pagefind/x.pf', 'r/a/index.html', 'r/b/index.html', 'r/c/index.html']);
    for (const f of listFilesBelow(kept)) expect(identity(join(kept, f))).toBe(identity(join(second, f)));
    expect(identity(join(kept, 'r/a/index.html'))).toBe(unchanged);
    expect(readFileSync(join(kept, 'r/b/index.html'), 'utf8')).toBe('b2');
    // What is no longer reusable goes, with the folder it leaves empty.
    expect(existsSync(join(kept, 'r/gone'))).toBe(false);
    // The first site's files are as they were: the copy's were replaced, not written to.
    expect(readFileSync(join(first, 'r/b/index.html'), 'utf8')).toBe('b');
  });

  it('given what the build reused, goes through what changed only and makes the same copy as going through every file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-kept-'));
    const first = join(dir, 'first');
    write(first, { 'r/a/index.html': 'a', 'r/b/index.html': 'b', 'r/gone/index.html': 'gone', 'pagefind/x.pf': 'x', 'pagefind/part-1/y.pf': 'y', 'pagefind/part-0/z.pf': 'z' });
    const keys1 = { 'r/a/index.html': 'ka', 'r/b/index.html': 'kb', 'r/gone/index.html': 'kg', 'pagefind/': 'p', 'pagefind/part-1/': 'p1', 'pagefind/part-0/': 'p0' };
    const [fast, whole] = [join(dir, 'fast'), join(dir, 'whole')];
    keepReusable(first, keys1, fast);
    keepReusable(first, keys1, whole);
    // The next site: a and part-1 linked from the kept copy; b and the root part made anew; c new;
    // gone and part-0 (joined into the root part) no longer there.
    const second = join(dir, 'second');
    linkReused(['r/a/index.html', 'pagefind/part-1/y.pf'], keptSite(fast), second);
    write(second, { 'r/b/index.html': 'b2', 'r/c/index.html': 'c', 'pagefind/x.pf': 'x2', 'pagefind/w.pf': 'w' });
    const keys2 = { 'r/a/index.html': 'ka', 'r/b/index.html': 'kb2', 'r/c/index.html': 'kc', 'pagefind/': 'p2', 'pagefind/part-1/': 'p1' };
    const untouched = identity(join(keptSite(fast), 'r/a/index.html'));
    keepReusable(second, keys2, fast, { listed: Object.keys(keys1), unchanged: new Set(['r/a/index.html', 'pagefind/part-1/']) });
    keepReusable(second, keys2, whole);
    const files = ['pagefind/part-1/y.pf', 'pagefind/w.pf', 'pagefind/x.pf', 'r/a/index.html', 'r/b/index.html', 'r/c/index.html'];
    expect(listFilesBelow(keptSite(whole))).toEqual(files);
    expect(listFilesBelow(keptSite(fast))).toEqual(files);
    for (const f of files) expect(identity(join(keptSite(fast), f))).toBe(identity(join(second, f)));
    expect(identity(join(keptSite(fast), 'r/a/index.html'))).toBe(untouched);
    // Folders left empty go, in both.
    for (const kept of [fast, whole]) for (const gone of ['r/gone', 'pagefind/part-0']) expect(existsSync(join(keptSite(kept), gone))).toBe(false);
  });
});
