import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { launchChromium } from '../support/browser.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { BIG_REPO, bigRepoCatalog } from '../support/big-repo.ts';
import { FIXTURES, buildSite } from '../support/site.ts';

const LOCK = '/acme/widgets/widget-store-locked-222200/';

describe('browse pages in Chromium', () => {
  let browser: Browser;
  let server: StaticServer;
  let big: StaticServer;
  beforeAll(async () => {
    const site = buildSite('browse-browser', join(FIXTURES, 'browse'), { env: { ERRDEX_BASE_PATH: '/sub' } });
    expect(site.status, site.stderr).toBe(0);
    const bigSite = buildSite('big-repo-browser', bigRepoCatalog('big-repo-600', 600));
    expect(bigSite.status, bigSite.stderr).toBe(0);
    server = await serveStatic(site.dist, { base: '/sub' });
    big = await serveStatic(bigSite.dist);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await big?.close();
  });

  it('copies the message, a Markdown link and section links', async () => {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    await page.goto(server.url + LOCK);
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await page.getByRole('button', { name: 'Copy message' }).click();
    await expect.poll(clipboard).toBe('widget store %s is locked by another writer');
    expect(await page.locator('.copy-status').innerText()).toBe('Copied: message');
    await page.getByRole('button', { name: 'Copy Markdown link' }).click();
    await expect.poll(clipboard).toBe('[StoreError: widget store %s is locked by another writer](https://errdex.dev/sub/e/2222000000000001/)');
    await page.locator('a[href="#solutions"]').click();
    await expect.poll(clipboard).toBe(`${server.url}${LOCK}#solutions`);
    expect(new URL(page.url()).hash).toBe('#solutions');
    await context.close();
  });

  it('hides the copy buttons without JavaScript, and the short link still leads to the page', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}${LOCK}`);
    expect(await page.getByRole('button', { name: 'Copy message' }).isVisible()).toBe(false);
    await page.goto(`${server.url}/e/2222000000000001/`);
    await page.waitForURL(`**${LOCK}`);
    expect(await page.locator('h1').innerText()).toBe('widget store %s is locked by another writer');
    await page.goto(`${server.url}/acme/widgets/widget-store-is-locked-222200/`);
    await page.waitForURL(`**${LOCK}`);
    await context.close();
  });

  const pageTypes = [
    ['home', '/'],
    ['repository', '/acme/widgets/'],
    ['failure class', '/classes/protocol-mismatch/'],
    ['class index', '/classes/'],
    ['tag', '/tags/store/'],
    ['tag index', '/tags/'],
    ['error', LOCK],
    ['removed entry', '/acme/widgets/widget-exploded-222200/'],
    ['not found', '/no/such/page/'],
  ] as const;

  it.each(pageTypes)('cycles the theme system → light → dark → system on the %s page, and says which', async (_type, path) => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url + path);
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const toggle = page.locator('[data-theme-toggle]');
    const stored = () => page.evaluate(() => localStorage.getItem('errdex-theme'));
    // The system asks for dark: followed until a theme is chosen.
    expect(await bg()).toBe('rgb(13, 17, 23)');
    expect(await toggle.getAttribute('aria-label')).toBe('Theme: System (dark). Switch to light theme');
    await toggle.click();
    expect(await bg()).toBe('rgb(255, 255, 255)');
    expect(await toggle.getAttribute('aria-label')).toBe('Theme: Light. Switch to dark theme');
    expect(await stored()).toBe('light');
    await toggle.click();
    expect(await bg()).toBe('rgb(13, 17, 23)');
    expect(await toggle.getAttribute('aria-label')).toBe('Theme: Dark. Switch to follow the system');
    await page.reload();
    expect(await bg()).toBe('rgb(13, 17, 23)');
    expect(await toggle.getAttribute('data-mode')).toBe('dark');
    await toggle.click();
    expect(await toggle.getAttribute('aria-label')).toBe('Theme: System (dark). Switch to light theme');
    expect(await stored()).toBeNull();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await bg()).toBe('rgb(255, 255, 255)');
    await expect.poll(() => toggle.getAttribute('aria-label')).toBe('Theme: System (light). Switch to light theme');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('filters a repository as you type, across all its pages', async () => {
    const page = await browser.newPage();
    await page.goto(`${big.url}/${BIG_REPO}/`);
    const rows = page.locator('[data-listing] .error-row');
    const onPage = await rows.count();
    expect(onPage).toBeLessThan(600);
    // A word from a row on the last page: the filter must find it there too.
    await page.goto(`${big.url}/${BIG_REPO}/page/3/`);
    const lastRow = await page.locator('[data-listing] .error-row .row-message').last().innerText();
    await page.goto(`${big.url}/${BIG_REPO}/`);
    await page.getByLabel(`Filter the errors of ${BIG_REPO}`).fill(lastRow);
    await expect.poll(() => page.locator('.filter-other .error-row').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.locator('.filter-other').innerText()).toContain(lastRow);
    expect(await page.locator('.filter-status').innerText()).toMatch(/^[\d,]+ of [\d,]+ errors? on this page, [\d,]+ on other pages\.$/);
    const visible = await rows.evaluateAll((els) => els.filter((e) => !(e as HTMLElement).hidden).length);
    expect(visible).toBeLessThan(onPage);
    await page.getByLabel(`Filter the errors of ${BIG_REPO}`).fill('');
    await expect.poll(() => rows.evaluateAll((els) => els.filter((e) => !(e as HTMLElement).hidden).length)).toBe(onPage);
    await page.close();
  });

  it("filters a repository from its filter index: a few gzipped files, not the listing's other pages", async () => {
    const page = await browser.newPage();
    const fetched: { url: string; bytes: number }[] = [];
    page.on('response', async (r) => {
      if (r.request().resourceType() === 'fetch') fetched.push({ url: r.url(), bytes: (await r.body()).length });
    });
    await page.goto(`${big.url}/${BIG_REPO}/`);
    await page.getByLabel(`Filter the errors of ${BIG_REPO}`).fill('e');
    await expect.poll(() => page.locator('.filter-status').innerText(), { timeout: 30_000 }).toMatch(/on other pages/);
    const urls = fetched.map((f) => new URL(f.url).pathname);
    expect(urls[0]).toBe(`/list-index/${BIG_REPO}/index.json`);
    expect(urls.slice(1).every((u) => u.startsWith(`/list-index/${BIG_REPO}/`) && u.endsWith('.json.gz'))).toBe(true);
    expect(urls.length).toBeGreaterThan(1);
    const bytes = fetched.reduce((n, f) => n + f.bytes, 0);
    expect(bytes).toBeLessThanOrEqual(200 * 1024);
    // Every error of the repository is found once, here or on other pages, and leads to its page.
    const status = await page.locator('.filter-status').innerText();
    const [here, other] = [...status.matchAll(/([\d,]+) (?:of|on other)/g)].map((m) => Number(m[1]!.replace(/,/g, '')));
    const all = await page.evaluate(() => document.querySelectorAll('[data-listing] .error-row').length);
    expect(here).toBeLessThanOrEqual(all);
    expect(other).toBeGreaterThan(0);
    const href = await page.locator('.filter-other .row-message').first().getAttribute('href');
    const target = await page.request.get(`${big.url}${href}`);
    expect(target.status()).toBe(200);
    await page.close();
  });

  it('narrows a repository to one of its most common classes or files with one tap', async () => {
    const page = await browser.newPage();
    await page.goto(`${big.url}/${BIG_REPO}/`);
    const facet = page.locator('.facet[data-facet="class"]').first();
    const cls = (await facet.getAttribute('data-value'))!;
    const count = Number((await facet.locator('.facet-count').innerText()).replace(/,/g, ''));
    await facet.click();
    expect(await facet.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => page.locator('.filter-status').innerText(), { timeout: 30_000 }).toMatch(/on other pages/);
    const shown = await page.locator('[data-listing] .error-row:not([hidden]), .filter-other .error-row').evaluateAll((els) => els.map((e) => e.querySelector('.row-error-class')?.textContent));
    expect(shown.length).toBe(count);
    expect(new Set(shown)).toEqual(new Set([cls]));
    await facet.click();
    expect(await facet.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => page.locator('[data-listing] .error-row[hidden]').count()).toBe(0);
    await page.close();
  });

  it('folds the directories of a repository page away and shows errors first', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await page.goto(`${big.url}/${BIG_REPO}/`);
    expect(await page.locator('details.toc').getAttribute('open')).toBeNull();
    const firstRow = await page.locator('[data-listing] .error-row').first().boundingBox();
    expect(firstRow!.y).toBeLessThan(740);
    expect(await page.locator('.list-counts').innerText()).toMatch(/^600 errors in [\d,]+ files/);
    await page.close();
  });

  it('folds the search filters behind one Filter button on a phone, with the first result on the first screen after a paste', async () => {
    const paste = 'Traceback (most recent call last):\n  File "store.py", line 40, in acquire\nStoreError: timed out waiting for widget store main lock';
    const phone = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await phone.goto(`${server.url}/search/`);
    await phone.locator('#site-search').fill(paste);
    await phone.locator('#site-search').press('Enter');
    const first = phone.locator('.search-results .result-link').first();
    await first.waitFor();
    const box = (await first.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(740);
    const toggle = phone.locator('[data-filter-toggle]');
    const filters = phone.locator('[data-search-filters]');
    expect(await toggle.isVisible()).toBe(true);
    expect(await filters.isVisible()).toBe(false);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await filters.isVisible()).toBe(true);
    await filters.locator('select[name="severity"]').selectOption({ index: 1 });
    await expect.poll(() => toggle.innerText()).toBe('Filter (1 chosen)');
    await phone.close();
    // On a wide screen the filters show as they are, without the button.
    const wide = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await wide.goto(`${server.url}/search/#q=${encodeURIComponent(paste)}`);
    await wide.locator('.search-results .result-link').first().waitFor();
    expect(await wide.locator('[data-filter-toggle]').isVisible()).toBe(false);
    expect(await wide.locator('[data-search-filters]').isVisible()).toBe(true);
    await wide.close();
  });

  it('says without JavaScript how the search page works, and where to browse instead', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/search/?q=widget`);
    const text = await page.locator('main').innerText();
    expect(text).toContain('Search runs in your browser and needs JavaScript. A link such as /sub/search/?q=ValueError opens this page');
    expect(text).toContain('browse every error by repository from the home page, or by failure class and tag.');
    expect(await page.getByRole('link', { name: 'home page' }).getAttribute('href')).toBe('/sub/');
    await context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [360, 1280]) {
      it(`has no serious or critical axe finding on repository and search pages, ${colorScheme}, ${width} px`, async () => {
        const context = await browser.newContext({ bypassCSP: true, colorScheme, viewport: { width, height: 800 } });
        const page = await context.newPage();
        await page.goto(`${big.url}/${BIG_REPO}/`);
        await page.locator('.facet').first().click();
        await expect.poll(() => page.locator('.filter-status').innerText(), { timeout: 30_000 }).toMatch(/on other pages/);
        await page.locator('details.toc summary').click();
        expect(await axeViolations(page, 'serious'), 'big repository, filtered').toEqual([]);
        await page.goto(`${server.url}/acme/widgets/`);
        expect(await axeViolations(page, 'serious'), 'small repository').toEqual([]);
        await page.goto(`${server.url}/search/#q=${encodeURIComponent('widget store lock')}`);
        await page.locator('.search-results .result-link').first().waitFor();
        if (width === 360) await page.locator('[data-filter-toggle]').click();
        expect(await axeViolations(page, 'serious'), 'search page with results').toEqual([]);
        await context.close();
      });
    }
  }

  it('offers on the 404 page a search for the words of the missing address', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/acme/widgets/widget-store-exploded-2222ab/`);
    expect(await page.locator('#not-found-search').inputValue()).toBe('acme widgets widget store exploded');
    await page.locator('#not-found-search').press('Enter');
    await page.waitForURL('**/sub/search/#q=acme%20widgets%20widget%20store%20exploded');
    await page.close();
  });
});
