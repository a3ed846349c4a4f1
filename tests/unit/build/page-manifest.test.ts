import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { proofOf } from '../../../src/build/file-proofs.ts';
import { keepReusable, keptSite, linkReused, publishedSite, readManifest, manifestFile, readPageLog, readPageLogs, writePageManifest } from '../../../src/build/page-reuse.ts';

const write = (root: string, files: Record<string, string>) => {
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
};
const none = { sha256: {}, heads: {} };

describe('the page manifest of a build that reused pages', () => {
  it('keeps the proofs of files linked unchanged whose proof held by identity, and takes the others again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-manifest-'));
    const cache = join(dir, 'cache');
    const first = join(dir, 'first');
    const keys = { 'r/a/index.html': 'ka', 'r/b/index.html': 'kb', 'r/c/index.html': 'kc' };
    write(first, { 'r/a/index.html': 'a', 'r/b/index.html': 'b', 'r/c/index.html': 'c' });
    keepReusable(first, keys, cache);
    writePageManifest(cache, { code: 'x', site: first, files: keys }, null, none);
    // b's kept copy replaced by a copy of itself (a cache restored from elsewhere): proven by content only.
    const keptB = join(keptSite(cache), 'r/b/index.html');
    cpSync(keptB, `${keptB}.copy`);
    rmSync(keptB);
    cpSync(`${keptB}.copy`, keptB);
    rmSync(`${keptB}.copy`);
    const published = publishedSite({ cacheDir: cache, code: 'x', force: false })!;
    expect(Object.keys(published.keys).sort()).toEqual(Object.keys(keys));
    expect([...published.identical].sort()).toEqual(['r/a/index.html', 'r/c/index.html']);

    // The next site links all three from the kept copy; a and b are said to be unchanged, c is not.
    const second = join(dir, 'second');
    linkReused(Object.keys(keys), keptSite(cache), second);
    const unchanged = new Set(['r/a/index.html', 'r/b/index.html']);
    writePageManifest(cache, { code: 'x', site: second, files: keys }, published, none, unchanged);
    const proofs = readManifest(manifestFile(cache))!.proofs!;
    expect(proofs['r/a/index.html']).toEqual(published.proofs['r/a/index.html']);
    // Proven by content: the proof is taken again, of the identity it now has.
    expect(proofs['r/b/index.html']).toEqual(proofOf(join(second, 'r/b/index.html'), undefined));
    expect(proofs['r/b/index.html']).not.toEqual(published.proofs['r/b/index.html']);
    // Not said to be unchanged: taken again.
    expect(proofs['r/c/index.html']).toEqual(proofOf(join(second, 'r/c/index.html'), undefined));
    // And every proof holds by identity for the next build.
    keepReusable(second, keys, cache, { listed: published.listed, unchanged });
    expect([...publishedSite({ cacheDir: cache, code: 'x', force: false })!.identical].sort()).toEqual(Object.keys(keys));
  });
});

describe('page logs', () => {
  it('read whole lines only, and count the keys and reuses of listing pages apart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-page-log-'));
    const log = join(dir, 'pages.jsonl');
    const errors = { keys: { 'r/a/index.html': 'ka', 'r/b/index.html': 'kb' }, reused: ['r/a/index.html'] };
    const listings = { keys: { 'r/index.html': 'k1', 'r/page/2/index.html': 'k2' }, reused: ['r/page/2/index.html'], kind: 'several' };
    // A line being appended as the log is read (the early link reads it beside the render): not read yet.
    const whole = `${JSON.stringify(errors)}\n`;
    writeFileSync(log, `${whole}${JSON.stringify(listings).slice(0, 20)}`);
    expect(readPageLog(log)).toEqual([errors]);
    writeFileSync(log, `${whole}${JSON.stringify(listings)}\n`);
    expect(readPageLog(log)).toEqual([errors, listings]);
    expect(readPageLogs([log, join(dir, 'none.jsonl')])).toEqual({
      keys: { ...errors.keys, ...listings.keys },
      reused: ['r/a/index.html', 'r/page/2/index.html'],
      several: { keys: 2, reused: 1 },
    });
  });
});
