/**
 * The real-set benchmark's Chromium pass (scripts/bench-search-real.ts): a sample of its pastes on
 * the real search page, one fresh browser context per query (cold cache, as a first search; the
 * paste comes a second after the page opened, as bench-search.ts's errdex pass), reading the first result, `data-no-match`, the matcher's time in its worker,
 * the time from the paste to the results shown, and the index bytes the query fetched (counted at the static server).
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import type { ErrorRecord } from '../../src/schema/record.ts';
import { launchChromium } from '../../tests/support/browser.ts';
import { MESSAGE_INDEX_DIR } from '../../src/build/search-index.ts';
import { serveStatic } from '../../tests/support/static-server.ts';

/** How long the visitor takes to paste after the page opened. */
const PASTE_PAUSE_MS = 1_000;

/** Pastes into the open search page's box, submits, and waits until the page has answered that paste. */
export async function submitPaste(page: Page, paste: string): Promise<void> {
  await page.evaluate((t) => {
    const box = document.querySelector<HTMLTextAreaElement>('#site-search')!;
    box.value = t;
    box.form!.requestSubmit();
  }, paste);
  await page.waitForFunction(
    (t) => {
      const list = document.querySelector<HTMLElement>('[data-search-results]')!;
      return list.dataset.state === 'done' && list.dataset.query === t.trim();
    },
    paste,
    { timeout: 30_000 },
  );
}

export interface PageOutcome {
  firstPath: string | null;
  noMatch: boolean;
  matchMs: number;
  /** From the paste to the results shown (the page's own count: fetching, matching, rendering). */
  totalMs: number;
  bytes: number;
}

/** The real site (search page, scripts, styles) built once from a few records; the message index is then replaced. */
export function baseSite(work: string, sample: ErrorRecord[]): string {
  const catalog = join(work, 'base-catalog');
  const dist = join(work, 'base-site');
  rmSync(catalog, { recursive: true, force: true });
  mkdirSync(catalog, { recursive: true });
  writeFileSync(join(catalog, 'part.jsonl'), sample.map((record) => JSON.stringify({ record, datasetVersion: '2026-08-15T17:31:12.345Z' })).join('\n'));
  const run = spawnSync(process.execPath, ['scripts/build.ts'], { env: { ...process.env, ERRDEX_DATA: catalog, ERRDEX_DIST: dist }, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`building the base site failed:\n${run.stdout}\n${run.stderr}`);
  return dist;
}

/**
 * Each paste on a fresh search page. The site has the message index of `index` (a folder holding a
 * `search-index/` the benchmark wrote for its Node pass), and no Pagefind index.
 */
export async function pageOutcomes(base: string, work: string, index: string, pastes: readonly string[]): Promise<PageOutcome[]> {
  const dir = join(work, `site-${basename(index)}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(base, dir, { recursive: true });
  rmSync(join(dir, MESSAGE_INDEX_DIR), { recursive: true, force: true });
  cpSync(join(index, MESSAGE_INDEX_DIR), join(dir, MESSAGE_INDEX_DIR), { recursive: true });
  const server = await serveStatic(dir);
  const browser = await launchChromium();
  const out: PageOutcome[] = [];
  try {
    for (const paste of pastes) {
      const context = await browser.newContext();
      const page = await context.newPage();
      // As a visitor does: the page opens (its worker fetches the manifest and warms up), the paste comes a second later.
      await page.goto(`${server.url}/search/`);
      await page.waitForSelector('[data-search-results][data-state="done"]', { state: 'attached' });
      await page.waitForTimeout(PASTE_PAUSE_MS);
      server.bytes.clear();
      await submitPaste(page, paste);
      const info = await page.evaluate(() => {
        const list = document.querySelector<HTMLElement>('[data-search-results]')!;
        const a = list.querySelector('a');
        return { firstPath: a ? new URL(a.href).pathname : null, noMatch: list.hasAttribute('data-no-match'), matchMs: Number(list.dataset.matchMs), totalMs: Number(list.dataset.totalMs) };
      });
      const bytes = [...server.bytes].reduce((s, [p, b]) => (p.includes(`/${MESSAGE_INDEX_DIR}/`) ? s + b : s), 0);
      out.push({ ...info, bytes });
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return out;
}
