/**
 * Records scanned with --history (tests/fixtures/catalogs/history): a site whose message changed in
 * v2.0, one whose message changed in v2.0 and that was removed in v3.0 (its message raised in another
 * file since), and one without a history. The page says since when, the earlier wording
 * and the removal; a paste of the earlier wording lands on the record; a page without a history shows none of it.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { htmlErrors } from '../support/html-check.ts';
import { FIXTURES, listFiles, siteInBrowser } from '../support/site.ts';

const CHANGED = '/acme/pool-demo/connection-pool-exhausted-after-n-retries-c0ffee/';
const REMOVED = '/acme/pool-demo/lease-lease-id-expired-before-commit-c0ffe2/';
const PLAIN = '/acme/pool-demo/frame-checksum-mismatch-in-segment-c0ffe3/';
/** Raises the removed site's message in another file. */
const SAME_MESSAGE = '/acme/pool-demo/lease-lease-id-expired-before-commit-c0ffe4/';

describe('a raise site’s history on its page and in the paste search', () => {
  const s = siteInBrowser('history', join(FIXTURES, 'history'));

  async function open(path: string): Promise<Page> {
    const page = await s.browser.newPage();
    await page.goto(s.server.url + path);
    return page;
  }

  it('says since which revision, and that the message changed, with the earlier wording', async () => {
    const page = await open(CHANGED);
    expect(await page.locator('.raised-at').innerText()).toBe('Raised in pool/acquire.py:4, in acquire · since v1.2 · message changed in v2.0');
    expect(await page.locator('[data-history-changed]').getAttribute('href')).toBe('#history');
    const changed = page.locator('section:has(#history) [data-history="changed"]');
    expect(await changed.innerText()).toBe('Message changed in v2.0 (2024-09-12). Before, it read:\nno free connection in pool after {n} attempts');
    expect(await page.locator('section:has(#history) [data-history="since"]').innerText()).toBe('Introduced in v1.2 (2024-03-01).');
    expect(await page.getByRole('link', { name: 'v1.2' }).first().getAttribute('href')).toBe(`https://github.com/acme/pool-demo/tree/${'b'.repeat(40)}`);
    expect(await page.locator('[data-history-removed]').count()).toBe(0);
    await page.close();
  });

  it('keeps the page of a removed site, saying so under the message', async () => {
    const page = await open(REMOVED);
    expect(await page.locator('h1').innerText()).toBe('lease {lease_id} expired before commit');
    expect(await page.locator('.facts').innerText()).toContain('removed');
    expect(await page.locator('[data-history-removed]').innerText()).toMatch(/^Removed in v3\.0 2025-02-20: the code no longer raises this error\./);
    expect(await page.locator('.raised-at').first().innerText()).toBe('Was raised in pool/lease.py:3, in commit · also raised in 1 other place · since v1.0 or earlier · message changed in v2.0');
    expect(await page.locator('section:has(#history) li').allInnerTexts()).toEqual([
      'Removed in v3.0 (2025-02-20): the code no longer raises it.',
      'Message changed in v2.0 (2024-09-12). Before, it read:\nlease {lease_id} timed out before commit',
      'Present since v1.0 (2024-01-05), the first revision scanned, or earlier.',
    ]);
    // Its short link still leads to it.
    await page.goto(`${s.server.url}/e/c0ffee0000000002/`);
    await page.waitForURL((url) => url.pathname === REMOVED);
    await page.close();
  });

  it('marks a removed place among the places that raise a message', async () => {
    const page = await open(SAME_MESSAGE);
    expect(await page.locator('.raise-sites li').innerText()).toBe('pool/lease.py:3 in commit · LeaseError · removed in v3.0');
    await page.getByRole('link', { name: 'All 2 places that raise this message' }).click();
    const places = await page.locator('ol.places > li').allInnerTexts();
    expect(places.filter((p) => p.includes('removed in v3.0'))).toHaveLength(1);
    expect(places.find((p) => p.includes('removed in v3.0'))).toContain('pool/lease.py:3');
    await page.close();
  });

  it('shows no history on a page whose record has none', async () => {
    const page = await open(PLAIN);
    expect(await page.locator('.raised-at').innerText()).toBe('Raised in pool/wire.py:3, in read_frame');
    expect(await page.locator('#history').count()).toBe(0);
    expect(await page.locator('.removed-badge').count()).toBe(0);
    await page.close();
  });

  async function search(query: string): Promise<{ paths: string[]; kind: string }> {
    const page = await s.browser.newPage();
    await page.goto(`${s.server.url}/search/?q=${encodeURIComponent(query)}`);
    await page.waitForFunction(
      (q) => {
        const list = document.querySelector<HTMLElement>('[data-search-results]');
        return list?.dataset.state === 'done' && list.dataset.query === q.trim();
      },
      query,
      { timeout: 20_000 },
    );
    const paths = await page.locator('[data-search-results] a').evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
    const kind = paths.length > 0 ? await page.locator('[data-search-results] > li').first().locator('.match-kind').innerText() : '';
    await page.close();
    return { paths, kind };
  }

  it('lands a paste of the earlier wording on the record, as an exact match', async () => {
    const old = await search('PoolError: no free connection in pool after 5 attempts');
    expect(old.paths[0]).toBe(CHANGED);
    expect(old.kind).toBe('Exact template');
    expect(new Set(old.paths).size).toBe(old.paths.length);
    const now = await search('PoolError: connection pool exhausted after 5 retries');
    expect(now.paths[0]).toBe(CHANGED);
    expect(now.kind).toBe('Exact template');
    // A removed site's message still finds its page.
    const gone = await search('LeaseError: lease 42 expired before commit');
    expect(gone.paths).toContain(REMOVED);
    // And so does its earlier wording.
    const goneOld = await search('LeaseError: lease 42 timed out before commit');
    expect(goneOld.paths[0]).toBe(REMOVED);
    expect(goneOld.kind).toBe('Exact template');
  });

  it('is valid HTML, and axe finds nothing serious or critical on the history pages, light and dark, at both widths', async () => {
    const files = listFiles(s.site.dist).filter((f) => f.endsWith('.html'));
    expect(await htmlErrors(s.site.dist, files)).toEqual([]);
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 360]) {
        const context = await s.browser.newContext({ colorScheme, bypassCSP: true, viewport: { width, height: 800 } });
        const page = await context.newPage();
        for (const path of [CHANGED, REMOVED, SAME_MESSAGE]) {
          await page.goto(s.server.url + path);
          expect(await axeViolations(page, 'serious'), `${path} ${colorScheme} ${width}`).toEqual([]);
        }
        await context.close();
      }
    }
  });
});
