/**
 * `npm run page-weight [-- --top=N]`: what each error page of a built site (ERRDEX_DIST or dist/)
 * weighs, uncompressed: its HTML, the stylesheets it links and the scripts it loads (module scripts
 * and the modules they import), read from disk (what tests/site/error-page.browser.test.ts counts in
 * Chromium for one page). Prints the median, the 90th percentile, the largest, how many pages are
 * over 45 KB and 45 KiB, and the heaviest pages with what their HTML holds.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { listFilesBelow } from '../src/util/files.ts';
import { scriptOptions, wholeNumber } from '../src/util/script-options.ts';

const USAGE = `Usage: npm run page-weight -- [--top=N]

What each error page of the built site (ERRDEX_DIST or dist/) weighs, uncompressed, with its
stylesheets and scripts: the median, 90th percentile and largest, and the N heaviest pages with what
their HTML holds (default 5).`;
const { values } = scriptOptions({ top: { type: 'string', default: '5' } }, USAGE);
const dist = process.env.ERRDEX_DIST || 'dist';
const top = wholeNumber(values.top, '--top', USAGE, 0);
const basePath = process.env.ERRDEX_BASE_PATH ?? '';

/** A file of the site by its URL path. */
const fileOf = (url: string) => join(dist, url.slice(basePath.length).replace(/^\//, ''));
const sizes = new Map<string, number>();
const sizeOf = (file: string) => {
  let n = sizes.get(file);
  if (n === undefined) sizes.set(file, (n = readFileSync(file).length));
  return n;
};

/** A script and the modules it imports, each once. */
function scriptFiles(file: string, seen: Set<string>): void {
  if (seen.has(file)) return;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/(?:from|import)\s*["']([^"']+\.js)["']/g)) {
    const spec = m[1]!;
    scriptFiles(spec.startsWith('/') ? fileOf(spec) : join(dirname(file), spec), seen);
  }
}

interface Weight {
  path: string;
  html: number;
  css: number;
  js: number;
  total: number;
  /** The HTML's largest parts: the excerpt, the other code blocks, the head. */
  parts: Record<string, number>;
}

function weigh(f: string, html: string): Weight {
  const css = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].reduce((n, m) => n + sizeOf(fileOf(m[1]!)), 0);
  const scripts = new Set<string>();
  for (const m of html.matchAll(/<script type="module" src="([^"]+)"/g)) scriptFiles(fileOf(m[1]!), scripts);
  const js = [...scripts].reduce((n, s) => n + sizeOf(s), 0);
  const bytes = Buffer.byteLength(html);
  const excerpt = /<section aria-labelledby="source"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
  const blocks = [...html.matchAll(/<div class="code-block[\s\S]*?<\/pre><\/div>/g)].reduce((n, m) => n + Buffer.byteLength(m[0]), 0);
  const head = html.slice(0, html.indexOf('<body'));
  return {
    path: `/${f.slice(0, -'index.html'.length)}`,
    html: bytes,
    css,
    js,
    total: bytes + css + js,
    parts: { excerpt: Buffer.byteLength(excerpt), 'all code blocks': blocks, head: Buffer.byteLength(head) },
  };
}

const weights = listFilesBelow(dist)
  .filter((f) => f.endsWith('/index.html') && f.split('/').length === 4)
  .map((f) => ({ f, html: readFileSync(join(dist, f), 'utf8') }))
  .filter(({ html }) => html.includes('data-error-id'))
  .map(({ f, html }) => weigh(f, html))
  .sort((a, b) => a.total - b.total);
if (weights.length === 0) throw new Error(`no error pages in ${dist}`);
const at = (q: number) => weights[Math.min(weights.length - 1, Math.floor(q * weights.length))]!;
const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
const largest = weights.at(-1)!;
console.log(`${weights.length} error pages in ${dist}, HTML + CSS + JS, uncompressed:`);
console.log(`  median ${kb(at(0.5).total)}, 90th percentile ${kb(at(0.9).total)}, largest ${kb(largest.total)} (${largest.total} bytes)`);
console.log(`  over 45 KB (45,000 bytes): ${weights.filter((w) => w.total > 45_000).length}; over 45 KiB (46,080 bytes): ${weights.filter((w) => w.total > 46_080).length}`);
console.log(`  CSS ${kb(largest.css)}, JS ${kb(largest.js)} per page; HTML median ${kb(at(0.5).html)}, largest ${kb(Math.max(...weights.map((w) => w.html)))}`);
for (const w of weights.slice(-top).reverse()) {
  const parts = Object.entries(w.parts)
    .map(([k, v]) => `${k} ${kb(v)}`)
    .join(', ');
  console.log(`  ${kb(w.total)}  HTML ${kb(w.html)} (${parts})  ${w.path}`);
}
