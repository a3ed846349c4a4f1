/**
 * Search under hostile input, in Chromium: a 1 MB paste, a 10k-line traceback and a paste crafted
 * against a valid but polynomial pattern (tests/fixtures/catalogs/search-hostile/) each get an
 * answer from the pattern matcher (never its deadline), the right page first where there is one,
 * while the page's main thread keeps running, and without a script error.
 *
 * No wall-clock thresholds here: the 200 ms target is shown by `npm run bench:search-hostile`
 * (docs/benchmarks.md), never by a timed test.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HOSTILE_INPUTS, SHARD, type HostileInput } from '../../bench/lib/search-hostile-inputs.ts';
import { FIXTURES, siteInBrowser } from '../support/site.ts';

describe('search under hostile input, in Chromium', () => {
  const ctx = siteInBrowser('search-hostile', join(FIXTURES, 'search-hostile'));

  /** Submits `text` as a paste and waits for the answer; counts main-thread heartbeats meanwhile. */
  async function submit(page: Page, text: string): Promise<{ paths: string[]; status: string; engines: string; beats: number }> {
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-search-results]')?.dataset.state === 'done');
    await page.evaluate((t) => {
      const w = window as unknown as { __beats: number; __beatsAtDone: number | null };
      w.__beats = 0;
      w.__beatsAtDone = null;
      const list = document.querySelector<HTMLElement>('[data-search-results]')!;
      // A heartbeat on the main thread: it only advances while no script holds the thread.
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        w.__beats++;
        if (w.__beatsAtDone === null) setTimeout(() => channel.port2.postMessage(0), 1);
      };
      new MutationObserver((_, obs) => {
        if (list.dataset.state === 'done') {
          w.__beatsAtDone = w.__beats;
          obs.disconnect();
        }
      }).observe(list, { attributes: true, attributeFilter: ['data-state'] });
      const box = document.querySelector<HTMLTextAreaElement>('[data-search] textarea')!;
      box.value = t;
      box.closest('form')!.requestSubmit();
      channel.port2.postMessage(0);
    }, text);
    await page.waitForFunction(() => (window as unknown as { __beatsAtDone: number | null }).__beatsAtDone !== null, undefined, { timeout: 30_000 });
    return page.evaluate(() => {
      const list = document.querySelector<HTMLElement>('[data-search-results]')!;
      return {
        paths: [...list.querySelectorAll('a')].map((a) => new URL(a.href).pathname),
        status: document.querySelector<HTMLElement>('[data-search-status]')!.innerText,
        engines: list.dataset.engines ?? '',
        beats: (window as unknown as { __beatsAtDone: number }).__beatsAtDone,
      };
    });
  }

  it.each(HOSTILE_INPUTS.map((i) => [i.name, i] as const))('%s: an answer from the matcher, the page responsive, no script error', async (_name, input: HostileInput) => {
    const page = await ctx.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${ctx.server.url}/search/`);
    const answer = await submit(page, input.text);
    // The matcher answered: its deadline would say "gave up" and fall back to full text only.
    expect(answer.status).not.toMatch(/matching failed|gave up/);
    expect(answer.status).toMatch(/result|No error matches/);
    if (input.expectFirst) expect(answer.paths[0]).toBe(input.expectFirst);
    // The main thread ran its heartbeat while the worker matched.
    expect(answer.beats).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('still finds the pathological pattern’s own page for a message it describes', async () => {
    const page = await ctx.browser.newPage();
    await page.goto(`${ctx.server.url}/search/`);
    const answer = await submit(page, 'OverflowError: shard 1 2 3 4 5x overflowed');
    expect(answer.paths[0]).toBe(SHARD);
    expect(answer.status).toContain('with the exact template');
    await page.close();
  });
});
