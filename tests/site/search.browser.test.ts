import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FIXTURES, listFiles, siteInBrowser } from '../support/site.ts';
import { searchAnswered } from '../support/search-page.ts';
import { shardFile } from '../../src/search/message-index.ts';

const AUX = '/engine-labs/infer/expected-frames-got-a00000/';
const AUX_STAGE = '/engine-labs/infer/expected-frames-got-in-stage-a00000/';
const KV = '/engine-labs/infer/kv-cache-block-not-found-a00000/';
const LEASE = '/orbit/queue/lease-expired-a00000/';
const TOKENS = '/engine-labs/infer/max-num-batched-tokens-a00000/';

describe('search by pasted error text, in Chromium', () => {
  const ctx = siteInBrowser('search', join(FIXTURES, 'search'));

  /** Paths of the results, in rank order, once the page has answered `query`. */
  async function results(page: Page, query: string): Promise<string[]> {
    await searchAnswered(page, query);
    return page.locator('[data-search-results] a').evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  }

  async function search(query: string): Promise<{ page: Page; paths: string[]; errors: string[] }> {
    const page = await ctx.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${ctx.server.url}/search/?q=${encodeURIComponent(query)}`);
    return { page, paths: await results(page, query), errors };
  }

  it('writes the message index and the Pagefind index into the site', () => {
    const files = listFiles(ctx.site.dist);
    expect(files).toContain('search-index/manifest.json');
    const manifest = JSON.parse(readFileSync(join(ctx.site.dist, 'search-index/manifest.json'), 'utf8'));
    expect(manifest.records).toBe(10);
    const shards = Array.from({ length: manifest.shards }, (_, n) => `search-index/${shardFile(manifest, n)}`);
    expect(files.filter((f) => f.startsWith('search-index/shards/')).sort()).toEqual(shards.sort());
    expect(files).toContain('pagefind/pagefind.js');
    expect(existsSync(join(ctx.site.dist, 'search/index.html'))).toBe(true);
    const html = readFileSync(join(ctx.site.dist, 'search/index.html'), 'utf8');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain('data-search-results');
  });

  it('puts the right page first for a concrete message, and says how it matched', async () => {
    const { page, paths, errors } = await search('unsupported auxiliary frame(s): expected 1 frame, got 3');
    expect(paths[0]).toBe(AUX);
    const first = page.locator('[data-search-results] > li').first();
    expect(await first.locator('.match-kind').innerText()).toBe('Exact template');
    expect(await first.locator('.result-values').innerText()).toContain('frame_count = 3');
    expect(await first.innerText()).toContain('engine-labs/infer');
    // Every result is a link to an error page.
    expect(await page.locator('[data-search-results] li:not(:has(a))').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('prefers the more specific of two templates the message could fill', async () => {
    const { page, paths } = await search('unsupported auxiliary frame(s): expected 1 frame, got 2 in stage decode');
    expect(paths[0]).toBe(AUX_STAGE);
    await page.close();
  });

  it('puts the right page first for a whole Python traceback', async () => {
    const trace = [
      'INFO 08-14 21:17:38 [engine.py:88] starting engine',
      'Traceback (most recent call last):',
      '  File "/app/infer/core/scheduler.py", line 412, in step',
      '    block = self.kv_cache.get(block_id, request_id)',
      '  File "/app/infer/core/kv_cache.py", line 42, in get',
      '    raise KeyError(f"KV cache block {block_id} not found for request {request_id!r}")',
      "KeyError: \"KV cache block 1187 not found for request 'cmpl-9f2a'\"",
    ].join('\n');
    const { page, paths } = await search(trace);
    expect(paths[0]).toBe(KV);
    await page.close();
  });

  it('puts the right page first for a coloured log line the terminal wrapped', async () => {
    const line = '\u001b[33m2026-08-14T21:17:39.825Z WARN\u001b[0m queue.worker: lease job-7f3a expired after 30000ms while the lock is held';
    const wrapped = `${line.slice(0, 60)}\n${line.slice(60)}`;
    const { page, paths } = await search(wrapped);
    expect(paths[0]).toBe(LEASE);
    await page.close();
  });

  it('puts the right page first for a log line naming its thread before the class', async () => {
    const { page, paths } = await search('2026-11-30T10:01:02Z ERROR worker-3 KeyError: "KV cache block 7 not found for request \'cmpl-1\'"');
    expect(paths[0]).toBe(KV);
    // The name and class are set aside, so the message is the template itself, not a near miss.
    expect(await page.locator('[data-search-results] > li').first().locator('.match-kind').innerText()).toBe('Exact template');
    await page.close();
  });

  it('finds a close match for a mistyped message and labels it so', async () => {
    const { page, paths } = await search('max_num_batched_tokens (2048) must be greter than or equal to max_model_len (4096)');
    expect(paths[0]).toBe(TOKENS);
    expect(await page.locator('[data-search-results] > li').first().locator('.match-kind').innerText()).toBe('Close match');
    await page.close();
  });

  it('says the catalog has no entry when the paste names another error, and why the row whose words fit is not it', async () => {
    const { page, paths, errors } = await search("vllm.core.BlockTableError: KV cache block 7 not found for request 'req-1'");
    expect(paths[0]).toBe(KV);
    expect(await page.locator('[data-search-results]').getAttribute('data-no-match')).not.toBeNull();
    const first = page.locator('[data-search-results] > li').first();
    expect(await first.locator('.match-kind').innerText()).toBe('Possibly related');
    expect(await first.locator('.result-note').innerText()).toBe('The same words, but your paste names vllm.core.BlockTableError and this entry raises KeyError.');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("says the catalog has no entry when the paste's traceback shows the error raised elsewhere, and why", async () => {
    const trace = ['Traceback (most recent call last):', '  File "/srv/app/serve.py", line 7, in <module>', '    blocks[block]', "KeyError: KV cache block 7 not found for request 'req-1'"].join('\n');
    const { page, paths, errors } = await search(trace);
    expect(paths[0]).toBe(KV);
    expect(await page.locator('[data-search-results]').getAttribute('data-no-match')).not.toBeNull();
    const first = page.locator('[data-search-results] > li').first();
    expect(await first.locator('.match-kind').innerText()).toBe('Possibly related');
    expect(await first.locator('.result-note').innerText()).toBe("The same words, but your paste's traceback does not go through infer/core/kv_cache.py, where this entry raises it.");
    expect(errors).toEqual([]);
    await page.close();
  });

  it('answers a 1 MB paste without freezing the page', async () => {
    const page = await ctx.browser.newPage();
    await page.goto(`${ctx.server.url}/search/`);
    const huge = `${'DEBUG heartbeat ok\n'.repeat(55_000)}lease job-1 expired after 5ms while the lock is held`;
    await page.evaluate((q) => {
      const box = document.querySelector<HTMLTextAreaElement>('#site-search')!;
      box.value = q;
      box.form!.requestSubmit();
    }, huge);
    // The page stays responsive while the worker matches.
    expect(await page.evaluate(() => 1 + 1)).toBe(2);
    const paths = await results(page, huge);
    expect(paths[0]).toBe(LEASE);
    await page.close();
  });

  it('merges full-text results for words found only in the explanations', async () => {
    const { page, paths } = await search('truncated');
    expect(paths).toContain('/quill/store/checkpoint-corrupt-a00000/');
    expect(await page.locator('[data-search-results]').getAttribute('data-engines')).toBe('matcher+pagefind');
    expect(await page.locator('[data-search-results] .match-kind').first().innerText()).toBe('Full-text match');
    await page.close();
  });

  it('works by keyboard alone: / to the box, paste, Enter, arrows to a result, filter, Enter to the page', async () => {
    const page = await ctx.browser.newPage();
    await page.goto(`${ctx.server.url}${TOKENS}`);
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('site-search');
    // A pasted traceback keeps its lines: the header box sends it to the search page.
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'Traceback (most recent call last):\n  File "q.go", line 1\nlease job-9 expired after 12ms while the lock is held');
      document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await page.waitForURL(/\/search\/#q=/);
    const handed = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('q')!;
    expect(handed).toContain('\n');
    await results(page, handed);

    // Typing a new query: Enter searches.
    await page.keyboard.press('/');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('topic "orders" not found in namespace "prod"');
    await page.keyboard.press('Enter');
    expect((await results(page, 'topic "orders" not found in namespace "prod"'))[0]).toBe('/orbit/queue/topic-not-found-a00000/');
    // The address can be shared: the query is in its fragment, which no server logs.
    expect(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('q')).toBe('topic "orders" not found in namespace "prod"');

    // Arrow down to the first result, Escape back to the box.
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-search-results]') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('site-search');

    // Words that match several errors: filters appear and work from the keyboard.
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('not found');
    await page.keyboard.press('Enter');
    const all = await results(page, 'not found');
    expect(all.length).toBeGreaterThan(1);
    const repoFilter = page.locator('select[name="repo"]');
    await repoFilter.focus();
    await page.keyboard.press('ArrowDown'); // first repo in the list
    const chosen = await repoFilter.inputValue();
    expect(chosen).not.toBe('');
    const filtered = await results(page, 'not found');
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((p) => p.startsWith(`/${chosen}/`))).toBe(true);

    // Tab from the filters reaches the results; Enter opens the page.
    await page.locator('[data-search-results] a').first().focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === filtered[0]);
    await page.close();
  });

  it('fills the template with the pasted values on the error page (?m=), as text', async () => {
    const page = await ctx.browser.newPage();
    const m = 'unsupported auxiliary frame(s): expected 1 frame, got <img src=x onerror=alert(1)>';
    await page.goto(`${ctx.server.url}${AUX}?m=${encodeURIComponent('unsupported auxiliary frame(s): expected 1 frame, got 7')}`);
    const box = page.locator('[data-your-error]');
    expect(await box.isVisible()).toBe(true);
    expect(await box.locator('.your-error-title').innerText()).toBe('Your error');
    expect(await box.getAttribute('aria-label')).toBe('Your error');
    expect(await box.locator('.your-error-message').innerText()).toBe('unsupported auxiliary frame(s): expected 1 frame, got 7');
    expect(await box.locator('dt').innerText()).toBe('frame_count');
    expect(await box.locator('dd').innerText()).toBe('7');
    // A message that does not follow the template is shown as text, never as markup.
    await page.goto(`${ctx.server.url}${KV}?m=${encodeURIComponent(m)}`);
    expect(await page.locator('[data-your-error] .your-error-message').innerText()).toBe(m);
    expect(await page.locator('[data-your-error] img').count()).toBe(0);
    expect(await page.locator('[data-your-error-note]').innerText()).toContain('does not follow this template');
    await page.close();
  });

  it('leaves the error page as it was without JavaScript or without ?m=', async () => {
    const page = await ctx.browser.newPage();
    await page.goto(`${ctx.server.url}${AUX}`);
    expect(await page.locator('[data-your-error]').isVisible()).toBe(false);
    await page.close();
    const context = await ctx.browser.newContext({ javaScriptEnabled: false });
    const noJs = await context.newPage();
    await noJs.goto(`${ctx.server.url}${AUX}?m=${encodeURIComponent('unsupported auxiliary frame(s): expected 1 frame, got 7')}`);
    expect(await noJs.locator('[data-your-error]').isVisible()).toBe(false);
    expect(await noJs.locator('h1').innerText()).toBe('unsupported auxiliary frame(s): expected 1 frame, got {frame_count}');
    await context.close();
  });

  it('is usable at 360 px: nothing scrolls sideways', async () => {
    const page = await ctx.browser.newPage({ viewport: { width: 360, height: 800 } });
    await page.goto(`${ctx.server.url}/search/?q=${encodeURIComponent('not found')}`);
    await results(page, 'not found');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await page.close();
  });
});
