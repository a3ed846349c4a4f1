/**
 * Injection: a catalog whose every free-text field carries HTML, JavaScript, template and Unicode
 * payloads (tests/fixtures/catalogs/hostile/) builds, and every page showing it is inert in
 * Chromium — under the site's Content-Security-Policy, and with the policy bypassed, so that the
 * escaping is proven on its own and the policy is not what hides a hole.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageDescription, pageTitle } from '../../src/views/error-view.ts';
import { errorPath, jsonPath, repoPath, shortPath, tagPath } from '../../src/util/urls.ts';
import type { ErrorRecord } from '../../src/schema/record.ts';
import { inertnessProblems, provokeHandlers, watchPage } from './inert.ts';
import { FIXTURES, holdRedirects, siteInBrowser } from '../support/site.ts';

const CATALOG = join(FIXTURES, 'hostile');
const lines = readFileSync(join(CATALOG, 'payloads.jsonl'), 'utf8').trimEnd().split('\n');
const records = lines.map((l) => (JSON.parse(l) as { record: ErrorRecord }).record);

/** Values a visitor's address can carry into a page: the search page's `?q=`, an error page's `?m=`. */
const REFLECTED = ['<img src=x onerror=window.__pwned=1>', '"><script>window.__pwned=2</script>'];

/** Every page type that shows catalog text, and the pages that show text from their address. */
const PAGES: string[] = [
  '/',
  ...records.map(errorPath),
  ...new Set(records.map((r) => repoPath(r.repo))),
  ...records.map((r) => shortPath(r.id)),
  '/tags/',
  ...new Set(records.flatMap((r) => r.tags.map(tagPath))),
  '/classes/',
  '/404.html',
  ...REFLECTED.flatMap((p) => [`/search/?q=${encodeURIComponent(p)}`, `${errorPath(records[0]!)}?m=${encodeURIComponent(p)}`]),
];

/** Payload text that must appear on the error page, as text. */
const VISIBLE_AS_TEXT = [
  "<script>window.__pwned='script'</script>",
  '</pre><img src=x onerror="window.__pwned=\'img\'">',
  "[click me](javascript:window.__pwned='md')",
  "{{constructor.constructor('window.__pwned=1')()}} ${window.__pwned='tpl'} <%= 7*7 %> {% raw %} #{7*7}",
  '<!-- --> <![CDATA[ ]]>',
  '&lt;script&gt; &amp;amp; &#60;b&#62;',
];

describe('a catalog full of payloads, in Chromium', () => {
  const ctx = siteInBrowser('hostile', CATALOG);

  for (const bypassCSP of [false, true]) {
    const mode = bypassCSP ? 'with the CSP bypassed (escaping alone)' : 'under the CSP';
    it.each(PAGES)(`%s is inert ${mode}`, async (path) => {
      const context = await ctx.browser.newContext({ bypassCSP });
      const page = await context.newPage();
      await holdRedirects(page);
      const watch = await watchPage(page);
      await page.goto(ctx.server.url + path, { waitUntil: 'load' });
      // The search page renders its results after load.
      if (path.startsWith('/search/')) await page.waitForSelector('[data-search-results][data-state="done"]', { state: 'attached' });
      await provokeHandlers(page);
      await page.waitForTimeout(50); // let an injected timer or image error fire
      expect(await inertnessProblems(page, watch)).toEqual([]);
      await context.close();
    });
  }

  it('the inertness check itself catches a payload that ran, an injected element and a dialog', async () => {
    const page = await ctx.browser.newPage();
    const watch = await watchPage(page);
    await page.setContent(`<p>x</p><img src=x onerror="window.__pwned='img'"><span onmouseover="alert(1)">hover</span>`);
    await provokeHandlers(page);
    await page.waitForTimeout(50);
    const problems = await inertnessProblems(page, watch);
    expect(problems).toEqual(
      expect.arrayContaining([
        "a payload ran: window.__pwned = img",
        expect.stringMatching(/^injected element <img>/),
        'event handler attribute onerror on <img>',
        'event handler attribute onmouseover on <span>',
        'dialog opened: alert: 1',
      ]),
    );
    await page.close();
  });

  it.each(records.map((r) => [r.id, r] as const))('page %s shows every payload as text, title and description included', async (_id, r) => {
    const page = await ctx.browser.newPage();
    await page.goto(ctx.server.url + errorPath(r));
    expect(await page.title()).toBe(pageTitle(r));
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBe(pageDescription(r));
    const text = await page.locator('main').innerText();
    if (r.id.endsWith('1')) for (const payload of VISIBLE_AS_TEXT) expect(text).toContain(payload);
    expect(await page.locator('.error-class').innerText()).toBe(r.errorClass);
    expect(await page.locator('a', { hasText: 'View on GitHub' }).getAttribute('href')).toBe(r.githubUrl);
    // The excerpt is the record's text, line for line, whatever it holds.
    const excerpt = await page.locator('.code-block.numbered pre.code').innerText();
    expect(excerpt.replace(/\n$/, '')).toBe(r.sourceCode);
    await page.close();
  });

  it('shows right-to-left controls in code as visible, isolated marks (no "Trojan Source" reordering)', async () => {
    const page = await ctx.browser.newPage();
    await page.goto(ctx.server.url + errorPath(records[0]!));
    const marks = page.locator('.code-block .bidi-control');
    expect(await marks.count()).toBe(2);
    expect(await marks.first().getAttribute('title')).toBe('U+202E RIGHT-TO-LEFT OVERRIDE');
    expect(await marks.first().evaluate((el) => getComputedStyle(el).unicodeBidi)).toBe('isolate');
    await page.close();
  });

  it('serves the JSON twins as data, never as a page', async () => {
    const page = await ctx.browser.newPage();
    for (const [i, r] of records.entries()) {
      const response = await page.goto(ctx.server.url + jsonPath(r.id));
      expect(response!.headers()['content-type']).toMatch(/^application\/json/);
      expect(await response!.text()).toBe(lines[i]);
      expect(await page.locator('script, img, svg').count()).toBe(0);
    }
    await page.close();
  });
});
