/**
 * One message raised in several places of a repository (tests/fixtures/catalogs/raise-sites: "Unexpected
 * source" in four places, two of them in one function): every error page's title is its own, its
 * subtitle says where it is raised, it links the other places and the message page that lists them
 * all; short links carry the same titles; the URL ledger keeps message pages published before
 * (one whose message one record alone raises now redirects there, one no record raises says so).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { htmlErrors } from '../support/html-check.ts';
import { FIXTURES, holdRedirects, listFiles, siteInBrowser } from '../support/site.ts';

const CATALOG = join(FIXTURES, 'raise-sites');
const MESSAGE_PAGE = '/acme/builder/m/unexpected-source-59ad17a3/';
const PLACES = [
  { file: 'scripts/build/hacks/loader.js:30', scope: 'unwrap', title: 'Error: Unexpected source — hacks/loader.js, unwrap — acme/builder' },
  { file: 'scripts/build/hacks/modify-module.js:40', scope: 'getExports', title: 'Error: Unexpected source — modify-module.js:40, getExports — acme/builder' },
  { file: 'scripts/build/hacks/modify-module.js:70', scope: 'getExports', title: 'Error: Unexpected source — modify-module.js:70, getExports — acme/builder' },
  { file: 'scripts/tools/loader.js:25', scope: 'readEntry', title: 'Error: Unexpected source — tools/loader.js, readEntry — acme/builder' },
];

const records = readFileSync(join(CATALOG, 'records.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l).record as { id: string; repo: string; slug: string; errorMessage: string; filePath: string; lineNumber: number });
// In code order (file, then line), as pages list them.
const grouped = records
  .filter((r) => r.errorMessage === 'Unexpected source')
  .sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : a.lineNumber - b.lineNumber));
const pathOf = (r: { repo: string; slug: string }) => `/${r.repo}/${r.slug}/`;

describe('one message raised in several places', () => {
  const s = siteInBrowser('raise-sites', CATALOG);

  it('gives every error page and message page a title of its own', () => {
    const titles = listFiles(s.site.dist)
      .filter((f) => f.endsWith('.html') && !f.startsWith('e/'))
      .map((f) => readFileSync(join(s.site.dist, f), 'utf8'))
      .filter((html) => html.includes('data-error-id') || html.includes('class="message-page"'))
      .map((html) => /<title>([^<]*)<\/title>/.exec(html)![1]!);
    expect(titles).toHaveLength(records.length + 1);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('says on each page where it is raised, and links the other places and the message page', async () => {
    const page = await s.browser.newPage();
    for (const r of grouped) {
      const place = PLACES.find((p) => p.file === `${r.filePath}:${r.lineNumber}`)!;
      await page.goto(s.server.url + pathOf(r));
      expect(await page.title()).toBe(place.title);
      expect(await page.locator('.raised-at').innerText()).toBe(`Raised in ${place.file}, in ${place.scope} · also raised in 3 other places`);
      await page.getByRole('link', { name: 'also raised in 3 other places' }).click();
      expect(await page.locator('#raise-sites').innerText()).toBe('Also raised in 3 other places');
      const links = await page.locator('.raise-site-list a').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
      const others = grouped.filter((o) => o.id !== r.id);
      expect(links).toEqual(others.map((o) => [`${o.filePath}:${o.lineNumber}`, pathOf(o)]));
      expect(await page.getByRole('link', { name: 'All 4 places that raise this message' }).getAttribute('href')).toBe(MESSAGE_PAGE);
    }
    // A message raised once has no such section.
    await page.goto(s.server.url + pathOf(records.find((r) => r.errorMessage === 'Raised in one place now')!));
    expect(await page.locator('#raise-sites').count()).toBe(0);
    expect(await page.locator('.raised-at').innerText()).toBe('Raised in src/once.js:20, in single');
    await page.close();
  });

  it('lists every place on the message page, each linked to its error page', async () => {
    const page = await s.browser.newPage();
    await page.goto(s.server.url + MESSAGE_PAGE);
    expect(await page.title()).toBe('Error: Unexpected source — raised in 4 places — acme/builder');
    expect(await page.locator('h1').innerText()).toBe('Unexpected source');
    const rows = await page.locator('ol.places > li > a').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(rows).toEqual(grouped.map((r) => [`${r.filePath}:${r.lineNumber}`, pathOf(r)]));
    expect(await page.locator('ol.places').innerText()).toContain('in getExports');
    await page.close();
  });

  it('gives each short link its page’s title: the place tells them apart in an unfurl too', async () => {
    const page = await s.browser.newPage();
    await holdRedirects(page);
    for (const r of grouped) {
      await page.goto(`${s.server.url}/e/${r.id}/`);
      const title = PLACES.find((p) => p.file === `${r.filePath}:${r.lineNumber}`)!.title;
      expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBe(title);
      expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`https://errdex.dev${pathOf(r)}`);
    }
    await page.close();
  });

  it('keeps the message pages the ledger knows: a redirect to the one place left, a notice when none is', async () => {
    const page = await s.browser.newPage();
    const once = records.find((r) => r.errorMessage === 'Raised in one place now')!;
    await page.goto(s.server.url + readLedgerPath('Raised in one place now'));
    await page.waitForURL(`**${pathOf(once)}`);
    // Hosts that read _redirects answer it with a 301, as they do renamed pages.
    expect(readFileSync(join(s.site.dist, '_redirects'), 'utf8')).toContain(`\n${readLedgerPath('Raised in one place now')} ${pathOf(once)} 301\n`);
    await page.goto(s.server.url + readLedgerPath('A message no longer raised'));
    expect(await page.locator('h1').innerText()).toBe('A message no longer raised');
    expect(await page.locator('.removed-notice').innerText()).toContain('No entry of acme/builder raises this message since dataset version');
    expect(await page.getByLabel('Search the catalog for this message').inputValue()).toBe('A message no longer raised');
    await page.close();
  });

  it('is valid HTML, and axe finds nothing serious or critical on the message page and an error page, light and dark, at both widths', async () => {
    const files = listFiles(s.site.dist).filter((f) => f.endsWith('.html'));
    expect(await htmlErrors(s.site.dist, files)).toEqual([]);
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 360]) {
        const context = await s.browser.newContext({ colorScheme, bypassCSP: true, viewport: { width, height: 800 } });
        const page = await context.newPage();
        for (const path of [MESSAGE_PAGE, pathOf(grouped[0]!)]) {
          await page.goto(s.server.url + path);
          expect(await axeViolations(page, 'serious'), `${path} ${colorScheme} ${width}`).toEqual([]);
        }
        await context.close();
      }
    }
  });
});

/** The path of a message page the fixture's ledger lists, by its message. */
function readLedgerPath(title: string): string {
  const ledger = JSON.parse(readFileSync(join(CATALOG, 'url-ledger.json'), 'utf8')) as { messages: { path: string; title: string }[] };
  return ledger.messages.find((m) => m.title === title)!.path;
}
