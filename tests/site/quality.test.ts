/**
 * Quality gates on built fixture sites: valid HTML (html-validate), no serious or critical
 * accessibility violations (axe-core in Chromium, light and dark), no broken internal links.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { launchChromium } from '../support/browser.ts';
import { htmlErrors } from '../support/html-check.ts';
import { findBrokenLinks, readSite, urlPathOf } from '../support/link-check.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { FIXTURES, buildSite, holdRedirects, listFiles } from '../support/site.ts';

/** Fixture sites to check: every page of each. Add a catalog here when a scenario needs its own pages. */
const SITES = [
  { name: 'basic', catalog: join(FIXTURES, 'basic') },
  { name: 'hostile', catalog: join(FIXTURES, 'hostile') },
  { name: 'basic-subpath', catalog: join(FIXTURES, 'basic'), basePath: '/errdex' },
];

/**
 * Pages other issues are building (search: issue 3; repository and tag pages: issue 4). This branch
 * links to them before they exist; delete each line when its page lands, and the gate covers it.
 */
function notYetBuilt(path: string): boolean {
  return path === '/search/';
}

interface Built {
  name: string;
  dist: string;
  files: string[];
  basePath: string;
}

describe('quality gates on the built fixture sites', () => {
  const built: Built[] = [];
  let browser: Browser;
  beforeAll(async () => {
    for (const s of SITES) {
      const basePath = s.basePath ?? '';
      const site = buildSite(`quality-${s.name}`, s.catalog, { env: { ERRDEX_BASE_PATH: basePath } });
      expect(site.status, site.stderr).toBe(0);
      built.push({ name: s.name, dist: site.dist, files: listFiles(site.dist), basePath });
    }
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('every page is valid HTML (html-validate, .htmlvalidate.mjs)', async () => {
    for (const site of built) expect(await htmlErrors(site.dist, site.files), site.name).toEqual([]);
  });

  it('no internal link is broken, fragments included, with and without a base path', () => {
    for (const site of built) {
      const broken = findBrokenLinks(readSite(site.dist, site.files, { basePath: site.basePath, siteOrigin: 'https://errdex.dev' }));
      const unexpected = broken.filter((b) => !(b.path && notYetBuilt(b.path) && !b.reason.includes('#')));
      expect(unexpected.map((b) => `${b.page}: ${b.href} ${b.reason}`), site.name).toEqual([]);
    }
  });

  it('the gates themselves fail on bad pages', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-gates-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html lang="en"><head><title>t</title></head><body><div><p>x</div><img src="x.png"></body></html>');
    expect((await htmlErrors(dir, ['index.html'])).length).toBeGreaterThan(0);
    const page = await browser.newPage();
    await page.setContent('<!doctype html><html lang="en"><head><title>t</title></head><body><main><img src="x.png"><p style="color:#ddd;background:#fff">faint</p></main></body></html>');
    const violations = await axeViolations(page, 'serious');
    expect(violations).toEqual(expect.arrayContaining([expect.stringMatching(/^image-alt \(critical\)/), expect.stringMatching(/^color-contrast \(serious\)/)]));
    await page.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`no serious or critical axe-core violation on any page, ${colorScheme}`, async () => {
      for (const site of built.filter((s) => s.basePath === '')) {
        const server: StaticServer = await serveStatic(site.dist);
        const context = await browser.newContext({ colorScheme, bypassCSP: true });
        try {
          for (const file of site.files.filter((f) => f.endsWith('.html'))) {
            const page = await context.newPage();
            await holdRedirects(page);
            await page.goto(server.url + urlPathOf(file));
            expect(await axeViolations(page, 'serious'), `${site.name} ${urlPathOf(file)} (${colorScheme})`).toEqual([]);
            await page.close();
          }
        } finally {
          await context.close();
          await server.close();
        }
      }
    });
  }
});
