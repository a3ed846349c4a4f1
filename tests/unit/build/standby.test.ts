import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { claimedStandbyDir, claimStandby, keepStandby, standbyDir, takeFromStandby } from '../../../src/build/standby.ts';

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
