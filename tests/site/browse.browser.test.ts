import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it.each(pageTypes)('toggles the theme on the %s page', async (_type, path) => {
    const context = await browser.newContext({ colorScheme: 'light' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url + path);
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await bg()).toBe('rgb(255, 255, 255)');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await bg()).toBe('rgb(13, 17, 23)');
    await page.reload();
    expect(await bg()).toBe('rgb(13, 17, 23)');
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
    await expect.poll(() => page.locator('.filter-other .error-row').count()).toBeGreaterThan(0);
    expect(await page.locator('.filter-other').innerText()).toContain(lastRow);
    expect(await page.locator('.filter-status').innerText()).toMatch(/^\d+ of \d+ on this page, \d+ on other pages\.$/);
    const visible = await rows.evaluateAll((els) => els.filter((e) => !(e as HTMLElement).hidden).length);
    expect(visible).toBeLessThan(onPage);
    await page.getByLabel(`Filter the errors of ${BIG_REPO}`).fill('');
    await expect.poll(() => rows.evaluateAll((els) => els.filter((e) => !(e as HTMLElement).hidden).length)).toBe(onPage);
    await page.close();
  });
});
