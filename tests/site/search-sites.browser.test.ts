import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FIXTURES, siteInBrowser } from '../support/site.ts';
import { searchAnswered } from '../support/search-page.ts';

// One message raised in three places (the `search-sites` catalog), and two other errors.
const PSYCOPG = '/dbkit/core/unknown-numeric-column-type-psycopg-b00000/';
const PG8000 = '/dbkit/core/unknown-numeric-column-type-pg8000-b00000/';
const ASYNCPG = '/dbkit/core/unknown-numeric-column-type-asyncpg-b00000/';
const POOL = '/dbkit/core/pool-timed-out-b00000/';

/** A traceback as Python prints it from an installed package, through a multi-process logger's prefix. */
const trace = (file: string, line: number, fn: string) =>
  [
    'Traceback (most recent call last):',
    '  File "/srv/app/worker.py", line 88, in run',
    '    rows = session.execute(stmt)',
    `  File "/usr/local/lib/python3.12/site-packages/dbkit/dialects/postgresql/${file}", line ${line}, in ${fn}`,
    '    raise InvalidRequestError(',
    'dbkit.exc.InvalidRequestError: Unknown numeric column type: 1700',
  ]
    .map((l) => `(EngineCore_DP0 pid=4121) ERROR 12-01 10:01:02 [core.py:708] ${l}`)
    .join('\n');

describe('search on real pastes, in Chromium', () => {
  const ctx = siteInBrowser('search-sites', join(FIXTURES, 'search-sites'));

  /** The result rows once the page has answered `query`. */
  async function rows(page: Page, query: string) {
    await searchAnswered(page, query);
    return page.locator('[data-search-results] a').evaluateAll((as) =>
      as.map((a) => ({ path: new URL((a as HTMLAnchorElement).href).pathname, hash: new URL((a as HTMLAnchorElement).href).hash, match: (a as HTMLElement).dataset.match, text: (a as HTMLElement).innerText })),
    );
  }

  it('ranks the records that print one message by the frame of the pasted traceback, and shows where each is raised', async () => {
    const page = await ctx.browser.newPage();
    for (const [file, line, fn, want] of [
      ['pg8000.py', 66, 'result_processor', PG8000],
      ['asyncpg.py', 214, 'bind_processor', ASYNCPG],
      ['psycopg.py', 141, 'result_processor', PSYCOPG],
    ] as const) {
      const q = trace(file, line, fn);
      await page.goto(`${ctx.server.url}/search/#q=${encodeURIComponent(q)}`);
      const found = await rows(page, q);
      expect(found[0]!.path).toBe(want);
      // All three are exact matches of the pattern; each row says where its record raises the error.
      expect(found.slice(0, 3).map((r) => r.match)).toEqual(['exact', 'exact', 'exact']);
      expect(found.slice(0, 3).map((r) => r.path).sort()).toEqual([ASYNCPG, PG8000, PSYCOPG].sort());
    }
    const first = (await rows(page, trace('psycopg.py', 141, 'result_processor')))[0]!;
    expect(first.text).toContain('lib/dbkit/dialects/postgresql/psycopg.py:144 · in PsycopgNumeric.result_processor');
    expect(await page.locator('[data-search-results]').getAttribute('data-no-match')).toBeNull();
    await page.close();
  });

  it('shows the message page first when no frame picks one of the places raising the message', async () => {
    const page = await ctx.browser.newPage();
    const q = 'dbkit.exc.InvalidRequestError: Unknown numeric column type: 1700';
    await page.goto(`${ctx.server.url}/search/#q=${encodeURIComponent(q)}`);
    const found = await rows(page, q);
    const status = await page.locator('[data-search-status]').innerText();
    expect(found[0]!.path, `${status} ${JSON.stringify(found.map((r) => r.path))}`).toMatch(/^\/dbkit\/core\/m\/unknown-numeric-column-type-[a-z0-9-]*[0-9a-f]{8}\/$/);
    expect(await page.locator('[data-search-results] a').first().getAttribute('data-message-page')).toBe('');
    expect(found.slice(1, 4).map((r) => r.path).sort()).toEqual([ASYNCPG, PG8000, PSYCOPG].sort());
    // The page it links to exists and lists the three.
    const res = await page.goto(`${ctx.server.url}${found[0]!.path}`);
    expect(res?.status()).toBe(200);
    for (const path of [ASYNCPG, PG8000, PSYCOPG]) expect(await page.locator(`a[href$="${path}"]`).count()).toBeGreaterThan(0);
    await page.close();
  });

  it('says plainly that the catalog has no entry for an error it does not hold', async () => {
    const page = await ctx.browser.newPage();
    const q = 'fatal: not a git repository (or any of the parent directories): .git';
    await page.goto(`${ctx.server.url}/search/#q=${encodeURIComponent(q)}`);
    const found = await rows(page, q);
    expect(await page.locator('[data-search-results]').getAttribute('data-no-match')).toBe('');
    expect(await page.locator('[data-search-status]').innerText()).toContain('The catalog has no entry for this error.');
    expect(found.length).toBeLessThanOrEqual(3);
    // Its rows are leads, not matches.
    for (const label of await page.locator('[data-search-results] .match-kind').allInnerTexts()) expect(label).toMatch(/^(Possibly related|Full-text match)/);
    // The full-text search is offered.
    expect(await page.locator('[data-search-more]').isVisible()).toBe(true);
    await page.close();
  });

  it('shows the matcher’s answer before a slow full-text search ends, then adds its results', async () => {
    const page = await ctx.browser.newPage();
    // Pagefind's first search loads its code: held back here, so the page must answer without it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/pagefind/pagefind.js', async (route) => {
      await held;
      await route.continue();
    });
    const q = 'Segmentation fault (core dumped)';
    await page.goto(`${ctx.server.url}/search/#q=${encodeURIComponent(q)}`);
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-search-results]')?.dataset.answerMs !== undefined, undefined, { timeout: 20_000 });
    const list = page.locator('[data-search-results]');
    expect(await list.getAttribute('data-state')).toBe('busy');
    expect(await list.getAttribute('data-no-match')).toBe('');
    expect(await page.locator('[data-search-status]').innerText()).toMatch(/^The catalog has no entry for this error\..* Searching the full text…$/);
    expect(await page.locator('[data-search-more]').isVisible()).toBe(false);
    release();
    await rows(page, q);
    expect(await list.getAttribute('data-engines')).toBe('matcher+pagefind');
    expect(await page.locator('[data-search-status]').innerText()).not.toContain('Searching the full text');
    await page.close();
  });

  it('keeps a traceback pasted into the home box, and sends it in the fragment', async () => {
    const page = await ctx.browser.newPage();
    await page.goto(`${ctx.server.url}/`);
    const box = page.locator('#home-search');
    expect(await box.evaluate((el) => el.tagName)).toBe('TEXTAREA');
    const q = trace('pg8000.py', 66, 'result_processor');
    await box.focus();
    await page.keyboard.insertText(q);
    expect(await box.inputValue()).toBe(q);
    // The box grew with the paste.
    expect(Number(await box.getAttribute('rows'))).toBeGreaterThan(1);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/search\/#q=/);
    const url = new URL(page.url());
    expect(url.search).toBe('');
    expect(new URLSearchParams(url.hash.slice(1)).get('q')).toBe(q);
    expect((await rows(page, q))[0]!.path).toBe(PG8000);
    await page.close();
  });

  it('reads #q= and ?q=, writes #q=, and links results with #m=', async () => {
    const page = await ctx.browser.newPage();
    const q = 'TimeoutError: QueuePool limit of size 5 overflow 10 reached, connection timed out, timeout 30.00';
    await page.goto(`${ctx.server.url}/search/?q=${encodeURIComponent(q)}`);
    const viaQuery = await rows(page, q);
    expect(viaQuery[0]!.path).toBe(POOL);
    // The address now carries the fragment form only.
    const url = new URL(page.url());
    expect(url.search).toBe('');
    expect(new URLSearchParams(url.hash.slice(1)).get('q')).toBe(q);
    await page.goto(`${ctx.server.url}/search/#q=${encodeURIComponent(q)}`);
    const viaFragment = await rows(page, q);
    expect(viaFragment[0]!.path).toBe(POOL);
    expect(viaFragment[0]!.hash.startsWith('#m=')).toBe(true);
    // The error page reads #m= (and still ?m=) into "Your error".
    await page.goto(`${ctx.server.url}${POOL}${viaFragment[0]!.hash}`);
    expect(await page.locator('[data-your-error] dd').first().innerText()).toBe('5');
    await page.goto(`${ctx.server.url}${POOL}?m=${encodeURIComponent(q.replace('TimeoutError: ', ''))}`);
    expect(await page.locator('[data-your-error]').isVisible()).toBe(true);
    await page.close();
  });
});
