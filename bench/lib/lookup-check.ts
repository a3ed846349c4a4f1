/**
 * `errdex lookup` held to the search page (scripts/bench-search-real.ts `--lookup-check`): each
 * paste searched on the real search page in Chromium (one page, pastes one after another, as a
 * visitor pasting again) and looked up over HTTP by the lookup (a fresh lookup each, cold: the
 * manifest, shards and twin fetched again), against the same served site. Their first answers must
 * be the same: no entry on both, or the same first page. Also the lookup's bytes and time per paste.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorRecord } from '../../src/schema/record.ts';
import { MESSAGE_INDEX_DIR } from '../../src/build/search-index.ts';
import { lookup } from '../../src/lookup/lookup.ts';
import { openSite } from '../../src/lookup/site.ts';
import { launchChromium } from '../../tests/support/browser.ts';
import { serveStatic } from '../../tests/support/static-server.ts';
import { submitPaste } from './real-chromium.ts';

/** What one side answered: the first page's root-relative path, or null for "no entry". */
export type FirstAnswer = string | null;

export interface LookupCheckRow {
  paste: string;
  page: FirstAnswer;
  lookup: FirstAnswer;
  /** The page ran past its matcher deadline (it then answers from full text alone): not a verdict on the lookup. */
  late: boolean;
  /** All the lookup read, and of it the message index (what the page fetches for the paste too, with the manifest). */
  bytes: number;
  indexBytes: number;
  ms: number;
}

/**
 * The site to check on: `base` (a built site) with the message index of `index` (a folder holding a
 * `search-index/`) and the JSON twins of `records`, in `work`.
 */
export function checkSite(base: string, work: string, index: string, records: readonly ErrorRecord[]): string {
  const dir = join(work, 'site-lookup-check');
  rmSync(dir, { recursive: true, force: true });
  cpSync(base, dir, { recursive: true });
  rmSync(join(dir, MESSAGE_INDEX_DIR), { recursive: true, force: true });
  cpSync(join(index, MESSAGE_INDEX_DIR), join(dir, MESSAGE_INDEX_DIR), { recursive: true });
  mkdirSync(join(dir, 'api/errors'), { recursive: true });
  for (const record of records) writeFileSync(join(dir, 'api/errors', `${record.id}.json`), JSON.stringify({ record, datasetVersion: '2026-08-15T17:31:12.345Z' }));
  return dir;
}

export async function lookupCheck(dir: string, pastes: readonly string[], onProgress?: (done: number) => void): Promise<LookupCheckRow[]> {
  const server = await serveStatic(dir);
  const browser = await launchChromium();
  const out: LookupCheckRow[] = [];
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/search/`);
    await page.waitForSelector('[data-search-results][data-state="done"]', { state: 'attached' });
    for (const [i, paste] of pastes.entries()) {
      await submitPaste(page, paste);
      const shown = await page.evaluate(() => {
        const list = document.querySelector<HTMLElement>('[data-search-results]')!;
        const a = list.querySelector('a');
        // The page's note when its matcher failed or ran past the deadline.
        const late = document.querySelector('[data-search-status]')!.textContent!.includes('Pasted-error matching failed');
        return { noMatch: list.hasAttribute('data-no-match'), first: a ? new URL(a.href).pathname : null, late };
      });
      const answer = await lookup(paste, await openSite(server.url));
      out.push({
        paste,
        page: shown.noMatch ? null : shown.first,
        lookup: answer.status === 'found' ? answer.path : null,
        late: shown.late,
        bytes: answer.bytes,
        indexBytes: answer.reads.filter((r) => r.path.startsWith(`/${MESSAGE_INDEX_DIR}/`)).reduce((sum, r) => sum + r.bytes, 0),
        ms: answer.ms,
      });
      onProgress?.(i + 1);
    }
    await page.close();
  } finally {
    await browser.close();
    await server.close();
  }
  return out;
}
