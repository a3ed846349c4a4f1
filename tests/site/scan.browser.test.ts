/**
 * End to end: scan fixture repositories, build the site from what the scan wrote, and find scanned
 * errors by pasting them (placeholders filled with values) into the search page in Chromium.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { messagePath } from '../../src/catalog/derive/message-groups.ts';
import type { ErrorRecord } from '../../src/schema/record.ts';
import { runScan } from '../../src/scan/run.ts';
import { fixtureRepo } from '../unit/scan/fixture-repo.ts';
import { filled } from '../unit/scan/records.ts';
import { siteInBrowser } from '../support/site.ts';
import { searchAnswered } from '../support/search-page.ts';

const CATALOG = resolve('.errdex/test-sites/scan-catalog');
const records: ErrorRecord[] = [];

describe('a scanned catalog, built and searched in Chromium', () => {
  // Registered before siteInBrowser's hook, so the catalog exists when the site is built.
  beforeAll(async () => {
    rmSync(CATALOG, { recursive: true, force: true });
    mkdirSync(CATALOG, { recursive: true });
    for (const name of ['python', 'rust']) {
      const run = await runScan({ dir: fixtureRepo(name), out: CATALOG, log: () => {} });
      records.push(...run.records);
    }
  }, 60_000);
  const ctx = siteInBrowser('scan', CATALOG);

  async function firstResult(query: string, reuse?: Page): Promise<string | undefined> {
    const page = reuse ?? (await ctx.browser.newPage());
    await page.goto(`${ctx.server.url}/search/?q=${encodeURIComponent(query)}`);
    await searchAnswered(page, query);
    const paths = await page.locator('[data-search-results] a').evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
    if (!reuse) await page.close();
    return paths[0];
  }

  it('builds a page for every scanned record', () => {
    expect(records.length).toBeGreaterThan(10);
    expect(ctx.site.stdout).toContain(`${records.length}`);
  });

  it('puts the scanned page first for a pasted message with its values filled in', async () => {
    const pick = (m: string) => records.find((r) => r.errorMessage === m)!;
    for (const [record, paste] of [
      [pick('expected 2 parts, got {len(frame)} in {stage} ({{strict}})'), "FrameError: expected 2 parts, got 3 in 'decode' ({strict})"],
      [pick('cannot reach {host}:{port} (retry {attempt})'), 'ConnectionError: cannot reach db.internal:5432 (retry 3)'],
      [pick('connection {n} out of range (size {self.size})'), "thread 'main' panicked at src/lib.rs:15:39:\nconnection 12 out of range (size 8)"],
      [pick('frame of {0} bytes exceeds the limit of {1}'), 'Error: frame of 70000 bytes exceeds the limit of 65536'],
    ] as const) {
      expect(await firstResult(paste), paste).toBe(`/${record.repo}/${record.slug}/`);
    }
  });

  it('finds every scanned message pasted with sample values', async () => {
    const missed: string[] = [];
    const page = await ctx.browser.newPage();
    for (const r of records) {
      const top = await firstResult(filled(r.errorMessage, ['12', 'decode', 'db.internal']), page);
      const same = records.filter((x) => x.repo === r.repo && x.errorMessage === r.errorMessage).map((x) => `/${x.repo}/${x.slug}/`);
      // A message raised in several places: its message page, which lists them all, is the right first answer.
      if (same.length > 1) same.push(messagePath(r));
      if (!top || !same.includes(top)) missed.push(`${r.errorMessage} -> ${top}`);
    }
    await page.close();
    expect(missed).toEqual([]);
  }, 240_000);
});
