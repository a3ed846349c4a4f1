/**
 * `npm run measure-lists -- /owner/repo/ [query…] [--typed] [--files]`: what a listing page costs a
 * reader, in bytes received: its first view (HTML, stylesheet, scripts), then, for each query in a
 * fresh browser context, everything its filter fetches until the matches are listed (`--typed`: the
 * query typed a key at a time, 120 ms apart, as a person types, so that every prefix may fetch too).
 * Serves the built site (ERRDEX_DIST or dist/) and loads the page in headless Chromium at 1280 px.
 */
import type { Browser } from 'playwright-core';
import { launchChromium } from '../tests/support/browser.ts';
import { serveStatic } from '../tests/support/static-server.ts';

const args = process.argv.slice(2);
const [path = '/', ...queries] = args.filter((a) => !a.startsWith('--'));
const typed = args.includes('--typed');
const showFiles = args.includes('--files');
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

interface Received {
  url: string;
  bytes: number;
}

/** Loads the page, then runs `query` (if any); what was received before and after. */
async function visit(browser: Browser, url: string, query: string | null): Promise<{ first: Received[]; filter: Received[]; status: string }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const first: Received[] = [];
  const filter: Received[] = [];
  let into = first;
  page.on('response', async (r) => {
    const list = into;
    try {
      list.push({ url: new URL(r.url()).pathname, bytes: (await r.body()).length });
    } catch {
      // A redirect has no body.
    }
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  into = filter;
  let status = '';
  const box = page.locator('#list-filter-box');
  if (query !== null && (await box.count()) > 0) {
    if (typed) await box.pressSequentially(query, { delay: 120 });
    else await box.fill(query);
    await page.waitForFunction(() => {
      const s = document.querySelector('.filter-status')?.textContent ?? '';
      return s !== '' && !s.includes('searching');
    });
    await page.waitForLoadState('networkidle');
    status = await page.locator('.filter-status').innerText();
  }
  await context.close();
  return { first, filter, status };
}

const total = (rs: readonly Received[]) => rs.reduce((n, r) => n + r.bytes, 0);
const site = await serveStatic(process.env.ERRDEX_DIST || 'dist');
const browser = await launchChromium();
try {
  const url = `${site.url}${path}`;
  const { first } = await visit(browser, url, null);
  console.log(`${path} first view: ${kb(total(first))} in ${first.length} files`);
  if (showFiles) for (const r of first) console.log(`  ${kb(r.bytes).padStart(9)}  ${r.url}`);
  console.log(`\n| query${typed ? ' (typed)' : ''} | filter fetch | files | status |\n| --- | ---: | ---: | --- |`);
  for (const q of queries) {
    const { filter, status } = await visit(browser, url, q);
    console.log(`| \`${q}\` | ${kb(total(filter))} | ${filter.length} | ${status} |`);
    if (showFiles) for (const r of filter) console.log(`  ${kb(r.bytes).padStart(9)}  ${r.url}`);
  }
} finally {
  await browser.close();
  await site.close();
}
