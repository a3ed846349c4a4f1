/**
 * `npm run screenshots [-- path ...]`: screenshots of built pages in light and dark, at 360 px and
 * desktop width, into .errdex/screenshots/ (`--top`: the first screenful only). For looking at what a reader sees.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { launchChromium } from '../tests/support/browser.ts';
import { serveStatic } from '../tests/support/static-server.ts';
import { scriptOptions } from '../src/util/script-options.ts';

const USAGE = `Usage: npm run screenshots -- [--top] [path ...]

Screenshots of the built site's pages (ERRDEX_DIST or dist; default the home page, /) in light and
dark, at 360 px and desktop width, into .errdex/screenshots/. --top: the first screenful only.`;
const { values, positionals: paths } = scriptOptions({ top: { type: 'boolean', default: false } }, USAGE, { positionals: true });
// --top: only the first screenful, for looking at headers closely.
const fullPage = !values.top;
if (paths.length === 0) paths.push('/');
const out = '.errdex/screenshots';
/** A file name for a page's path; a long one (a pasted query) is cut, with a hash of the whole so names stay distinct. */
function fileStem(path: string): string {
  const stem = path.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'home';
  return stem.length <= 80 ? stem : `${stem.slice(0, 80)}-${createHash('sha1').update(path).digest('hex').slice(0, 8)}`;
}
mkdirSync(out, { recursive: true });
const site = await serveStatic(process.env.ERRDEX_DIST || 'dist');
const browser = await launchChromium();
try {
  for (const path of paths) {
    for (const scheme of ['light', 'dark'] as const) {
      for (const [label, width] of [['360', 360], ['desktop', 1280]] as const) {
        const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
        // networkidle: the search page fetches and renders its results after load.
        await page.goto(`${site.url}${path}`, { waitUntil: 'networkidle' });
        const name = `${out}/${fileStem(path)}-${scheme}-${label}.png`;
        await page.screenshot({ path: name, fullPage });
        console.log(name);
        await page.close();
      }
    }
  }
} finally {
  await browser.close();
  await site.close();
}
