/** Fixture sites for the site tests: build a catalog with the real build script, serve it, open it in Chromium. */
import { spawnSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from './browser.ts';
import { serveStatic, type StaticServer } from './static-server.ts';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { listFilesBelow } from '../../src/util/files.ts';
import { measureSite } from '../../src/build/summary.ts';

export const FIXTURES = resolve('tests/fixtures/catalogs');
const SITES = resolve('.errdex/test-sites');

export interface BuiltSite {
  dist: string;
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run build` (scripts/build.ts) on a catalog into .errdex/test-sites/<name>. The URL ledger
 * beside the catalog is read but not written (fixtures stay as committed) unless `updateLedger`.
 */
export function buildSite(
  name: string,
  catalog: string,
  options: { args?: string[]; env?: Record<string, string>; dist?: string; updateLedger?: boolean } = {},
): BuiltSite {
  const dist = options.dist ?? join(SITES, name);
  const args = [...(options.args ?? []), ...(options.updateLedger ? [] : ['--no-ledger-update'])];
  const run = spawnSync(process.execPath, ['scripts/build.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ERRDEX_DATA: catalog, ERRDEX_DIST: dist, ...options.env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { dist, status: run.status ?? 1, stdout: run.stdout, stderr: run.stderr };
}

/** Every file below a folder, as paths relative to it with '/' separators. */
export const listFiles = listFilesBelow;

/** That the figures the publish stage printed (some taken by the stages as they wrote, the rest walked) are a walk's of the published site. */
export function expectFiguresOfWalk(site: BuiltSite): void {
  const said = /: ([\d,]+) files, [^(]*\(([\d,]+) bytes\), largest (\S+) \(/.exec(site.stdout);
  const walked = measureSite(site.dist);
  expect(said?.slice(1).map((x) => x.replaceAll(',', ''))).toEqual([String(walked.files), String(walked.bytes), walked.largest.path]);
}

export const readText = (path: string): string => readFileSync(path, 'utf8');

/** Every file below a folder with the SHA-256 of its bytes: equal trees give equal maps. */
export function hashTree(dir: string): Map<string, string> {
  return new Map(listFiles(dir).map((f) => [f, createHash('sha256').update(readFileSync(join(dir, f))).digest('hex')]));
}

/**
 * Keeps redirect pages (short links, moved slugs: `<meta http-equiv="refresh" content="0; url=…">`)
 * in place so a test can inspect them: their refresh is served with a day's delay instead of none.
 */
export async function holdRedirects(page: Page): Promise<void> {
  await page.route('**/*', async (route) => {
    if (!route.request().isNavigationRequest()) return route.continue();
    const response = await route.fetch();
    const body = (await response.text()).replace(/(<meta http-equiv="refresh" content=")0;/gi, '$186400;');
    return route.fulfill({ response, body });
  });
}

export interface SiteInBrowser {
  site: BuiltSite;
  server: StaticServer;
  browser: Browser;
}

/**
 * For one test file: builds a fixture catalog (which must build; `args` are build options), serves it
 * and launches Chromium before its tests, and closes both after them. The fields are set once
 * `beforeAll` has run.
 */
export function siteInBrowser(name: string, catalog: string, args: string[] = [], env: Record<string, string> = {}): SiteInBrowser {
  const handle = {} as SiteInBrowser;
  beforeAll(async () => {
    handle.site = buildSite(name, catalog, { args, env });
    expect(handle.site.status, handle.site.stderr + handle.site.stdout).toBe(0);
    handle.server = await serveStatic(handle.site.dist);
    handle.browser = await launchChromium();
  });
  afterAll(async () => {
    await handle.browser?.close();
    await handle.server?.close();
  });
  return handle;
}
