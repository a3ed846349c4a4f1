/**
 * `npm run build [-- options]`: validate, derive, highlight, render and index, then publish.
 *
 * Stages (each reports its time, counts and memory; see scripts/lib/stages.ts):
 *  1. validate the catalog; on any problem print them all and stop (dist/ untouched), unless
 *     --skip-invalid, which writes every skipped record and its reasons to a report file;
 *  2. derive: the catalog snapshot the later processes read, and related errors, computed once for all
 *     render processes; as soon as the snapshot is written (above 25k records with highlighting begun
 *     early: once this stage's process has ended), Pagefind's full-text index starts in a child
 *     process of its own (scripts/lib/pagefind-stage.ts), beside everything that follows;
 *  3. highlight every code block not yet in the content-addressed highlight cache, on all cores;
 *     (1 and 2 run in a child process, whose memory is freed when it ends: scripts/lib/prepare.ts; 3 in
 *     another, which reads the code blocks from the snapshot, and large catalog files as they are from
 *     the build's start, beside validation: scripts/lib/highlight-stage.ts)
 *  4. render the pages with Astro into a staging folder: a catalog of up to 25,000 records in one
 *     Astro build, a larger one in chunks of at most 50,000 records, one Astro build per chunk (scripts/lib/astro-build.ts), one per core at a time; the error pages the published
 *     site holds unchanged are linked from it instead (src/catalog/page-cache.ts). The render process
 *     of a one-chunk catalog starts with the build and waits for its input (scripts/lib/render-gate.ts);
 *     above one chunk the second render process waits for the full-text and message indexes (memory);
 *  5. record files, in a child process beside the render, at a lower priority (above 25k records from
 *     when the full-text index is done): every record's JSON twin and short link, written from the snapshot, the short links
 *     stamped from one page Astro rendered (scripts/lib/record-files.ts), then merged into the site;
 *  6. index, in a child process (beside the render up to 25k records, else once the full-text index is
 *     done, before the second render process):
 *     the paste matcher's message index, `_redirects` for moved and short URLs, the URL ledger's plan
 *     (scripts/lib/index-stage.ts); then the full-text index's files are merged in too;
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
 * per core, and one render process for a catalog of up to one chunk), ERRDEX_CHUNK_RECORDS (records
 * per render process above one, default 50,000; one process renders up to 25,000 records, or up to this
 * many when it is less), ERRDEX_EARLY_HIGHLIGHT_BYTES (catalog files above this size are highlighted
 * from the build's start, beside validation; default 128 MB).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { catalogPath, displayPath, listCatalogFiles } from '../src/catalog/load.ts';
import { buildCacheDir, highlightCacheFile } from '../src/highlight/cache.ts';
import { mergeInto, RenderStage, renderSiteDir } from '../src/build/stages/render.ts';
import { startIndex, type IndexResult } from '../src/build/stages/message-index.ts';
import { codeKey, forgetPageManifest, linkReused, publishedSite, reuseEnv, writePageManifest } from '../src/build/page-reuse.ts';
import { workerCount } from '../src/build/workers.ts';
import { runPrepare, snapshotFiles, type PrepareEvent } from '../src/build/stages/validate.ts';
import { runHighlight, type HighlightEvent } from '../src/build/stages/highlight.ts';
import { publish } from '../src/build/stages/publish.ts';
import { mergeRecordFiles, missingTemplate, startRecordFiles, type RecordFilesResult } from '../src/build/stages/record-files.ts';
import { describeFragments, largeBundleWarning, PAGEFIND_DIR, parseMaxFragments } from '../src/build/pagefind-bundle.ts';
import type { PagefindIndexResult } from './lib/search-index.ts';
import { startPagefind } from '../src/build/stages/full-text.ts';
import { formatCount, Progress } from '../src/build/progress.ts';
import { MemorySampler, treeSize, type BuildReport, type StageResult } from '../src/build/measure.ts';

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
/**
 * At most this many records per render process, so that its memory stays bounded at any catalog size
 * (at 100k records about 1.4 GB for a chunk of 50,000, two at a time). Larger chunks mean fewer
 * processes, each of which starts up once: four of 25,000 took 15 CPU-seconds more than two of 50,000.
 */
const CHUNK_RECORDS = Number(process.env.ERRDEX_CHUNK_RECORDS) || 50_000;
/**
 * Catalog files of more than this many bytes are highlighted from the build's start, beside validation
 * (see startHighlight). Some 47,000 records of the bench's synthetic catalog, 25,000 of 5 KB: a catalog
 * this large is nearly always rendered in more than one process, which is what this order is made for.
 * (Below one render chunk it works the same, but highlighting, begun at the lower priority, then shares
 * the CPU evenly with the other stages that run at that priority.)
 */
const EARLY_HIGHLIGHT_BYTES = Number(process.env.ERRDEX_EARLY_HIGHLIGHT_BYTES) || 128 * 2 ** 20;
/** The bytes of the catalog's files; 0 when they cannot be listed (validation says why). */
function catalogBytes(root: string): number {
  try {
    return listCatalogFiles(root).reduce((sum, f) => sum + statSync(f).size, 0);
  } catch {
    return 0;
  }
}
/** Up to this many records, one render process (below); at most CHUNK_RECORDS. */
const SINGLE_CHUNK_RECORDS = Math.min(CHUNK_RECORDS, 25_000);
/**
 * Whether a catalog of `records` renders in one process, leaving a core to the other stages: then they
 * start with the snapshot, at a lower priority (Pagefind, the message index, the record files) or
 * beside derive (highlighting). Above that, memory decides: they run one after the other.
 */
const oneRenderChunk = (records: number): boolean => records <= SINGLE_CHUNK_RECORDS;

const progress = new Progress(8);
const memory = new MemorySampler();
const stages: StageResult[] = [];
const buildStarted = performance.now();

/** Ends a stage: prints its summary and records its measurements. */
function endStage(name: string, summary: string, items: number, unit: string, output?: { files: number | null; bytes: number }): void {
  const seconds = progress.end(summary);
  stages.push({ name, seconds, items, unit, peakRssBytes: memory.reset(), outputFiles: output?.files ?? null, outputBytes: output?.bytes ?? null, summary });
}

/**
 * A child stage's outcome, kept until it is awaited (a child's failure must not end the build
 * unreported), with its own time: from the call, made as the child starts, until it ended.
 */
type Settled<T> = { ok: true; value: T; seconds: number } | { ok: false; e: Error };
function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  const started = performance.now();
  return p.then(
    (value) => ({ ok: true as const, value, seconds: (performance.now() - started) / 1000 }),
    (e: unknown) => ({ ok: false as const, e: e as Error }),
  );
}

// What the published site holds that this build may link instead of making again (its error pages,
// its full-text index's parts: scripts/lib/page-reuse.ts). Known before the catalog is read.
const code = codeKey();
const published = publishedSite({ cacheDir, site: outDir, code, force: !useCache });

// The full-text index (Pagefind) starts in a child process as soon as the validated catalog's snapshot
// is written, and runs beside highlighting and the render (scripts/lib/pagefind-stage.ts).
const fullTextDir = `${outDir}.pagefind`;
let fullText: { run: ReturnType<typeof startPagefind>; settled: Promise<Settled<PagefindIndexResult>> } | undefined;
function startFullText(snapshot: string, count: number): void {
  // Only the parts' keys: the child gets its options on its command line.
  const previous = published ? { site: published.site, keys: Object.fromEntries(Object.entries(published.keys).filter(([path]) => path.startsWith(`${PAGEFIND_DIR}/`))) } : undefined;
  // Up to one render chunk, Pagefind takes what CPU highlighting leaves, then the core beside the one
  // render process. Above that it must be done before the second render process starts (memory), so
  // it keeps its share.
  const run = startPagefind({ snapshot, count, outDir: fullTextDir, maxFragments, previous }, oneRenderChunk(count));
  fullText = { run, settled: settle(run.result) };
}

let render: RenderStage | undefined;
/** Removes a folder a stage that was just ended may still be writing to (it stops within moments). */
const removeStageDir = (dir: string) => rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });

function fail(message: string, code = 1): never {
  render?.cancelEarly();
  for (const stage of [highlighting, fullText?.run, indexing, recordFiles]) stage?.kill();
  for (const dir of [fullTextDir, indexDir, recordsDir]) removeStageDir(dir);
  memory.stop();
  progress.warn(message);
  process.exit(code);
}

// 5-6. The index stage (the message index) and the record files (JSON twins, short links) run in child
// processes, each into a folder of its own merged into the site after the render. For a catalog of
// up to one render chunk they start as soon as the snapshot is written, at a lower priority: on what
// CPU highlighting leaves, then beside the one render process (the record files write the short links
// once the render has written their template). With a larger catalog, memory decides: both start once
// the full-text index is done (see `later` below).
const indexDir = `${outDir}.index`;
const recordsDir = `${outDir}.records`;
let indexing: ReturnType<typeof startIndex> | undefined;
let recordFiles: ReturnType<typeof startRecordFiles> | undefined;
let recordsDone = 0;
let showRecordsDone = false;
function runIndexStage(snapshot: string, background: boolean) {
  indexing = startIndex({ snapshot, outDir: indexDir }, background);
  // Awaited after the render.
  return settle(indexing.result);
}
function runRecordFiles(snapshot: string, chunks: number, background: boolean) {
  const templateSites = [...Array.from({ length: chunks }, (_, index) => renderSiteDir({ index })), stagingDir];
  recordFiles = startRecordFiles({ snapshot, outDir: recordsDir, templateSites }, background, (n) => {
    recordsDone = n;
    if (showRecordsDone) progress.update(n);
  });
  return settle(recordFiles.result);
}
let besideStages: { indexed: Promise<Settled<IndexResult>>; recordFiles: Promise<Settled<RecordFilesResult>> } | undefined;
function startBesideStages(snapshot: string, chunks: number): void {
  besideStages = { indexed: runIndexStage(snapshot, true), recordFiles: runRecordFiles(snapshot, chunks, true) };
}

// 1-3. Validate and derive in a child process (scripts/lib/prepare.ts); highlight in another
// (scripts/lib/highlight-stage.ts), which reads the code blocks from the snapshot: beside derive up to
// one render chunk, after it above (see startHighlight).
const snapshotDir = join(cacheDir, 'snapshots');

// 4. The render process of a catalog of one chunk starts now: Astro starts and bundles the site on the
// core that validation leaves idle, then waits for the snapshot and the highlighting (it ends at once
// when the catalog turns out to need more chunks). Which pages the published site can lend is
// handed to it (src/catalog/page-cache.ts).
const reuse = reuseEnv(published, cacheDir);
render = new RenderStage({
  outDir: stagingDir,
  parallel: workers,
  cacheDir: join(cacheDir, 'astro'),
  logDir: resolve('.errdex/logs'),
  env: { ...process.env, ...reuse, ERRDEX_CACHE_DIR: cacheDir, ERRDEX_SKIP_INVALID: skipReport ? '1' : '0' },
  onPages: (n) => progress.update(n),
});
render.startEarly({ index: 0, count: 1, ...snapshotFiles(snapshotDir) });
/** Shows and measures what a child stage reports. */
function onStageEvent(e: Exclude<PrepareEvent, { type: 'done' | 'invalid' }>): void {
  if (e.type === 'stage') progress.stage(e.name);
  else if (e.type === 'count') progress.count(e.total, e.unit);
  else if (e.type === 'update') progress.update(e.done);
  else if (e.type === 'warn') progress.warn(e.text);
  else if (e.type === 'end') endStage(e.name, e.summary, e.items, e.unit, e.output);
  else if (e.type === 'snapshot') {
    // Above one render chunk, Pagefind (2 GB at 100k records) does not fit beside validation's process
    // and a highlight stage begun early: it starts when validation's process has ended.
    if (highlighting && !oneRenderChunk(e.records)) fullTextLater = true;
    else startFullText(e.snapshot, e.records);
    if (oneRenderChunk(e.records)) {
      if (highlighting) highlighting.snapshotReady();
      else startHighlight(e.snapshot, 'derive');
      startBesideStages(e.snapshot, e.chunks);
    }
  }
}
let fullTextLater = false;
let highlightEnded = false;
// 3. Highlighting reads the code blocks from the snapshot. Up to one render chunk it starts as soon as
// the snapshot is written, beside the derive stage (the related errors, which the render needs and
// highlighting does not); its progress is shown once derive has ended. A larger catalog's derive stage
// holds too much memory to share with Pagefind and highlighting both (2.7 GB at 100k records). Large
// catalog files (EARLY_HIGHLIGHT_BYTES) are highlighted as they are from the build's start, on the core
// validation leaves idle, and the valid records' blocks checked once the snapshot is there
// (scripts/lib/highlight-stage.ts); the full-text index then waits for validation's process to end.
let highlighting: ReturnType<typeof runHighlight> | undefined;
let highlightDone: Promise<Settled<void>> | undefined;
const heldHighlightEvents: HighlightEvent[] = [];
let deriving = true;
function startHighlight(snapshot: string, begun: 'validation' | 'derive' | null): void {
  const early = begun === 'validation' ? { catalogRoot: catalogPath() } : {};
  // Begun early, at the lower priority: validation and derive keep their core, and then Pagefind
  // (which the second render process waits for) gets its share; highlighting takes the rest.
  highlighting = runHighlight({ snapshot, file: highlightCacheFile(), workers, refresh: !useCache, ...early }, begun === 'validation', (e) => {
    // Its time is counted from when derive ended: the summary says that it began earlier.
    const event = begun && e.type === 'end' ? { ...e, summary: `${e.summary}; begun beside ${begun}` } : e;
    if (deriving) heldHighlightEvents.push(event);
    else onStageEvent(event);
  });
  highlightDone = settle(highlighting.done);
}
if (catalogBytes(catalogPath()) > EARLY_HIGHLIGHT_BYTES) startHighlight(snapshotFiles(snapshotDir).snapshot, 'validation');
let prepared;
try {
  prepared = await runPrepare({ skipReport, workers, chunks: { explicit: Boolean(process.env.ERRDEX_WORKERS), single: SINGLE_CHUNK_RECORDS, size: CHUNK_RECORDS }, snapshotDir }, onStageEvent);
} catch (e) {
  fail(`${(e as Error).message}\n\nNothing was built; ${displayPath(outDir)} is unchanged.`);
}
if (!prepared) fail(`\nNothing was built; ${displayPath(outDir)} is unchanged. Fix the catalog, or build the valid records with --skip-invalid.`);
const { records, chunks } = prepared;
render.openCatalog(chunks);
if (fullTextLater) startFullText(chunks[0]!.snapshot, records);
if (!fullText) abandon('The validate stage wrote no snapshot of the catalog.');
const fullTextRun = fullText;
// Above one render chunk, memory decides what runs together (at 100k records a render process about
// 1.4 GB, 2 at a time; Pagefind 2 GB; the index stage 1.5 GB; the record files 0.4 GB). When the
// full-text index is done, the record files start, at the lower priority, and the index stage: beside
// what is left of highlighting or beside the first render process, never beside two (see laneReady).
const later: { indexed?: Promise<Settled<IndexResult>>; recordFiles?: Promise<Settled<RecordFilesResult>>; indexBeside?: string; recordFilesBeside?: string } = {};
const recordFilesLater = () => {
  later.recordFilesBeside ??= highlighting && !highlightEnded ? 'highlighting and the render' : 'the render';
  return (later.recordFiles ??= runRecordFiles(chunks[0]!.snapshot, chunks.length, true));
};
const indexLater = () => {
  later.indexBeside ??= highlighting && !highlightEnded ? 'highlighting and the record files' : 'the render and the record files';
  return (later.indexed ??= runIndexStage(chunks[0]!.snapshot, false));
};
if (!oneRenderChunk(records)) {
  void fullTextRun.settled.then(() => {
    recordFilesLater();
    void indexLater();
  });
}
deriving = false;
for (const e of heldHighlightEvents.splice(0)) onStageEvent(e);
if (!highlightDone) startHighlight(chunks[0]!.snapshot, null);
else if (!oneRenderChunk(records)) highlighting!.snapshotReady();
const highlighted = await highlightDone!;
highlightEnded = true;
if (!highlighted.ok) fail(`${highlighted.e.message}\n\nNothing was built; ${displayPath(outDir)} is unchanged.`);

function abandon(message: string): never {
  removeStageDir(stagingDir);
  fail(`${message}\n\n${displayPath(outDir)} is unchanged.`);
}

// 4. Render
progress.stage('render');
// Above one render chunk, the render processes, Pagefind and the index stage would not all fit in
// memory together: the first render process starts now (after the index stage, if that is running),
// the second once the full-text index and then the index stage are done.
let waitedForIndexes = 0;
const laneReady = (lane: number): Promise<unknown> | undefined => {
  if (oneRenderChunk(records)) return undefined;
  if (lane === 0) return later.indexed;
  const waitStarted = performance.now();
  return fullTextRun.settled.then(indexLater).then(() => (waitedForIndexes = (performance.now() - waitStarted) / 1000));
};
// The progress counts the error pages against the records (the site-wide pages are counted in the
// summary); when pages can be reused from the published site, how many will be rendered is only known
// as the render goes.
if (Object.keys(reuse).length === 0) progress.count(records, 'error pages');
let rendered;
try {
  rendered = await render.render(chunks, { ready: laneReady });
  // The files the render processes left out are the published site's, unchanged.
  linkReused(rendered.pages.reused, outDir, stagingDir);
} catch (e) {
  abandon(`${(e as Error).message}\n\nThe render stage failed.`);
}
endStage(
  'render',
  `${formatCount(records)} error pages: ${formatCount(rendered.rendered)} pages rendered, ${formatCount(rendered.pages.reused.length)} unchanged` +
    (chunks.length > 1 ? ` (${chunks.length} processes, ${Math.min(workers, chunks.length)} at a time)` : '') +
    (waitedForIndexes >= 0.1 ? `, the second started after ${waitedForIndexes.toFixed(1)} s waiting for the full-text and message indexes` : ''),
  rendered.rendered + rendered.pages.reused.length,
  'pages',
);

// What ran beside the render, for the summaries.
const duringRender = { recordFiles: later.recordFiles !== undefined };
const indexed = besideStages?.indexed ?? indexLater();
const recordFilesWritten = besideStages?.recordFiles ?? recordFilesLater();

// 5. Record files: wait for them, then merge them into the site.
progress.stage('record files');
progress.count(records, 'records');
progress.update(recordsDone);
showRecordsDone = true;
// Without the template the record files stage would wait for it for ever.
const noTemplate = missingTemplate(stagingDir);
if (noTemplate) abandon(noTemplate);
const written = await recordFilesWritten;
if (!written.ok) abandon(`${written.e.message}\n\nThe record files stage failed.`);
try {
  mergeRecordFiles(recordsDir, stagingDir);
} catch (e) {
  abandon(`${(e as Error).message}\n\nThe record files stage failed.`);
}
endStage(
  'record files',
  `${formatCount(written.value.files)} JSON twins and short links` +
    (besideStages ? ` (${written.seconds.toFixed(1)} s, beside highlighting and the render)` : duringRender.recordFiles ? ` (${written.seconds.toFixed(1)} s, beside ${later.recordFilesBeside})` : ''),
  written.value.records,
  'records',
  { files: written.value.files, bytes: written.value.bytes },
);

// 6. Index: wait for it, then merge its files into the site.
progress.stage('index');
const index = await indexed;
const ft = await fullTextRun.settled;
rmSync(snapshotDir, { recursive: true, force: true });
if (!index.ok) abandon(`${index.e.message}\n\nThe index stage failed.`);
if (!ft.ok) abandon(`${ft.e.message}\n\nThe full-text index failed.`);
const indexResult = index.value;
for (const line of indexResult.ledger.report) console.log(line);
for (const w of indexResult.warnings) progress.warn(w);
const bundleWarning = largeBundleWarning(ft.value, maxFragments);
if (bundleWarning) progress.warn(bundleWarning);
for (const dir of [indexDir, fullTextDir]) {
  mergeInto(dir, stagingDir);
  rmSync(dir, { recursive: true, force: true });
}
endStage(
  'index',
  `${indexResult.summary} (${index.seconds.toFixed(1)} s, beside ${besideStages ? 'highlighting and the render' : (later.indexBeside ?? 'the record files')}); ` +
    `full-text index of ${formatCount(indexResult.records)} pages` +
    (ft.value.parts > 1 ? ` in ${ft.value.parts} parts${ft.value.reused ? ` (${ft.value.reused} unchanged)` : ''}` : ft.value.reused ? ' (unchanged)' : '') +
    `, ${describeFragments(ft.value, maxFragments)} ` +
    `(${ft.seconds.toFixed(1)} s, beside highlighting and the render)`,
  indexResult.records,
  'records',
);

// 7. Publish
progress.stage('publish');
// Until the new keys are written, no record of keys may describe the folder being replaced.
forgetPageManifest(cacheDir);
publish(stagingDir, outDir);
writePageManifest(cacheDir, { code, site: outDir, files: { ...rendered.pages.keys, ...ft.value.keys } });
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
  const reportStarted = performance.now();
  const site = treeSize(outDir);
  const render = stages.find((st) => st.name === 'render')!;
  [render.outputFiles, render.outputBytes] = [site.files, site.bytes];
  const report: BuildReport = {
    catalog: prepared.root,
    records,
    siteFiles: site.files,
    siteBytes: site.bytes,
    seconds: buildSeconds,
    // The walk's own time: a benchmark leaves it out of the build process's time.
    reportSeconds: (performance.now() - reportStarted) / 1000,
    peakRssBytes: Math.max(...stages.map((s) => s.peakRssBytes)),
    stages,
  };
  mkdirSync(dirname(reportFile), { recursive: true });
  writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
}
