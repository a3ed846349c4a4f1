/**
 * The error page in Chromium: answer first (message, where it is raised, explanation and first
 * solution on the first screen at 1280×800 and 360×740, the example fix right after), the excerpt
 * around the thrown line that opens whole, the thrown statement wrapped at narrow widths, the Markdown
 * block "Copy for issue" gives, short links that unfurl as the page, its weight, axe and html-validate.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { htmlErrors } from '../support/html-check.ts';
import { FIXTURES, holdRedirects, siteInBrowser } from '../support/site.ts';

const PAGE = '/vllm-project/vllm/unsupported-auxiliary-frame-s-expected-1-frame-got-frame-count-70cbd4/';
const FILE = `${PAGE.slice(1)}index.html`;
const TITLE = 'Error: unsupported auxiliary frame(s): expected 1 frame, got… — vllm-project/vllm';
const SCREENS = [
  { name: '1280×800', width: 1280, height: 800 },
  { name: '360×740', width: 360, height: 740 },
] as const;

/** The top and bottom of an element, in page pixels. */
const box = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY };
  });

describe('an error page in Chromium', () => {
  const s = siteInBrowser('error-page', join(FIXTURES, 'basic'));

  it('shows every section of the record, answer first, with the marked line and the pinned GitHub link', async () => {
    const page = await s.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(s.server.url + PAGE);
    expect(await page.title()).toBe(TITLE);
    expect(await page.locator('h1').innerText()).toBe('unsupported auxiliary frame(s): expected 1 frame, got {frame_count}');
    expect(await page.locator('.raised-at').innerText()).toBe('Raised in rust/src/engine-core-client/src/error.rs:58');
    const headings = await page.locator('h2').evaluateAll((hs) => hs.map((h) => h.id));
    expect(headings).toEqual(['meaning', 'solutions', 'example-fix', 'source', 'defensive-patterns', 'when', 'cite']);
    expect(await page.locator('ol.solutions > li').count()).toBe(4);
    expect(await page.locator('h3').evaluateAll((hs) => hs.map((h) => h.id))).toEqual(['validation-code', 'type-guard', 'try-catch']);
    const marked = page.locator('.source-excerpt .code-block .line.marked');
    expect(await marked.count()).toBe(1);
    expect(await marked.innerText()).toContain('#[error("unsupported auxiliary frame(s): expected 1 frame, got {frame_count}")]');
    expect(await page.locator('.gutter .marked').innerText()).toBe('58');
    const github = page.getByRole('link', { name: 'View on GitHub' });
    expect(await github.getAttribute('href')).toBe(
      'https://github.com/vllm-project/vllm/blob/c794754062d49a8fdb63ab3c5215b488b865030c/rust/src/engine-core-client/src/error.rs#L40-L76',
    );
    // Highlighted in the file's language: Rust keywords get the keyword class.
    expect(await page.locator('.code-block[data-lang="rust"]').count()).toBeGreaterThan(0);
    expect(await page.locator('.code-block .tk').count()).toBeGreaterThan(5);
    // Descriptions are plain text: the documentation's `code` spans lose their backticks there.
    const description = await page.locator('meta[property="og:description"]').getAttribute('content');
    expect(description).not.toContain('`');
    expect(description?.length).toBeGreaterThan(40);
    expect(errors).toEqual([]);
    await page.close();
  });

  for (const screen of SCREENS) {
    it(`puts the message, where it is raised, the explanation and the first solution on the first screen at ${screen.name}, the example fix right after`, async () => {
      const page = await s.browser.newPage({ viewport: { width: screen.width, height: screen.height } });
      await page.goto(s.server.url + PAGE);
      for (const selector of ['h1.message', '.raised-at', '#meaning', '.heading-wrap:has(#meaning) + p, .heading-wrap:has(#meaning) + .explanation', 'ol.solutions > li']) {
        const b = await box(page, selector);
        expect(b.bottom, `${selector} at ${screen.name}`).toBeLessThanOrEqual(screen.height);
      }
      // Before → after follows the solutions, before the source excerpt.
      const solutions = await box(page, 'ol.solutions');
      const fix = await box(page, '#example-fix');
      const source = await box(page, '#source');
      expect(fix.top).toBeGreaterThan(solutions.bottom);
      expect(fix.top - solutions.bottom).toBeLessThan(120);
      expect(source.top).toBeGreaterThan(fix.bottom);
      // Nothing but code blocks scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      await page.close();
    });
  }

  it('shows the thrown line with a few lines around it, and the whole excerpt once opened, without a reload or JavaScript', async () => {
    const context = await s.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(s.server.url + PAGE);
    // Lines are text between newlines; innerText leaves out the hidden ones.
    const visibleLines = async () => (await page.locator('.source-excerpt pre.code').innerText()).replace(/\n$/, '').split('\n').length;
    const gutterLines = async () => (await page.locator('.source-excerpt pre.gutter').innerText()).trim().split('\n');
    expect(await visibleLines()).toBe(9);
    expect(await gutterLines()).toEqual(['54', '55', '56', '57', '58', '59', '60', '61', '62']);
    expect(await page.locator('.source-excerpt .line.marked').isVisible()).toBe(true);
    await page.getByText('Show the whole excerpt (37 lines)').click();
    expect(await visibleLines()).toBe(37);
    expect((await gutterLines()).map(Number)).toEqual(Array.from({ length: 37 }, (_, i) => 40 + i));
    // The gutter's lines stay level with the code's: the marked number beside the marked line.
    const top = (selector: string) => page.locator(selector).evaluate((el) => Math.round(el.getBoundingClientRect().top));
    expect(await top('.source-excerpt .gutter .marked')).toBe(await top('.source-excerpt .line.marked'));
    await page.getByText('Show lines 54–62 only').click();
    expect(await visibleLines()).toBe(9);
    expect(await page.locator('h2#solutions').isVisible()).toBe(true);
    expect(await page.locator('[data-theme-toggle]').isVisible()).toBe(false);
    await context.close();
  });

  it('shows the thrown statement wrapped in its own block at 360 px, and not at 1280', async () => {
    const narrow = await s.browser.newPage({ viewport: { width: 360, height: 740 } });
    await narrow.goto(s.server.url + PAGE);
    const statement = narrow.locator('.thrown-statement');
    expect(await statement.isVisible()).toBe(true);
    expect(await statement.innerText()).toContain('#[error("unsupported auxiliary frame(s): expected 1 frame, got {frame_count}")]');
    const fits = await statement.locator('pre').evaluate((el) => el.scrollWidth <= el.clientWidth);
    expect(fits).toBe(true);
    await narrow.close();
    const wide = await s.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await wide.goto(s.server.url + PAGE);
    expect(await wide.locator('.thrown-statement').isVisible()).toBe(false);
    await wide.close();
  });

  it('"Copy for issue" gives a Markdown block: the message as the reader saw it, the page title and the permanent link', async () => {
    const context = await s.browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.server.url });
    const page = await context.newPage();
    const short = 'https://errdex.dev/e/70cbd4c1e2925129/';
    await page.goto(s.server.url + PAGE);
    const button = page.getByRole('button', { name: 'Copy for issue' });
    expect(await button.getAttribute('data-copy')).toBe(
      `\`\`\`\nError: unsupported auxiliary frame(s): expected 1 frame, got {frame_count}\n\`\`\`\n\nCatalog entry: [${TITLE}](${short})\n`,
    );
    // With the reader's values (#m=): their message, as they saw it.
    await page.goto(`${s.server.url}${PAGE}#m=${encodeURIComponent('unsupported auxiliary frame(s): expected 1 frame, got 3')}`);
    await page.reload();
    await page.getByRole('button', { name: 'Copy for issue' }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`\`\`\`\nError: unsupported auxiliary frame(s): expected 1 frame, got 3\n\`\`\`\n\nCatalog entry: [${TITLE}](${short})\n`);
    expect(await page.getByRole('status').innerText()).toBe('Copied: for issue');
    await context.close();
  });

  it('gives the short link the page’s own title, description and canonical URL, and still redirects', async () => {
    const page = await s.browser.newPage();
    await holdRedirects(page);
    await page.goto(`${s.server.url}/e/70cbd4c1e2925129/`);
    const meta = (selector: string, attr = 'content') => page.locator(selector).getAttribute(attr);
    expect(await page.title()).toBe(TITLE);
    expect(await meta('meta[property="og:title"]')).toBe(TITLE);
    const errorPage = await s.browser.newPage();
    await errorPage.goto(s.server.url + PAGE);
    expect(await meta('meta[property="og:description"]')).toBe(await errorPage.locator('meta[property="og:description"]').getAttribute('content'));
    expect(await meta('meta[name="description"]')).toBe(await errorPage.locator('meta[name="description"]').getAttribute('content'));
    expect(await meta('link[rel="canonical"]', 'href')).toBe(`https://errdex.dev${PAGE}`);
    expect(await meta('meta[property="og:url"]')).toBe(`https://errdex.dev${PAGE}`);
    expect(await meta('meta[http-equiv="refresh"]')).toBe(`86400; url=${PAGE}`);
    await errorPage.close();
    await page.close();
    const followed = await s.browser.newPage();
    await followed.goto(`${s.server.url}/e/70cbd4c1e2925129/`);
    await followed.waitForURL(`**${PAGE}`);
    await followed.close();
  });

  it('weighs at most 45 KB uncompressed, HTML, CSS and JavaScript', async () => {
    const page = await s.browser.newPage();
    const sizes = new Map<string, number>();
    page.on('response', async (r) => {
      const type = r.request().resourceType();
      if (['document', 'stylesheet', 'script'].includes(type)) sizes.set(r.url(), (await r.body()).length);
    });
    await page.goto(s.server.url + PAGE, { waitUntil: 'networkidle' });
    const total = [...sizes.values()].reduce((a, b) => a + b, 0);
    expect(total, JSON.stringify(Object.fromEntries(sizes))).toBeLessThanOrEqual(45 * 1024);
    await page.close();
  });

  it('is valid HTML, and axe finds nothing serious or critical, light and dark, at both widths', async () => {
    expect(await htmlErrors(s.site.dist, [FILE, 'e/70cbd4c1e2925129/index.html'])).toEqual([]);
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const screen of SCREENS) {
        const context = await s.browser.newContext({ colorScheme, bypassCSP: true, viewport: { width: screen.width, height: screen.height } });
        const page = await context.newPage();
        await page.goto(s.server.url + PAGE);
        expect(await axeViolations(page, 'serious'), `${colorScheme} ${screen.name}`).toEqual([]);
        await page.getByText('Show the whole excerpt (37 lines)').click();
        expect(await axeViolations(page, 'serious'), `${colorScheme} ${screen.name}, excerpt open`).toEqual([]);
        await context.close();
      }
    }
  });

  it('toggles the theme, remembers it, and starts from the system preference', async () => {
    const context = await s.browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(s.server.url + PAGE);
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await bg()).toBe('rgb(13, 17, 23)');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    expect(await bg()).toBe('rgb(255, 255, 255)');
    await page.reload();
    expect(await bg()).toBe('rgb(255, 255, 255)');
    expect(await page.getByRole('button', { name: 'Switch to dark theme' }).isVisible()).toBe(true);
    await context.close();
  });

  it('warns, when built with the default site URL and report URL, naming each setting', () => {
    const out = s.site.stdout + s.site.stderr;
    expect(out).toMatch(/The site URL is the default \(https:\/\/errdex\.dev\).*Set ERRDEX_SITE_URL/);
    expect(out).toMatch(/The report URL is the default .*Set ERRDEX_REPORT_URL/);
    expect(readFileSync(join(s.site.dist, FILE), 'utf8')).toContain('https://errdex.dev');
  });
});
