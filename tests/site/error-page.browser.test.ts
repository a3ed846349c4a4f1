import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { FIXTURES, buildSite } from '../support/site.ts';

const PAGE = '/vllm-project/vllm/unsupported-auxiliary-frame-s-expected-1-frame-got-frame-count-70cbd4/';

describe('an error page in Chromium', () => {
  let browser: Browser;
  let server: StaticServer;
  beforeAll(async () => {
    const site = buildSite('basic', join(FIXTURES, 'basic'));
    expect(site.status, site.stderr).toBe(0);
    server = await serveStatic(site.dist);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows every section of the record, the marked line and the pinned GitHub link', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(server.url + PAGE);
    expect(await page.title()).toBe('Error: unsupported auxiliary frame(s): expected 1 frame, got… — vllm-project/vllm');
    expect(await page.locator('h1').innerText()).toBe('unsupported auxiliary frame(s): expected 1 frame, got {frame_count}');
    const headings = await page.locator('h2').evaluateAll((hs) => hs.map((h) => h.id));
    expect(headings).toEqual(['meaning', 'source', 'solutions', 'example-fix', 'defensive-patterns', 'when']);
    expect(await page.locator('ol.solutions > li').count()).toBe(4);
    expect(await page.locator('h3').evaluateAll((hs) => hs.map((h) => h.id))).toEqual(['validation-code', 'type-guard', 'try-catch']);
    const marked = page.locator('.code-block .line.marked');
    await expect.poll(() => marked.count()).toBe(1);
    expect(await marked.innerText()).toContain('#[error("unsupported auxiliary frame(s): expected 1 frame, got {frame_count}")]');
    expect(await page.locator('.gutter .marked').innerText()).toBe('58');
    const github = page.getByRole('link', { name: 'View on GitHub' });
    expect(await github.getAttribute('href')).toBe(
      'https://github.com/vllm-project/vllm/blob/c794754062d49a8fdb63ab3c5215b488b865030c/rust/src/engine-core-client/src/error.rs#L40-L76',
    );
    // Highlighted in the file's language: Rust keywords get the keyword class.
    expect(await page.locator('.code-block[data-lang="rust"]').count()).toBeGreaterThan(0);
    expect(await page.locator('.code-block .tk').count()).toBeGreaterThan(5);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('reads without JavaScript', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(server.url + PAGE);
    expect(await page.locator('h2#solutions').isVisible()).toBe(true);
    expect(await page.locator('.code-block .line.marked').isVisible()).toBe(true);
    expect(await page.locator('[data-theme-toggle]').isVisible()).toBe(false);
    await context.close();
  });

  it('toggles the theme, remembers it, and starts from the system preference', async () => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(server.url + PAGE);
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await bg()).toBe('rgb(13, 17, 23)');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    expect(await bg()).toBe('rgb(255, 255, 255)');
    await page.reload();
    expect(await bg()).toBe('rgb(255, 255, 255)');
    expect(await page.getByRole('button', { name: 'Switch to dark theme' }).isVisible()).toBe(true);
    await context.close();
  });

  it('is usable at 360 px: nothing but code blocks scrolls sideways', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 800 } });
    await page.goto(server.url + PAGE);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await page.close();
  });
});
