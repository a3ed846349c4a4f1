/**
 * `npm run build [-- options]`: validate, highlight, derive, render and index, then publish.
 *
 * Stages (each reports its time, counts and memory; see scripts/lib/stages.ts):
 *  1. validate the catalog; on any problem print them all and stop (dist/ untouched), unless
 *     --skip-invalid, which writes every skipped record and its reasons to a report file;
 *  2. highlight every code block not yet in the content-addressed highlight cache, on all cores;
 *  3. derive: related errors, computed once for all render processes, and the catalog snapshot they read;
 *     (1 to 3 run in a child process, whose memory is freed when it ends: scripts/lib/prepare.ts)
 *  4. render pages and data files with Astro into a staging folder: the catalog in chunks of at most
 *     25,000 records, one `astro build` per chunk, one per core at a time; the per-record files the
 *     published site holds unchanged are linked from it instead (src/catalog/page-cache.ts);
 *  5. record files: every record's JSON twin and short link, written from the snapshot, the short links
 *     stamped from one page Astro rendered (scripts/lib/record-files.ts);
 *  6. index, in a child process (beside the render up to 25k records): the paste matcher's message index, Pagefind's
 *     full-text index, `_redirects` for moved and short URLs, the URL ledger's plan (scripts/lib/index-stage.ts);
 *  7. swap the staging folder in as dist/ (so a failed build never leaves half a site); the previous
 *     site is deleted in the background;
 *  8. write the updated URL ledger beside the catalog (unless --no-ledger-update), after publishing,
 *     so that it only ever records URLs that were published.
 *
 * Options:
 *   --skip-invalid[=report.json]  build the valid records; list every skipped one and why
 *   --no-cache                    highlight and render everything, ignoring the build cache (and refreshing it)
 *   --report=FILE                 write each stage's time, memory and output as JSON (used by npm run bench)
 *   --no-ledger-update            read the URL ledger but do not write it (preview builds, tests)
 *   --max-fragments=N             at most N Pagefind fragment files: Pagefind bundles them (scripts/lib/pagefind-bundle.ts)
 *
 * Environment: ERRDEX_DATA (catalog), ERRDEX_DIST (output folder), ERRDEX_CACHE_DIR (build cache,
 * default .errdex/cache), ERRDEX_WORKERS (render processes and highlight threads at a time; default one
 * per core, and one render process for a catalog under 5,000 records), ERRDEX_CHUNK_RECORDS (records
 * per render process, default 25,000).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { displayPath } from '../src/catalog/load.ts';
import { buildCacheDir } from '../src/highlight/cache.ts';
import { mergeInto, renderChunks } from './lib/astro-render.ts';
import { startIndex } from './lib/index-stage.ts';
import { codeKey, forgetPageManifest, linkReused, reuseEnv, writePageManifest } from './lib/page-reuse.ts';
import { workerCount } from './lib/highlight-pool.ts';
import { runPrepare } from './lib/prepare.ts';
import { publish } from './lib/publish.ts';
import { writeRecordFiles } from './lib/record-files.ts';
import { parseMaxFragments } from './lib/pagefind-bundle.ts';
import { formatCount, Progress } from './lib/progress.ts';
import { MemorySampler, treeSize, type BuildReport, type StageResult } from './lib/stages.ts';

const args = process.argv.slice(2);
const option = (name: string): string | true | undefined => {
  const a = args.find((x) => x === `--${name}` || x.startsWith(`--${name}=`));
  return a === undefined ? undefined : a.includes('=') ? a.slice(a.indexOf('=') + 1) : true;
};
const known = /^--(skip-invalid|no-cache|report|no-ledger-update|max-fragments)(=|$)/;
const unknown = args.filter((a) => !known.test(a));
if (unknown.length > 0) {
  console.error(`Unknown option${unknown.length > 1 ? 's' : ''}: ${unknown.join(' ')}. Options: --skip-invalid[=FILE], --no-cache, --report=FILE, --no-ledger-update, --max-fragments=N.`);
  process.exit(2);
}
let maxFragments: number | undefined;
try {
  maxFragments = parseMaxFragments(option('max-fragments'));
} catch (e) {
  console.error(`${(e as Error).message} Nothing was built.`);
  process.exit(2);
}
const skipArg = option('skip-invalid');
const skipReport = skipArg === undefined ? null : skipArg === true ? 'skipped-records.json' : skipArg;
const useCache = option('no-cache') === undefined;
const updateLedger = option('no-ledger-update') === undefined;
const reportArg = option('report');
const reportFile = typeof reportArg === 'string' ? resolve(reportArg) : null;
const outDir = resolve(process.env.ERRDEX_DIST || 'dist');
const stagingDir = `${outDir}.staging`;
const cacheDir = buildCacheDir();
const workers = workerCount();
/** At most this many records per render process, so that its memory stays bounded at any catalog size. */
const CHUNK_RECORDS = Number(process.env.ERRDEX_CHUNK_RECORDS) || 25_000;

const progress = new Progress(8);
const memory = new MemorySampler();
const stages: StageResult[] = [];
const buildStarted = performance.now();

/** Ends a stage: prints its summary and records its measurements. */
function endStage(name: string, summary: string, items: number, unit: string, output?: { files: number | null; bytes: number }): void {
  const seconds = progress.end(summary);
  stages.push({ name, seconds, items, unit, peakRssBytes: memory.reset(), outputFiles: output?.files ?? null, outputBytes: output?.bytes ?? null, summary });
}

function fail(message: string, code = 1): never {
  memory.stop();
  progress.warn(message);
  process.exit(code);
}

// 1-3. Validate, highlight and derive, in a child process (see scripts/lib/prepare.ts).
const snapshotDir = join(cacheDir, 'snapshots');
let prepared;
try {
  prepared = await runPrepare(
    { skipReport, refresh: !useCache, workers, chunks: { explicit: Boolean(process.env.ERRDEX_WORKERS), size: CHUNK_RECORDS }, snapshotDir },
    (e) => {
      if (e.type === 'stage') progress.stage(e.name);
      else if (e.type === 'count') progress.count(e.total, e.unit);
      else if (e.type === 'update') progress.update(e.done);
      else if (e.type === 'warn') progress.warn(e.text);
      else if (e.type === 'end') endStage(e.name, e.summary, e.items, e.unit, e.output);
    },
  );
} catch (e) {
  fail(`${(e as Error).message}\n\nNothing was built; ${displayPath(outDir)} is unchanged.`);
}
if (!prepared) fail(`\nNothing was built; ${displayPath(outDir)} is unchanged. Fix the catalog, or build the valid records with --skip-invalid.`);
const { records, chunks } = prepared;

// 6. The index stage runs in a child process (it needs the validated catalog, not the pages), into a
// folder of its own that is merged into the site after the render. For a catalog of up to one render
// chunk it runs beside the render; with a larger one the two would not fit in memory together (at 100k
// records the render processes peak at about 3.6 GB together, the index stage at about 3.5 GB), so it
// starts after the render.
const indexDir = `${outDir}.index`;
const indexBeside = records <= CHUNK_RECORDS;
let indexing: ReturnType<typeof startIndex> | undefined;
let indexSeconds = 0;
function runIndexStage() {
  const started = performance.now();
  indexing = startIndex({ snapshot: chunks[0]!.snapshot, outDir: indexDir, maxFragments });
  // Awaited after the render; until then a failure must not end the process unreported.
  return indexing.result.then(
    (r) => ((indexSeconds = (performance.now() - started) / 1000), { ok: true as const, r }),
    (e: unknown) => ({ ok: false as const, e: e as Error }),
  );
}
const indexedBeside = indexBeside ? runIndexStage() : undefined;
function abandon(message: string): never {
  indexing?.kill();
  for (const dir of [stagingDir, indexDir]) rmSync(dir, { recursive: true, force: true });
  fail(`${message}\n\n${displayPath(outDir)} is unchanged.`);
}

// 4. Render
progress.stage('render');
const code = codeKey();
const reuse = reuseEnv({ cacheDir, site: outDir, code, force: !useCache });
// A page per record, and the site-wide pages; when pages can be reused from the published site, how
// many will be rendered is only known as the render goes.
if (Object.keys(reuse).length === 0) progress.count(records, 'files');
let rendered;
try {
  rendered = await renderChunks({
    outDir: stagingDir,
    chunks,
    parallel: workers,
    cacheDir: join(cacheDir, 'astro'),
    logDir: resolve('.errdex/logs'),
    env: { ...process.env, ...reuse, ERRDEX_CACHE_DIR: cacheDir, ERRDEX_SKIP_INVALID: skipReport ? '1' : '0' },
    onFile: (n) => progress.update(n),
  });
  // The files the render processes left out are the published site's, unchanged.
  linkReused(rendered.pages.reused, outDir, stagingDir);
} catch (e) {
  abandon(`${(e as Error).message}\n\nThe render stage failed.`);
}
endStage(
  'render',
  `${formatCount(records)} error pages: ${formatCount(rendered.rendered)} files rendered, ${formatCount(rendered.pages.reused.length)} unchanged` +
    (chunks.length > 1 ? ` (${chunks.length} processes, ${Math.min(workers, chunks.length)} at a time)` : ''),
  rendered.rendered + rendered.pages.reused.length,
  'files',
);

// 5. Record files
progress.stage('record files');
progress.count(records, 'records');
let recordFiles;
try {
  recordFiles = writeRecordFiles(chunks[0]!.snapshot, stagingDir, (n) => progress.update(n));
} catch (e) {
  abandon(`${(e as Error).message}\n\nThe record files stage failed.`);
}
endStage('record files', `${formatCount(recordFiles.files)} JSON twins and short links`, recordFiles.records, 'records', { files: recordFiles.files, bytes: recordFiles.bytes });

// 6. Index: wait for it (or run it now), then merge its files into the site.
progress.stage('index');
const index = await (indexedBeside ?? runIndexStage());
rmSync(snapshotDir, { recursive: true, force: true });
if (!index.ok) abandon(`${index.e.message}\n\nThe index stage failed.`);
const indexResult = index.r;
for (const line of indexResult.ledger.report) console.log(line);
for (const w of indexResult.warnings) progress.warn(w);
mergeInto(indexDir, stagingDir);
rmSync(indexDir, { recursive: true, force: true });
endStage('index', indexBeside ? `${indexResult.summary} (${indexSeconds.toFixed(1)} s, beside the render)` : indexResult.summary, indexResult.records, 'records');

// 7. Publish
progress.stage('publish');
// Until the new keys are written, no record of keys may describe the folder being replaced.
forgetPageManifest(cacheDir);
publish(stagingDir, outDir);
writePageManifest(cacheDir, { code, site: outDir, files: rendered.pages.keys });
endStage('publish', displayPath(outDir), 0, '');

// 8. Ledger
progress.stage('ledger');
const { file: ledgerFile, text: ledgerText } = indexResult.ledger;
const ledgerUnchanged = existsSync(ledgerFile) && readFileSync(ledgerFile, 'utf8') === ledgerText;
let ledgerSummary: string;
if (ledgerUnchanged) ledgerSummary = `${displayPath(ledgerFile)} unchanged`;
else if (!updateLedger) ledgerSummary = `${displayPath(ledgerFile)} not updated (--no-ledger-update)`;
else {
  writeFileSync(ledgerFile, ledgerText);
  ledgerSummary = `${displayPath(ledgerFile)} updated: commit it with the catalog`;
}
endStage('ledger', ledgerSummary, 0, '');
memory.stop();
const buildSeconds = (performance.now() - buildStarted) / 1000;

if (reportFile) {
  // Measured after the build's clock stopped: walking a large site takes seconds.
  const site = treeSize(outDir);
  const render = stages.find((st) => st.name === 'render')!;
  [render.outputFiles, render.outputBytes] = [site.files, site.bytes];
  const report: BuildReport = {
    catalog: prepared.root,
    records,
    siteFiles: site.files,
    siteBytes: site.bytes,
    seconds: buildSeconds,
    peakRssBytes: Math.max(...stages.map((s) => s.peakRssBytes)),
    stages,
  };
  mkdirSync(dirname(reportFile), { recursive: true });
  writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
}
