/**
 * `npm run build [-- options]`: validate, highlight, render, then publish.
 *
 * Stages (each reports its time, counts and memory; see scripts/lib/stages.ts):
 *  1. validate the catalog; on any problem print them all and stop (dist/ untouched), unless
 *     --skip-invalid, which writes every skipped record and its reasons to a report file;
 *  2. highlight every code block not yet in the content-addressed highlight cache, on all cores;
 *  3. render pages and data files with Astro into a staging folder, one process per core, unchanged
 *     pages copied from Astro's incremental-build cache;
 *  4. swap the staging folder in as dist/ (so a failed build never leaves half a site); the previous
 *     site is deleted in the background.
 *
 * Options:
 *   --skip-invalid[=report.json]  build the valid records; list every skipped one and why
 *   --no-cache                    highlight and render everything, ignoring the build cache (and refreshing it)
 *   --report=FILE                 write each stage's time, memory and output as JSON (used by npm run bench)
 *
 * Environment: ERRDEX_DATA (catalog), ERRDEX_DIST (output folder), ERRDEX_CACHE_DIR (build cache,
 * default .errdex/cache), ERRDEX_WORKERS (render processes and highlight threads; default one per core,
 * and one render process for a catalog under 1,000 records).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { catalogReport, loadCatalog, type Catalog } from '../src/catalog/catalog.ts';
import { catalogPath, displayPath } from '../src/catalog/load.ts';
import { formatProblem } from '../src/catalog/problems.ts';
import { buildCacheDir, highlightCacheDir } from '../src/highlight/cache.ts';
import { renderShards } from './lib/astro-render.ts';
import { publish } from './lib/publish.ts';
import { preHighlight, workerCount } from './lib/highlight-pool.ts';
import { formatCount, Progress } from './lib/progress.ts';
import { MemorySampler, treeSize, type BuildReport, type StageResult } from './lib/stages.ts';

const args = process.argv.slice(2);
const option = (name: string): string | true | undefined => {
  const a = args.find((x) => x === `--${name}` || x.startsWith(`--${name}=`));
  return a === undefined ? undefined : a.includes('=') ? a.slice(a.indexOf('=') + 1) : true;
};
const known = /^--(skip-invalid|no-cache|report)(=|$)/;
const unknown = args.filter((a) => !known.test(a));
if (unknown.length > 0) {
  console.error(`Unknown option${unknown.length > 1 ? 's' : ''}: ${unknown.join(' ')}. Options: --skip-invalid[=FILE], --no-cache, --report=FILE.`);
  process.exit(2);
}
const skipArg = option('skip-invalid');
const skipReport = skipArg === undefined ? null : skipArg === true ? 'skipped-records.json' : skipArg;
const useCache = option('no-cache') === undefined;
const reportArg = option('report');
const reportFile = typeof reportArg === 'string' ? resolve(reportArg) : null;
const outDir = resolve(process.env.ERRDEX_DIST || 'dist');
const stagingDir = `${outDir}.staging`;
const cacheDir = buildCacheDir();
const workers = workerCount();

const progress = new Progress(4);
const memory = new MemorySampler();
const stages: StageResult[] = [];
const buildStarted = performance.now();

/** Ends a stage: prints its summary and records its measurements. */
function endStage(name: string, summary: string, items: number, unit: string, output?: { files: number; bytes: number }): void {
  const seconds = progress.end(summary);
  stages.push({ name, seconds, items, unit, peakRssBytes: memory.reset(), outputFiles: output?.files ?? null, outputBytes: output?.bytes ?? null, summary });
}

function fail(message: string, code = 1): never {
  memory.stop();
  progress.warn(message);
  process.exit(code);
}

// 1. Validate
progress.stage('validate');
let catalog: Catalog | null = loadCatalog(catalogPath());
const records = catalog.entries.length;
const catalogRoot = catalog.root;
if (catalog.problems.length > 0) {
  if (!skipReport) {
    console.error(catalogReport(catalog));
    fail(`\nNothing was built; ${displayPath(outDir)} is unchanged. Fix the catalog, or build the valid records with --skip-invalid.`);
  }
  writeFileSync(
    skipReport,
    `${JSON.stringify(
      {
        catalog: displayPath(catalog.root),
        skipped: catalog.skipped.map((s) => ({ file: s.file, line: s.line, id: s.id, reasons: s.problems.map(formatProblem), record: s.text })),
        problems: catalog.problems.map(formatProblem),
      },
      null,
      2,
    )}\n`,
  );
  progress.warn(
    `Skipped ${catalog.skipped.length} invalid record${catalog.skipped.length === 1 ? '' : 's'} of ${catalog.total} ` +
      `(${catalog.problems.length} problems); every one and its reasons are in ${skipReport}.`,
  );
}
endStage('validate', `${formatCount(records)} records valid`, catalog.total, 'records');

// 2. Highlight
progress.stage('highlight');
const env: NodeJS.ProcessEnv = { ...process.env, ERRDEX_CACHE_DIR: cacheDir, ERRDEX_SKIP_INVALID: skipReport ? '1' : '0' };
const hl = await preHighlight(catalog.entries, {
  dir: highlightCacheDir(),
  workers,
  refresh: !useCache,
  onStart: (n) => progress.count(n, 'blocks'),
  onProgress: (n) => progress.update(n),
});
endStage(
  'highlight',
  `${formatCount(hl.unique)} code blocks: ${formatCount(hl.highlighted)} highlighted${hl.workers > 1 ? ` on ${hl.workers} threads` : ''}, ${formatCount(hl.cached)} cached` +
    (hl.pruned > 0 ? `, ${formatCount(hl.pruned)} stale pruned` : ''),
  hl.highlighted,
  'blocks',
  { files: hl.highlighted, bytes: hl.bytes },
);
// The render processes read the catalog themselves: let this process's copy go (npm run build
// exposes the collector, so that the memory is handed back before the render starts).
catalog = null;
(globalThis as { gc?: () => void }).gc?.();

// 3. Render
progress.stage('render');
// A small catalog renders in one process: a second Astro start-up would cost more than it saves.
const shards = process.env.ERRDEX_WORKERS ? workers : Math.max(1, Math.min(workers, Math.ceil(records / 500)));
// A page and a JSON twin per record, and the few pages that every shard renders.
progress.count(records * 2, 'files');
let rendered;
try {
  rendered = await renderShards({
    outDir: stagingDir,
    shards,
    cacheDir: join(cacheDir, 'astro'),
    logDir: resolve('.errdex/logs'),
    env,
    force: !useCache,
    onFile: (n) => progress.update(n),
  });
} catch (e) {
  fail(`${(e as Error).message}\n\nThe render stage failed; ${displayPath(outDir)} is unchanged.`);
}
const site = reportFile ? treeSize(stagingDir) : undefined;
endStage(
  'render',
  `${formatCount(records)} error pages and data files: ${formatCount(rendered.rendered)} files rendered, ${formatCount(rendered.reused)} unchanged${shards > 1 ? ` (${shards} processes)` : ''}`,
  rendered.rendered + rendered.reused,
  'files',
  site,
);

// 4. Publish
progress.stage('publish');
publish(stagingDir, outDir);
endStage('publish', displayPath(outDir), 0, '');
memory.stop();

if (reportFile) {
  const report: BuildReport = {
    catalog: displayPath(catalogRoot),
    records,
    siteFiles: site?.files ?? 0,
    siteBytes: site?.bytes ?? 0,
    seconds: (performance.now() - buildStarted) / 1000,
    peakRssBytes: Math.max(...stages.map((s) => s.peakRssBytes)),
    stages,
  };
  mkdirSync(dirname(reportFile), { recursive: true });
  writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
}
