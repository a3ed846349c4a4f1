/**
 * `npm run bench:fragments -- --catalog .errdex/catalogs/10k [--max-fragments 2000,500,100] [--queries 40] [--seed 5] [--part-records N]`
 *
 * What `--max-fragments` changes, on one catalog (e.g. one made by `npm run generate`). For the
 * catalog without the option and with each value given, writes Pagefind's index exactly as the build
 * does (src/build/search-index.ts, records in the catalog's order) and reports:
 *  - its full-text parts, the files and bytes of `pagefind/`, its fragment files (every part's) and
 *    the largest;
 *  - in Chromium, for word queries drawn from the catalog's own text (each in a fresh browser
 *    context, so with an empty cache: a visitor's first search), the bytes fetched from `pagefind/`
 *    by the full-text search the search page makes (the calls of src/client/pagefind-client.ts:
 *    every part merged, the query, then the data of its first 20 results), and of those the
 *    fragment bytes, and the files fetched (each a request): median, 95th percentile and maximum.
 * It also writes the message index once and reports its shard count: the other part of the site's
 * file count that grows with the catalog. Prints a Markdown table, also written to
 * .errdex/bench-fragments/results-<records>.md.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { loadCatalog } from '../src/catalog/catalog.ts';
import type { ErrorRecord } from '../src/schema/record.ts';
import { launchChromium } from '../tests/support/browser.ts';
import { PAGEFIND_DIR } from '../src/build/pagefind-bundle.ts';
import { writeMessageIndex, writePagefindIndex } from '../src/build/search-index.ts';
import { treeSize } from '../src/build/measure.ts';
import { serveStatic, type StaticServer } from '../tests/support/static-server.ts';
import { rng } from '../bench/lib/synthetic.ts';
import { refuseOption, scriptOptions, wholeNumber } from '../src/util/script-options.ts';

const USAGE = `Usage: npm run bench:fragments -- [--catalog DIR] [--max-fragments 2000,500,100] [--queries N] [--seed N] [--part-records N]

What --max-fragments changes on one catalog (default .errdex/catalogs/10k): Pagefind's index written
without the option and with each value given (whole numbers separated by commas; default
2000,500,100; "," for none), and N word queries (default 40, drawn with --seed, default 5) in
Chromium against each. --part-records: records per full-text part, at most (default: the build's).
Writes .errdex/bench-fragments/results-<records>.md.`;
const { values } = scriptOptions(
  {
    catalog: { type: 'string', default: '.errdex/catalogs/10k' },
    'max-fragments': { type: 'string', default: '2000,500,100' },
    queries: { type: 'string', default: '40' },
    seed: { type: 'string', default: '5' },
    'part-records': { type: 'string' },
  },
  USAGE,
);
const CATALOG = resolve(values.catalog);
const VALUES = values['max-fragments']
  .split(',')
  .filter(Boolean)
  .map((v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) refuseOption(`--max-fragments: expected whole numbers of at least 1 separated by commas; got ${v}`, USAGE);
    return n;
  });
const QUERIES = wholeNumber(values.queries, '--queries', USAGE, 1);
const SEED = wholeNumber(values.seed, '--seed', USAGE);
/** Records per full-text part, at most (the build's ERRDEX_PAGEFIND_PART_RECORDS; its default unless given). */
const PART_RECORDS = values['part-records'] === undefined ? undefined : wholeNumber(values['part-records'], '--part-records', USAGE, 1);
/** As src/client/pagefind-client.ts: the search page shows the first 20 full-text results. */
const RESULTS = 20;
const WORK = resolve('.errdex/bench-fragments');

/** Word queries from the catalog's own prose: one or two words of five letters or more, of one record. */
function wordQueries(records: readonly ErrorRecord[], count: number, seed: number): string[] {
  const r = rng(seed);
  const out: string[] = [];
  while (out.length < count) {
    const rec = records[Math.floor(r() * records.length)]!;
    const words = `${rec.documentation} ${rec.triggerScenarios}`.toLowerCase().match(/[a-z]{5,}/g) ?? [];
    if (words.length < 2) continue;
    const first = words[Math.floor(r() * words.length)]!;
    const q = out.length % 2 === 0 ? first : `${first} ${words[Math.floor(r() * words.length)]!}`;
    out.push(q);
  }
  return out;
}

interface QueryCost {
  results: number;
  pagefindBytes: number;
  /** Files fetched from pagefind/, every part's: each a request. */
  pagefindFiles: number;
  fragmentBytes: number;
  fragmentFiles: number;
}

async function queryCost(browser: Browser, server: StaticServer, query: string): Promise<QueryCost> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  server.bytes.clear();
  const results = await page.evaluate(
    async ({ q, limit }) => {
      const pf = await import(/* @vite-ignore */ `${location.origin}/pagefind/pagefind.js`);
      await pf.options({ baseUrl: '/', excerptLength: 20 });
      // As the search page does (src/client/pagefind-client.ts): every part listed is merged and searched.
      const listed = await fetch(`${location.origin}/pagefind/errdex-parts.json`).then((r) => (r.ok ? r.json() : { parts: [] }));
      for (const part of listed.parts as string[]) await pf.mergeIndex(`${location.origin}/pagefind/${part}`, { baseUrl: '/', excerptLength: 20 });
      await pf.init();
      const search = await pf.search(q);
      const data = await Promise.all(search.results.slice(0, limit).map((x: { data(): Promise<unknown> }) => x.data()));
      return data.length;
    },
    { q: query, limit: RESULTS },
  );
  await context.close();
  let pagefindBytes = 0;
  let pagefindFiles = 0;
  let fragmentBytes = 0;
  let fragmentCount = 0;
  for (const [path, bytes] of server.bytes) {
    if (!path.startsWith(`/${PAGEFIND_DIR}/`)) continue;
    pagefindBytes += bytes;
    pagefindFiles++;
    if (/^\/pagefind\/(part-[01]+\/)?fragment\//.test(path)) {
      fragmentBytes += bytes;
      fragmentCount++;
    }
  }
  return { results, pagefindBytes, pagefindFiles, fragmentBytes, fragmentFiles: fragmentCount };
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
}
const kb = (b: number) => `${(b / 1024).toLocaleString('en-US', { maximumFractionDigits: b < 10 * 1024 ? 1 : 0 })} KB`;
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const spread = (xs: number[], f: (n: number) => string) => `${f(quantile(xs, 0.5))} / ${f(quantile(xs, 0.95))} / ${f(Math.max(...xs))}`;
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

async function main(): Promise<void> {
  let t = performance.now();
  const catalog = loadCatalog(CATALOG);
  const records = catalog.entries.map((e) => e.record);
  console.log(`${records.length.toLocaleString('en-US')} records from ${CATALOG} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  const site = join(WORK, `site-${records.length}`);
  rmSync(site, { recursive: true, force: true });
  mkdirSync(site, { recursive: true });
  writeFileSync(join(site, 'index.html'), '<!doctype html><html lang="en"><title>bench</title><p>Pagefind bundle benchmark</p></html>\n');

  t = performance.now();
  const messageIndex = writeMessageIndex(records, site);
  console.log(`message index: ${messageIndex.manifest.shards.toLocaleString('en-US')} shards (${((performance.now() - t) / 1000).toFixed(1)} s)`);

  const queries = wordQueries(records, QUERIES, SEED);
  const server = await serveStatic(site);
  const browser = await launchChromium();
  const lines = [
    `${records.length.toLocaleString('en-US')} records (${CATALOG.replace(`${process.cwd()}/`, '')}); message index: ${messageIndex.manifest.shards.toLocaleString('en-US')} shard files + manifest; ${queries.length} word queries, first ${RESULTS} results' data each, cold cache.`,
    '',
    row(['--max-fragments', 'parts', 'pagefind/ files', 'of which fragment files', 'pagefind/ bytes', 'largest fragment file', 'index time', 'query: pagefind/ bytes (median / p95 / max)', 'query: fragment bytes (median / p95 / max)', 'query: fragment files fetched (median / max)', 'query: files fetched from pagefind/ (median / max)']),
    row(Array(11).fill('---')),
  ];
  try {
    for (const value of [undefined, ...VALUES]) {
      const label = value === undefined ? 'none' : String(value);
      t = performance.now();
      const fragments = await writePagefindIndex(records, site, undefined, { maxFragments: value, partRecords: PART_RECORDS });
      const seconds = (performance.now() - t) / 1000;
      const all = treeSize(join(site, PAGEFIND_DIR));
      const costs: QueryCost[] = [];
      for (const q of queries) costs.push(await queryCost(browser, server, q));
      const noResults = costs.filter((c) => c.results === 0).length;
      const line = row([
        label,
        fragments.parts,
        all.files.toLocaleString('en-US'),
        fragments.files.toLocaleString('en-US'),
        mb(all.bytes),
        kb(fragments.largest),
        `${seconds.toFixed(0)} s`,
        spread(costs.map((c) => c.pagefindBytes), kb),
        spread(costs.map((c) => c.fragmentBytes), kb),
        `${quantile(costs.map((c) => c.fragmentFiles), 0.5)} / ${Math.max(...costs.map((c) => c.fragmentFiles))}`,
        `${quantile(costs.map((c) => c.pagefindFiles), 0.5)} / ${Math.max(...costs.map((c) => c.pagefindFiles))}`,
      ]);
      console.log(`${line}${noResults ? `  (${noResults} queries without results)` : ''}`);
      lines.push(line);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const text = `${lines.join('\n')}\n`;
  writeFileSync(join(WORK, `results-${records.length}.md`), text);
  console.log(`\n${text}`);
}

await main();
