/**
 * `npm run measure-lists -- /owner/repo/ [query…] [--typed] [--files]`: what a listing page costs a
 * reader, in bytes received: its first view (HTML, stylesheet, scripts), then, for each query in a
 * fresh browser context, everything its filter fetches until the matches are listed (`--typed`: the
 * query typed a key at a time, 120 ms apart, as a person types, so that every prefix may fetch too).
 * Serves the built site (ERRDEX_DIST or dist/) and loads the page in headless Chromium at 1280 px.
 *
 * `--catalog=DIR`: no site, no browser: the listing's filter index is made in process from the
 * catalog's records (as the list-index stage makes it), and each query's bytes are those the filter
 * would fetch (the head, the word files its words name, the row files of the matches it shows first),
 * gzipped as written. For catalogs too big to build on a busy machine.
 */
import type { Browser } from 'playwright-core';
import { launchChromium } from '../tests/support/browser.ts';
import { serveStatic } from '../tests/support/static-server.ts';
import { scriptOptions } from '../src/util/script-options.ts';

const USAGE = `Usage: npm run measure-lists -- /owner/repo/ [query ...] [--typed] [--files] [--catalog=DIR]

What a listing page (default /) costs a reader in bytes: its first view, then each query's filter
fetches, each in a fresh browser context, on the built site (ERRDEX_DIST or dist/).
  --typed         each query typed a key at a time, 120 ms apart
  --files         list each file received
  --catalog=DIR   no site, no browser: each query's bytes from the listing's filter index, made from DIR's records`;
const { values, positionals } = scriptOptions({ typed: { type: 'boolean', default: false }, files: { type: 'boolean', default: false }, catalog: { type: 'string' } }, USAGE, { positionals: true });
const [path = '/', ...queries] = positionals;
const typed = values.typed;
const showFiles = values.files;
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
    // After the first view, what the filter fetches (not a late script of the page).
    if (list === filter && r.request().resourceType() !== 'fetch') return;
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
const catalogDir = values.catalog;
if (catalogDir) {
  await measureIndex(catalogDir);
  process.exit(0);
}

/** The --catalog mode: each query's bytes computed from the index as written, by the code the browser runs. */
async function measureIndex(dir: string): Promise<void> {
  const { readdirSync, readFileSync, existsSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { gzipSync } = await import('node:zlib');
  const { browseListings } = await import('../src/catalog/derive/index.ts');
  const { listIndex, listIndexFiles, rowFileName, rowStarts, rowsToShow, SHOWN_STEP, termFileName } = await import('../src/views/list-index.ts');
  const { intersectIds, nodeOf, queryWords, rowsOf } = await import('../src/views/list-terms.ts');
  const { repoFacets, repoListing } = await import('../src/views/repo-listing.ts');
  type Rec = import('../src/schema/record.ts').ErrorRecord;
  const records = readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n'))
    .map((l) => (JSON.parse(l) as { record: Rec }).record);
  const classesFile = join(dir, 'classes.json');
  const classes = existsSync(classesFile) ? (JSON.parse(readFileSync(classesFile, 'utf8')) as import('../src/schema/failure-class.ts').FailureClass[]) : [];
  const repo = browseListings(records.map((record) => ({ record }) as import('../src/catalog/catalog.ts').CatalogEntry), classes).repoByName.get(path.slice(1, -1));
  if (!repo) throw new Error(`${path}: no such repository in ${dir}`);
  const cpu = process.cpuUsage();
  const { head, files } = listIndexFiles(listIndex('repo', repo.entries.map((e) => e.record), new Map(classes.map((c) => [c.id, c.title])), repoFacets(repo)));
  const gz = new Map(files.map((f) => [f.name, gzipSync(f.json, { level: 9 }).length]));
  const json = new Map(files.map((f) => [f.name, f.json]));
  const headBytes = JSON.stringify({ ...head, dir: '0123456789ab' }).length;
  const firstPage = repoListing(repo).pages[0]!.entries.length;
  console.log(`${path}: ${repo.entries.length} errors, index of ${files.length + 1} files, ${kb([...gz.values()].reduce((a, b) => a + b, 0) + headBytes)} (made and gzipped in ${((process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1e6).toFixed(1)} CPU-seconds)`);
  console.log(`\n| query | filter fetch | files | matches on other pages (shown) |\n| --- | ---: | ---: | --- |`);
  for (const q of queries) {
    const names = new Set<string>();
    const lists = queryWords(q).map((w) => {
      const node = nodeOf(head.terms, w);
      if (!node) return [];
      names.add(termFileName(node.file));
      return rowsOf(JSON.parse(json.get(termFileName(node.file))!), node, w);
    });
    const ids = intersectIds(lists).filter((id) => id >= firstPage);
    const shown = rowsToShow(ids.slice(0, SHOWN_STEP), rowStarts(head.rows), () => false);
    for (const f of shown.files) names.add(rowFileName(f));
    const bytes = headBytes + [...names].reduce((n, name) => n + gz.get(name)!, 0);
    console.log(`| \`${q}\` | ${kb(bytes)} | ${names.size + 1} | ${ids.length.toLocaleString('en-US')} (${shown.ids.length}) |`);
  }
}

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
