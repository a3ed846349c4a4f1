/**
 * A checkout whose path holds a space and non-ASCII letters builds, and builds the same site: the
 * build finds its own modules by file path (fileURLToPath), never by a URL's percent-encoded pathname.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, buildSite, hashTree } from '../support/site.ts';

describe('a checkout under a path with a space and non-ASCII letters', () => {
  it('builds the basic catalog into the same site as this checkout does', () => {
    const checkout = join(mkdtempSync(join(tmpdir(), 'errdex-path-')), 'my checkouts', 'errdex ünïcode');
    mkdirSync(checkout, { recursive: true });
    for (const entry of ['src', 'scripts', 'public', 'astro.config.mjs', 'errdex.config.mjs', 'package.json', 'tsconfig.json']) {
      cpSync(resolve(entry), join(checkout, entry), { recursive: true });
    }
    symlinkSync(resolve('node_modules'), join(checkout, 'node_modules'));
    const dist = join(checkout, 'dist');
    const run = spawnSync(process.execPath, ['scripts/build.ts', '--no-ledger-update'], {
      cwd: checkout,
      encoding: 'utf8',
      env: { ...process.env, ERRDEX_DATA: join(FIXTURES, 'basic'), ERRDEX_DIST: dist, ERRDEX_CACHE_DIR: join(checkout, '.errdex/cache'), CI: '1' },
    });
    expect(run.status, run.stderr + run.stdout).toBe(0);
    const here = buildSite('checkout-path-reference', join(FIXTURES, 'basic'));
    expect(here.status, here.stderr).toBe(0);
    expect(hashTree(dist)).toEqual(hashTree(here.dist));
  });
});
