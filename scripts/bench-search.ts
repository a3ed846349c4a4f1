/**
 * `npm run bench:search [-- --sizes 10000,100000 --clean 100 --per-damage 20 --node-clean 1000 --node-per-damage 200 --node-seed 11 --node-only --passes pagefind,errdex,address,warm --paste-pause 1000 --misses --heaviest 10]`
 *
 * For each catalog size: generates a synthetic catalog (bench/lib/synthetic.ts), builds the
 * search artefacts exactly as the build does (message index + Pagefind index, src/build/search-index.ts)
 * next to the real search page (built once with `scripts/build.ts` from a small catalog: the page does
 * not depend on the catalog), generates clean and damaged pastes (bench/lib/queries.ts), and
 * measures in Chromium, one fresh browser context per query (cold cache):
 *  - errdex: the search page's own flow (the page opens, the visitor pastes `--paste-pause` ms later
 *    into the box and submits; read `[data-search-results]`);
 *  - errdex opened with ?q=: the page opened at /search/?q=<paste>, as the header box sends a paste;
 *  - Pagefind alone: Pagefind's JS API given the raw paste, as a Pagefind-only site would.
 * Reports top-1/top-5 accuracy, bytes fetched per query (counted at the static server) and time per
 * query, as a Markdown table (also written to .errdex/bench-search/results.md).
 * The matcher also runs in Node on a larger query set (the same code as the worker; accuracy and
 * index bytes, no browser). `--node-only` skips Chromium: a quick check while tuning. Then the
 * real set (scripts/bench-search-real.ts; `--no-real` skips it).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import type { ErrorRecord } from '../src/schema/record.ts';
import { wrappedRecordSchema } from '../src/schema/record.ts';
import { matchPaste } from '../src/search/matcher.ts';
import { fullTextWanted } from '../src/search/results.ts';
import { shardFile, type EntryTuple, type MessageIndexManifest } from '../src/search/message-index.ts';
import { benchQueries, DAMAGES, type BenchQuery, type Damage } from '../bench/lib/queries.ts';
import { benchReal } from './bench-search-real.ts';
import { launchChromium } from '../tests/support/browser.ts';
import { serveStatic, type StaticServer } from '../tests/support/static-server.ts';
import { MESSAGE_INDEX_DIR, writeMessageIndex, writePagefindIndex } from '../src/build/search-index.ts';
import { syntheticRecords } from '../bench/lib/synthetic.ts';
import { searchAnswered } from '../tests/support/search-page.ts';
import { refuseOption, scriptOptions, wholeNumber } from '../src/util/script-options.ts';

const ALL_PASSES = ['pagefind', 'errdex', 'address', 'warm'];
const USAGE = `Usage: npm run bench:search -- [options]

Search on synthetic catalogs, in Chromium and in Node, then on the real set (bench:search-real).
  --sizes N,M             catalog sizes, in records (default 10000,100000)
  --clean N               clean pastes in Chromium (default 100)
  --per-damage N          pastes per damage in Chromium (default 20)
  --node-clean N          clean pastes in Node (default 1000)
  --node-per-damage N     pastes per damage in Node (default 200)
  --node-seed N           seed of the Node query set (default 11)
  --node-only             no Chromium: the Node run alone
  --passes A,B            Chromium passes to run, of ${ALL_PASSES.join(', ')} (default all)
  --paste-pause MS        how long after the search page opened the visitor pastes (default 1000)
  --keys N                message index: keys per record (default: the build's)
  --max-shared N          message index: keys shared by more than N records used only as a last resort (default: the build's)
  --misses                print the Node run's misses
  --heaviest N            print the Node run's N queries that fetched the most bytes (default 0)
  --reuse-base            reuse the search page built by an earlier run (.errdex/bench-search/base-site)
  --no-real               skip the real set
Writes .errdex/bench-search/results.md and prints it.`;
const { values } = scriptOptions(
  {
    sizes: { type: 'string', default: '10000,100000' },
    clean: { type: 'string', default: '100' },
    'per-damage': { type: 'string', default: '20' },
    'node-clean': { type: 'string', default: '1000' },
    'node-per-damage': { type: 'string', default: '200' },
    'node-seed': { type: 'string', default: '11' },
    'node-only': { type: 'boolean', default: false },
    passes: { type: 'string', default: ALL_PASSES.join(',') },
    'paste-pause': { type: 'string', default: '1000' },
    keys: { type: 'string' },
    'max-shared': { type: 'string' },
    misses: { type: 'boolean', default: false },
    heaviest: { type: 'string', default: '0' },
    'reuse-base': { type: 'boolean', default: false },
    'no-real': { type: 'boolean', default: false },
  },
  USAGE,
);
const SIZES = values.sizes.split(',').map((n) => wholeNumber(n, '--sizes', USAGE, 1));
// Chromium runs a page per query, so it measures fewer queries; Node checks accuracy on many more.
const CLEAN = wholeNumber(values.clean, '--clean', USAGE, 0);
const PER_DAMAGE = wholeNumber(values['per-damage'], '--per-damage', USAGE, 0);
const NODE_CLEAN = wholeNumber(values['node-clean'], '--node-clean', USAGE, 0);
const NODE_PER_DAMAGE = wholeNumber(values['node-per-damage'], '--node-per-damage', USAGE, 0);
const NODE_ONLY = values['node-only'];
// Chromium passes to run (all by default): a larger query set for one pass alone takes less time.
const PASSES = new Set(values.passes.split(','));
for (const pass of PASSES) if (!ALL_PASSES.includes(pass)) refuseOption(`--passes takes some of ${ALL_PASSES.join(', ')}, separated by commas; got ${values.passes}`, USAGE);
// Seed of the Node query set: another seed checks that tuning did not fit these very queries.
const NODE_SEED = wholeNumber(values['node-seed'], '--node-seed', USAGE);
// Message index settings to try (defaults: the build's).
const INDEX_OPTIONS = {
  ...(values.keys !== undefined ? { keysPerRecord: wholeNumber(values.keys, '--keys', USAGE, 1) } : {}),
  ...(values['max-shared'] !== undefined ? { maxShared: wholeNumber(values['max-shared'], '--max-shared', USAGE, 0) } : {}),
};
// How long the visitor takes to paste after the search page opened (the page warms the matcher meanwhile).
const PASTE_PAUSE_MS = wholeNumber(values['paste-pause'], '--paste-pause', USAGE, 0);
const WORK = resolve('.errdex/bench-search');
// Print the Node run's misses (target, paste, what ranked first): to study them before changing the matcher.
const PRINT_MISSES = values.misses;
// Print the Node run's N queries that fetched the most bytes.
const PRINT_HEAVIEST = wholeNumber(values.heaviest, '--heaviest', USAGE, 0);

interface Outcome {
  damage: Damage;
  rank: number; // 1-based position of the target, 0 when not in the top 5
  bytes: number;
  ms: number;
  matchMs?: number;
  engines?: string;
  /** Index bytes the page fetched after it loaded but before the query (its manifest). */
  loadBytes?: number;
}

const pathOf = (r: Pick<ErrorRecord, 'repo' | 'slug'>) => `/${r.repo}/${r.slug}/`;

function generate(count: number): ErrorRecord[] {
  const records: ErrorRecord[] = [];
  const problems: string[] = [];
  for (const line of syntheticRecords({ count })) {
    const parsed = wrappedRecordSchema.safeParse(JSON.parse(line));
    if (parsed.success) records.push(parsed.data.record);
    else problems.push(parsed.error.message);
  }
  if (problems.length) throw new Error(`the generator made ${problems.length} invalid records, e.g. ${problems[0]}`);
  return records;
}

/** The real site (search page, scripts, styles) built once from a few records. */
function baseSite(sample: ErrorRecord[]): string {
  const catalog = join(WORK, 'base-catalog');
  const dist = join(WORK, 'base-site');
  rmSync(catalog, { recursive: true, force: true });
  mkdirSync(catalog, { recursive: true });
  writeFileSync(join(catalog, 'part.jsonl'), sample.map((record) => JSON.stringify({ record, datasetVersion: '2026-08-15T17:31:12.345Z' })).join('\n'));
  const run = spawnSync(process.execPath, ['scripts/build.ts'], {
    env: { ...process.env, ERRDEX_DATA: catalog, ERRDEX_DIST: dist },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`building the base site failed:\n${run.stdout}\n${run.stderr}`);
  return dist;
}

async function siteFor(records: ErrorRecord[], base: string): Promise<{ dir: string; info: string }> {
  const dir = join(WORK, `site-${records.length}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(base, dir, { recursive: true });
  let t = performance.now();
  const built = writeMessageIndex(records, dir, INDEX_OPTIONS);
  const indexS = (performance.now() - t) / 1000;
  t = performance.now();
  if (!NODE_ONLY) await writePagefindIndex(records, dir);
  const pagefindS = (performance.now() - t) / 1000;
  const info =
    `message index: ${built.manifest.shards} shards, largest ${(built.largestShard / 1024).toFixed(1)} KB, ${built.unindexed.length} records unindexed, built in ${indexS.toFixed(1)} s; ` +
    `Pagefind index built in ${pagefindS.toFixed(0)} s`;
  console.log(`  ${info}`);
  return { dir, info };
}

async function nodeOutcomes(dir: string, queries: BenchQuery[]): Promise<Outcome[]> {
  const root = join(dir, MESSAGE_INDEX_DIR);
  const manifestText = readFileSync(join(root, 'manifest.json'), 'utf8');
  const manifest = JSON.parse(manifestText) as MessageIndexManifest;
  const out: Outcome[] = [];
  const heavy: { bytes: number; shards: number; text: string }[] = [];
  for (const q of queries) {
    // As in a fresh page: the manifest, then the shards.
    let bytes = Buffer.byteLength(manifestText);
    const load = async (n: number) => {
      const text = readFileSync(join(root, shardFile(manifest, n)), 'utf8');
      bytes += Buffer.byteLength(text);
      return JSON.parse(text) as EntryTuple[];
    };
    const r = await matchPaste(q.text, manifest, load, 5);
    const rank = r.results.findIndex((x) => pathOf(x.entry) === pathOf(q.target)) + 1;
    if (PRINT_MISSES && rank !== 1) {
      console.log(
        [
          `MISS ${q.damage} rank=${rank || '>5'} candidates=${r.candidates}`,
          `  target : ${q.target.errorMessage}`,
          `  paste  : ${JSON.stringify(q.text.length > 300 ? `${q.text.slice(0, 300)}…` : q.text)}`,
          ...r.results.slice(0, 3).map((x, i) => `  #${i + 1} ${x.kind} ${x.score.toFixed(3)}: ${x.entry.template}`),
        ].join('\n'),
      );
    }
    out.push({ damage: q.damage, rank, bytes, ms: r.timings.normaliseMs + r.timings.rankMs, matchMs: r.timings.normaliseMs + r.timings.rankMs, engines: fullTextWanted(r.results) ? 'matcher+pagefind' : 'matcher' });
    heavy.push({ bytes, shards: r.shards.length, text: q.text });
  }
  for (const h of heavy.sort((a, b) => b.bytes - a.bytes).slice(0, PRINT_HEAVIEST)) {
    console.log(`HEAVY ${(h.bytes / 1024).toFixed(0)} KB, ${h.shards} shards: ${JSON.stringify(h.text.slice(0, 400))}`);
  }
  return out;
}

function progress(label: string, done: number, total: number): void {
  if (done % 50 === 0) console.log(`  ${label}: ${done}/${total} queries`);
}

const sum = (m: Map<string, number>, test: (path: string) => boolean) => [...m].reduce((s, [p, b]) => (test(p) ? s + b : s), 0);

/** Pastes a query into the search page's box and reads the ranked result list. */
async function runQuery(page: Page, text: string) {
  await page.evaluate((t) => {
    const box = document.querySelector<HTMLTextAreaElement>('#site-search')!;
    box.value = t;
    box.form!.requestSubmit();
  }, text);
  return resultsOf(page, text);
}

/** The ranked result list once the page has answered `text`. */
async function resultsOf(page: Page, text: string) {
  await searchAnswered(page, text, 30_000);
  return page.evaluate(() => {
    const list = document.querySelector<HTMLElement>('[data-search-results]')!;
    const paths = [...list.querySelectorAll('a')].map((a) => new URL(a.href).pathname);
    return { paths, matchMs: Number(list.dataset.matchMs), totalMs: Number(list.dataset.totalMs), engines: list.dataset.engines ?? '' };
  });
}

async function openSearchPage(browser: Browser, server: StaticServer): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/search/`);
  await page.waitForSelector('[data-search-results][data-state="done"]', { state: 'attached' });
  return { page, close: () => context.close() };
}

const searchBytes = (server: StaticServer) => sum(server.bytes, (p) => p.includes(`/${MESSAGE_INDEX_DIR}/`) || p.includes('/pagefind/'));

/**
 * Each query on a fresh page with an empty cache, as someone's first search: the search page
 * opens, the visitor takes `PASTE_PAUSE_MS` to paste, then submits.
 */
async function errdexOutcomes(browser: Browser, server: StaticServer, queries: BenchQuery[]): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const q of queries) {
    progress('errdex', out.length, queries.length);
    const { page, close } = await openSearchPage(browser, server);
    server.bytes.clear();
    await page.waitForTimeout(PASTE_PAUSE_MS);
    const loadBytes = searchBytes(server);
    server.bytes.clear();
    const info = await runQuery(page, q.text);
    const rank = info.paths.slice(0, 5).indexOf(pathOf(q.target)) + 1;
    out.push({ damage: q.damage, rank, bytes: searchBytes(server), ms: info.totalMs, matchMs: info.matchMs, engines: info.engines, loadBytes });
    await close();
  }
  return out;
}

/**
 * Each query on a fresh page opened at `/search/?q=…`, as the header box on every page sends a
 * paste: the query runs as the page loads, with nothing warmed before it.
 */
async function addressOutcomes(browser: Browser, server: StaticServer, queries: BenchQuery[]): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const q of queries) {
    progress('errdex ?q=', out.length, queries.length);
    const context = await browser.newContext();
    const page = await context.newPage();
    server.bytes.clear();
    await page.goto(`${server.url}/search/?q=${encodeURIComponent(q.text)}`);
    const info = await resultsOf(page, q.text);
    const rank = info.paths.slice(0, 5).indexOf(pathOf(q.target)) + 1;
    out.push({ damage: q.damage, rank, bytes: searchBytes(server), ms: info.totalMs, matchMs: info.matchMs, engines: info.engines });
    await context.close();
  }
  return out;
}

/** All queries one after another in one page: matching time once the worker's code is warm. */
async function warmMatchTimes(browser: Browser, server: StaticServer, queries: BenchQuery[]): Promise<number[]> {
  const { page, close } = await openSearchPage(browser, server);
  const times: number[] = [];
  for (const q of queries) times.push((await runQuery(page, q.text)).matchMs);
  await close();
  return times;
}

async function pagefindOutcomes(browser: Browser, server: StaticServer, queries: BenchQuery[]): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const q of queries) {
    progress('Pagefind', out.length, queries.length);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/search/`);
    await page.waitForSelector('[data-search-results][data-state="done"]', { state: 'attached' });
    server.bytes.clear();
    const info = await page.evaluate(async (text) => {
      const started = performance.now();
      const pf = await import(/* @vite-ignore */ `${location.origin}/pagefind/pagefind.js`);
      await pf.options({ baseUrl: '/' });
      // A large catalog's index comes in parts (src/build/search-index.ts): search them all, as the site does.
      const { parts } = (await (await fetch(`${location.origin}/pagefind/errdex-parts.json`)).json()) as { parts: string[] };
      for (const part of parts) await pf.mergeIndex(`${location.origin}/pagefind/${part}`, { baseUrl: '/' });
      const search = await pf.search(text);
      const data = await Promise.all(search.results.slice(0, 5).map((r: { data(): Promise<{ url: string }> }) => r.data()));
      return { paths: data.map((d: { url: string }) => new URL(d.url, location.href).pathname), ms: performance.now() - started };
    }, q.text);
    const rank = info.paths.indexOf(pathOf(q.target)) + 1;
    out.push({ damage: q.damage, rank, bytes: sum(server.bytes, (p) => p.includes('/pagefind/')), ms: info.ms });
    await context.close();
  }
  return out;
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : '–');
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
}
const kb = (b: number) => `${(b / 1024).toFixed(0)} KB`;

function summarise(label: string, o: Outcome[]): string[] {
  const clean = o.filter((x) => x.damage === 'clean');
  const damaged = o.filter((x) => x.damage !== 'clean');
  const top = (xs: Outcome[], k: number) => pct(xs.filter((x) => x.rank >= 1 && x.rank <= k).length, xs.length);
  const bytes = o.map((x) => x.bytes);
  const ms = o.map((x) => x.ms);
  const match = o.filter((x) => x.matchMs !== undefined).map((x) => x.matchMs!);
  return [
    label,
    top(clean, 1),
    top(clean, 5),
    top(damaged, 1),
    top(damaged, 5),
    `${kb(quantile(bytes, 0.5))} / ${kb(quantile(bytes, 0.95))} / ${kb(Math.max(...bytes))}`,
    match.length ? `${quantile(match, 0.5).toFixed(1)} / ${quantile(match, 0.95).toFixed(1)} / ${Math.max(...match).toFixed(1)} ms` : '–',
    `${quantile(ms, 0.5).toFixed(0)} / ${quantile(ms, 0.95).toFixed(0)} ms`,
  ];
}

function byDamage(label: string, o: Outcome[]): string[] {
  return [label, ...(['clean', ...DAMAGES] as Damage[]).map((d) => {
    const xs = o.filter((x) => x.damage === d);
    return pct(xs.filter((x) => x.rank === 1).length, xs.length);
  })];
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;

async function main(): Promise<void> {
  mkdirSync(WORK, { recursive: true });
  const report: string[] = [];
  let base: string | null = null;
  for (const size of SIZES) {
    console.log(`${size} records`);
    let t = performance.now();
    const records = generate(size);
    console.log(`  generated and validated in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    base ??= existsSync(join(WORK, 'base-site', 'search', 'index.html')) && values['reuse-base'] ? join(WORK, 'base-site') : baseSite(records.slice(0, 20));
    const { dir, info } = await siteFor(records, base);
    const queries = benchQueries(records, { clean: CLEAN, perDamage: PER_DAMAGE });
    const nodeQueries = benchQueries(records, { clean: NODE_CLEAN, perDamage: NODE_PER_DAMAGE, seed: NODE_SEED });
    const runs: [string, Outcome[]][] = [];
    let warm: number[] = [];
    t = performance.now();
    if (!NODE_ONLY) {
      const server = await serveStatic(dir);
      const browser = await launchChromium();
      try {
        if (PASSES.has('pagefind')) runs.push(['Pagefind alone (Chromium)', await pagefindOutcomes(browser, server, queries)]);
        if (PASSES.has('errdex')) runs.push(['errdex (Chromium)', await errdexOutcomes(browser, server, queries)]);
        if (PASSES.has('address')) runs.push(['errdex, opened with ?q= (Chromium)', await addressOutcomes(browser, server, queries)]);
        if (PASSES.has('warm')) warm = await warmMatchTimes(browser, server, queries);
      } finally {
        await browser.close();
        await server.close();
      }
      console.log(`  ${queries.length} queries measured in Chromium in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    }
    runs.push([`errdex matcher (Node, ${nodeQueries.length} queries)`, await nodeOutcomes(dir, nodeQueries)]);
    const errdex = runs.find(([label]) => label.startsWith('errdex (Chromium)'))?.[1] ?? [];
    const withPagefind = errdex.filter((x) => x.engines === 'matcher+pagefind').length;
    const address = runs.find(([label]) => label.startsWith('errdex, opened'))?.[1] ?? [];
    const addressPagefind = address.filter((x) => x.engines === 'matcher+pagefind').length;
    const loadBytes = errdex.map((x) => x.loadBytes ?? 0);
    const nodeRun = runs[runs.length - 1]![1];
    const nodePagefind = nodeRun.filter((x) => x.engines === 'matcher+pagefind').length;
    report.push(
      `### ${size.toLocaleString('en-US')} records`,
      '',
      `In Chromium, ${queries.length} pasted queries: ${CLEAN} clean concrete messages and ${PER_DAMAGE} for each damage; in Node, ${nodeQueries.length} others (${NODE_CLEAN} clean, ${NODE_PER_DAMAGE} per damage, seed ${NODE_SEED}). ${info}.`,
      '',
      row(['engine', 'top-1 clean', 'top-5 clean', 'top-1 damaged', 'top-5 damaged', 'bytes per query (median / p95 / max)', 'matching per query (median / p95 / max)', 'time to results (median / p95)']),
      row(Array(8).fill('---')),
      ...runs.map(([label, o]) => row(summarise(label, o))),
      '',
      'Top-1 by damage:',
      '',
      row(['engine', 'clean', ...DAMAGES]),
      row(Array(DAMAGES.length + 2).fill('---')),
      ...runs.map(([label, o]) => row(byDamage(label, o))),
      '',
      `In Node, the page would have run Pagefind too on ${nodePagefind} of ${nodeRun.length} queries (see \`fullTextWanted\`).`,
      '',
      NODE_ONLY
        ? ''
        : `errdex ran Pagefind too on ${withPagefind} of ${errdex.length} queries pasted into the page and ${addressPagefind} of ${address.length} opened with ?q= (when the matcher had nothing to show). ` +
          `Matching is the matcher's CPU time in its worker for the query (normalise + rank; fetching, and the warm-up the worker runs before a first query or while its shards come, excluded: time to results includes them). ` +
          `errdex (Chromium): a fresh page per query, pasted ${PASTE_PAUSE_MS} ms after the page opened (meanwhile the page fetched ${loadBytes.length ? kb(Math.max(...loadBytes)) : '–'} of index, its manifest, and warmed the matcher); ` +
          `opened with ?q=: a fresh page per query at /search/?q=…, as the header box sends a paste (bytes include the manifest). ` +
          (warm.length ? `All queries one after another in one page (warm): ${quantile(warm, 0.5).toFixed(1)} / ${quantile(warm, 0.95).toFixed(1)} / ${Math.max(...warm).toFixed(1)} ms (median / p95 / max).` : ''),
      '',
    );
  }
  // The real set (real records and pastes, bench-search-real.ts), when its folder is there.
  const dev = process.env.ERRDEX_SEARCH_DEV ?? ['../shared/search-dev', '../../shared/search-dev'].find((d) => existsSync(d));
  if (!values['no-real'] && dev && existsSync(dev)) {
    report.push(
      '### Real records and pastes',
      '',
      await benchReal({ dev: resolve(dev), distractors: [0, Math.max(...SIZES)], holdOut: ['encode/httpx', 'prettier/prettier'], work: resolve('.errdex/bench-search-real'), misses: new Set(), chromium: NODE_ONLY ? 0 : CLEAN }),
    );
  }
  const text = report.join('\n');
  writeFileSync(join(WORK, 'results.md'), text);
  console.log(`\n${text}`);
}

await main();
