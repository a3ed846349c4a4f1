/**
 * `npm run first-screen [-- --limit=N]`: for the error pages of a built site (ERRDEX_DIST or dist),
 * whether the message, where it is raised, the explanation and the first solution are on the first
 * screen at 1280×800 and 360×740 (the error page's promise; tests/site/error-page.browser.test.ts
 * checks one page), in headless Chromium (`--width=360`: one of them). `--limit=N`: the N pages with the most text above their
 * first solution (message, explanation, first solution), the likeliest to miss. Prints the pages that
 * miss, the worst first.
 */
import { launchChromium } from '../tests/support/browser.ts';
import { serveStatic } from '../tests/support/static-server.ts';
import { listFilesBelow } from '../src/util/files.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { refuseOption, scriptOptions, wholeNumber } from '../src/util/script-options.ts';

const ALL_SCREENS = [
  { name: '1280×800', width: 1280, height: 800 },
  { name: '360×740', width: 360, height: 740 },
];
const USAGE = `Usage: npm run first-screen -- [--limit=N] [--width=${ALL_SCREENS.map((s) => s.width).join('|')}]

Whether the error pages of the built site (ERRDEX_DIST or dist) show their first solution on the
first screen, at ${ALL_SCREENS.map((s) => s.name).join(' and ')}, in Chromium without JavaScript.
  --limit=N   only the N pages with the most text above their first solution (default: every page)
  --width=W   only the screen of that width`;
const { values } = scriptOptions({ limit: { type: 'string' }, width: { type: 'string' } }, USAGE);
const dist = process.env.ERRDEX_DIST || 'dist';
const limit = values.limit === undefined ? Number.POSITIVE_INFINITY : wholeNumber(values.limit, '--limit', USAGE, 1);
// `--width=360`: that screen only.
const width = values.width;
const SCREENS = ALL_SCREENS.filter((s) => width === undefined || String(s.width) === width);
if (SCREENS.length === 0) refuseOption(`--width takes one of ${ALL_SCREENS.map((s) => s.width).join(', ')}; got ${width}`, USAGE);
/** The characters of text above a page's first solution's end: what pushes it down. */
function textAbove(html: string): number {
  const end = html.indexOf('</li>', html.indexOf('class="solutions"'));
  const start = html.indexOf('<h1');
  return start === -1 || end === -1 ? 0 : html.slice(start, end).replace(/<[^>]*>/g, '').length;
}
const pages = listFilesBelow(dist)
  .filter((f) => f.endsWith('/index.html') && f.split('/').length === 4)
  .map((f) => ({ f, html: readFileSync(join(dist, f), 'utf8') }))
  .filter(({ html }) => html.includes('data-error-id'))
  .map(({ f, html }) => ({ path: `/${f.slice(0, -'index.html'.length)}`, text: textAbove(html) }))
  .sort((a, b) => b.text - a.text)
  .slice(0, limit)
  .map((p) => p.path);
const server = await serveStatic(dist);
const browser = await launchChromium();
try {
  for (const screen of SCREENS) {
    const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height }, javaScriptEnabled: false });
    const page = await context.newPage();
    const misses: { path: string; bottom: number }[] = [];
    for (const path of pages) {
      await page.goto(server.url + path);
      // The first solution's bottom, or the explanation's where a record has no solutions.
      const bottom = await page.evaluate(() => {
        const el = document.querySelector('ol.solutions > li') ?? document.querySelector('.heading-wrap:has(#meaning) ~ .explanation, .heading-wrap:has(#meaning) ~ p:last-of-type');
        const r = el?.getBoundingClientRect();
        return r ? r.bottom + window.scrollY : Number.POSITIVE_INFINITY;
      });
      if (bottom > screen.height) misses.push({ path, bottom: Math.round(bottom) });
    }
    misses.sort((a, b) => b.bottom - a.bottom);
    console.log(`${screen.name}: ${pages.length - misses.length} of ${pages.length} error pages show the first solution on the first screen.`);
    for (const m of misses.slice(0, 10)) console.log(`  ${m.bottom} px  ${m.path}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
