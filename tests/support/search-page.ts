/**
 * Waiting for the search page's answer: its result list says it is done with the query it was given
 * (`data-state`, `data-query`, set by src/client/search-page.ts). Shared by the site tests, the
 * search and scan benchmarks.
 */
import type { Page } from 'playwright-core';

/** Resolves once the page's result list has answered `query` (as the page trims it). */
export async function searchAnswered(page: Page, query: string, timeout = 20_000): Promise<void> {
  await page.waitForFunction(
    (q) => {
      const list = document.querySelector<HTMLElement>('[data-search-results]');
      return list?.dataset.state === 'done' && list.dataset.query === q.trim();
    },
    query,
    { timeout },
  );
}
