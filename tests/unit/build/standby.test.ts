import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readIdentities, writeIdentities } from '../../../src/build/page-reuse.ts';
import { placeFromStandby } from '../../../src/build/reused-pages.ts';
import { claimedStandbyDir, claimStandby, keepOnly, keepStandby, STAGE_FOLDERS, standbyDir, takeFromStandby, takesTop } from '../../../src/build/standby.ts';
import { listFilesBelow } from '../../../src/util/files.ts';

const siteAt = (dir: string) => {
  mkdirSync(join(dir, 'api/errors'), { recursive: true });
  writeFileSync(join(dir, 'api/errors/a.json'), '{}');
  return dir;
};

it('keeps the site a reusing build replaced as the standby, which the next build claims and takes folders from', async () => {
  const outDir = join(mkdtempSync(join(tmpdir(), 'errdex-standby-')), 'dist');
  expect(claimStandby(outDir)).toBeNull();
  // A build that did not reuse the published site: the site it replaced is deleted, none kept.
  keepStandby(outDir, siteAt(`${outDir}.previous-1`), false);
  await expect.poll(() => existsSync(`${outDir}.previous-1`)).toBe(false);
  expect(existsSync(standbyDir(outDir))).toBe(false);
  // One that did: kept.
  keepStandby(outDir, siteAt(`${outDir}.previous-2`), true);
  expect(readdirSync(join(standbyDir(outDir), 'api/errors'))).toEqual(['a.json']);
  // Claimed under a name a later build deletes should this one fail; a folder taken moves whole.
  const claimed = claimStandby(outDir)!;
  expect(claimed).toBe(claimedStandbyDir(outDir));
  expect(existsSync(standbyDir(outDir))).toBe(false);
  const into = join(outDir, '..', 'stage', 'api/errors');
  expect(takeFromStandby(claimed, 'api/errors', into)).toBe(true);
  expect(readdirSync(into)).toEqual(['a.json']);
  expect(takeFromStandby(claimed, 'e', join(outDir, '..', 'stage', 'e'))).toBe(false);
  expect(takeFromStandby(null, 'api/errors', into)).toBe(false);
  // Publishing again: what is left of the claimed standby goes; the replaced site is the new standby.
  keepStandby(outDir, siteAt(`${outDir}.previous-3`), true);
  await expect.poll(() => existsSync(claimed)).toBe(false);
  expect(existsSync(join(standbyDir(outDir), 'api/errors/a.json'))).toBe(true);
});

it('keeps only what a stage made in a folder taken from the standby, and the folders that leaves empty go', () => {
  const dir = mkdtempSync(join(tmpdir(), 'errdex-keep-only-'));
  for (const f of ['a/1.json', 'a/2.json', 'b/c/3.json', 'top.json']) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), f);
  }
  expect(keepOnly(dir, new Set(['a/2.json', 'top.json']))).toBe(2);
  expect(listFilesBelow(dir).sort()).toEqual(['a/2.json', 'top.json']);
  expect(existsSync(join(dir, 'b'))).toBe(false);
});

it("names every folder a stage beside the render takes from the standby, which the render's pages leave alone", async () => {
  const { MESSAGE_INDEX_DIR } = await import('../../../src/build/search-index.ts');
  expect(STAGE_FOLDERS).toEqual(['api/errors', 'e', 'list-index', MESSAGE_INDEX_DIR]);
  expect(['api', 'e', 'list-index', MESSAGE_INDEX_DIR].filter(takesTop)).toEqual([]);
  expect(['acme', 'classes', 'errors', 'apiary'].filter(takesTop)).toEqual(['acme', 'classes', 'errors', 'apiary']);
});

it("places the reused pages in the standby's folders: a page there that is the published one stays, nothing else of those folders does", () => {
  const root = mkdtempSync(join(tmpdir(), 'errdex-place-'));
  const [site, standby, into] = [join(root, 'site'), join(root, 'standby'), join(root, 'into')] as const;
  const put = (base: string, path: string, text: string) => {
    mkdirSync(join(base, path, '..'), { recursive: true });
    writeFileSync(join(base, path), text);
  };
  const reused = ['acme/x/a/index.html', 'acme/x/b/index.html', 'acme/x/c/index.html', 'classes/io/index.html', 'index.html'];
  for (const p of reused) put(site, p, `published ${p}`);
  // The standby: one page a link of the published one, one an older page at the same path, one page
  // and one listing page no longer reused, and other stages' folders.
  mkdirSync(join(standby, 'acme/x/a'), { recursive: true });
  linkSync(join(site, 'acme/x/a/index.html'), join(standby, 'acme/x/a/index.html'));
  put(standby, 'acme/x/b/index.html', 'older');
  put(standby, 'acme/x/gone/index.html', 'gone');
  put(standby, 'acme/index.html', 'a listing page rendered again');
  put(standby, 'e/0123/index.html', 'a short link');
  put(standby, 'search-index/manifest.json', '{}');
  expect(placeFromStandby(reused, site, standby, into)).toBe(1);
  expect(listFilesBelow(into).sort()).toEqual([...reused].sort());
  for (const p of reused) {
    expect(statSync(join(into, p)).ino, p).toBe(statSync(join(site, p)).ino);
    expect(readFileSync(join(site, p), 'utf8'), p).toBe(`published ${p}`);
  }
  // The owner's folder was taken; the other stages' are left for them.
  expect(existsSync(join(standby, 'acme'))).toBe(false);
  expect(listFilesBelow(standby).sort()).toEqual(['e/0123/index.html', 'search-index/manifest.json']);
});

it("places pages by the identities the build proved: a page there is compared with its proof, not with the published copy", () => {
  const root = mkdtempSync(join(tmpdir(), 'errdex-place-proven-'));
  const [site, standby, into] = [join(root, 'site'), join(root, 'standby'), join(root, 'into')] as const;
  const reused = ['acme/x/a/index.html', 'acme/x/b/index.html', 'acme/x/c/index.html'];
  for (const p of reused) {
    mkdirSync(join(site, p, '..'), { recursive: true });
    writeFileSync(join(site, p), `published ${p}`);
    mkdirSync(join(standby, p, '..'), { recursive: true });
    linkSync(join(site, p), join(standby, p));
  }
  const identity = (p: string) => {
    const st = statSync(join(site, p), { bigint: true });
    return `${st.dev}:${st.ino}`;
  };
  // Written and read as publishedSite's proofs give them: `a` proven by its identity, `b` proven as
  // another file than the one now at the published path (so its standby copy is replaced), `c` without
  // an identity (compared with the published copy itself). A folder's proof (a full-text part) is left out.
  const [a, other] = [identity('acme/x/a/index.html'), identity('acme/x/c/index.html')];
  const file = writeIdentities(
    {
      site,
      keys: {},
      proofs: { 'acme/x/a/index.html': { sha256: '', stat: `${a}:10:1` }, 'acme/x/b/index.html': { sha256: '', stat: `${other}:10:1` }, 'pagefind/': { sha256: '', stat: 'f00d' } },
      heads: {},
      unproven: 0,
      listed: [],
      identical: new Set(['acme/x/a/index.html', 'acme/x/b/index.html', 'pagefind/']),
    },
    root,
  )!;
  const identities = readIdentities(file);
  expect([...identities]).toEqual([
    ['acme/x/a/index.html', a],
    ['acme/x/b/index.html', other],
  ]);
  expect(placeFromStandby(reused, site, standby, into, identities)).toBe(2);
  for (const p of reused) expect(statSync(join(into, p)).ino, p).toBe(statSync(join(site, p)).ino);
  expect(writeIdentities(null, root)).toBeNull();
});
