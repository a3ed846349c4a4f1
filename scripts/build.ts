/**
 * `npm run build [-- --skip-invalid[=report.json]]`: validate, render, index, then publish.
 *
 * Stages:
 *  1. validate the catalog; on any problem print them all and stop (dist/ untouched), unless
 *     --skip-invalid, which writes every skipped record and its reasons to a report file;
 *  2. render pages and data files with Astro into a staging folder;
 *  3. index: the paste matcher's message index and Pagefind's full-text index (scripts/lib/search-index.ts);
 *  4. swap the staging folder in as dist/ (so a failed build never leaves half a site);
 *  5. write the updated URL ledger beside the catalog (unless --no-ledger-update), after publishing,
 *     so that it only ever records URLs that were published.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { siteConfig } from '../errdex.config.mjs';
import { catalogReport, loadCatalog } from '../src/catalog/catalog.ts';
import { ledgerPlanFor } from '../src/catalog/derive/index.ts';
import { ledgerPath, ledgerReport, serializeLedger } from '../src/catalog/ledger.ts';
import { catalogPath, displayPath } from '../src/catalog/load.ts';
import { formatProblem } from '../src/catalog/problems.ts';
import { redirectsFile } from '../src/lib/redirects.ts';
import { errorPath, shortPath } from '../src/lib/urls.ts';
import { Progress } from './lib/progress.ts';
import { writeMessageIndex, writePagefindIndex } from './lib/search-index.ts';

const args = process.argv.slice(2);
const skipArg = args.find((a) => a === '--skip-invalid' || a.startsWith('--skip-invalid='));
const skipReport = skipArg ? (skipArg.includes('=') ? skipArg.slice(skipArg.indexOf('=') + 1) : 'skipped-records.json') : null;
const updateLedger = !args.includes('--no-ledger-update');
const outDir = resolve(process.env.ERRDEX_DIST || 'dist');
const stagingDir = `${outDir}.staging`;

const progress = new Progress(5);

// 1. Validate
progress.stage('validate');
const catalog = loadCatalog(catalogPath());
// A broken ledger is never skipped: building past it would forget every URL published so far.
if (catalog.problems.some((p) => p.file === catalog.ledger.file)) {
  console.error(catalogReport(catalog));
  console.error(`\nNothing was built: ${catalog.ledger.file} (the URL ledger) has problems. Restore it from version control.`);
  process.exit(1);
}
if (catalog.problems.length > 0) {
  if (!skipReport) {
    console.error(catalogReport(catalog));
    console.error(`\nNothing was built; ${displayPath(outDir)} is unchanged. Fix the catalog, or build the valid records with --skip-invalid.`);
    process.exit(1);
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
  console.warn(
    `Skipped ${catalog.skipped.length} invalid record${catalog.skipped.length === 1 ? '' : 's'} of ${catalog.total} ` +
      `(${catalog.problems.length} problems); every one and its reasons are in ${skipReport}.`,
  );
}
progress.done(`${catalog.entries.length} records valid`);
const plan = ledgerPlanFor(catalog);
for (const line of ledgerReport(plan, catalog.ledger.exists)) console.log(line);

// 2. Render
progress.stage('render');
rmSync(stagingDir, { recursive: true, force: true });
mkdirSync(stagingDir, { recursive: true });
const astro = spawnSync(process.execPath, [resolve('node_modules/astro/bin/astro.mjs'), 'build', '--silent'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    ASTRO_TELEMETRY_DISABLED: '1',
    ERRDEX_OUT_DIR: stagingDir,
    ERRDEX_SKIP_INVALID: skipReport ? '1' : '0',
  },
});
if (astro.status !== 0) {
  rmSync(stagingDir, { recursive: true, force: true });
  console.error(`\nThe render stage failed; ${displayPath(outDir)} is unchanged.`);
  process.exit(astro.status ?? 1);
}
writeFileSync(
  join(stagingDir, '_redirects'),
  redirectsFile(
    plan.redirects,
    catalog.entries.map((e) => ({ from: shortPath(e.record.id), to: errorPath(e.record) })),
    siteConfig.basePath,
  ),
);
progress.done(`${catalog.entries.length} error pages`);

// 3. Index for search
progress.stage('index');
try {
  const records = catalog.entries.map((e) => e.record);
  const messageIndex = writeMessageIndex(records, stagingDir);
  for (const u of messageIndex.unindexed) {
    console.warn(`Record ${u.id}: its message ${JSON.stringify(u.template)} has no literal word to find it by when pasted; full-text search still finds it.`);
  }
  await writePagefindIndex(records, stagingDir);
  progress.done(`message index in ${messageIndex.manifest.shards} shards; full-text index of ${records.length} pages`);
} catch (e) {
  rmSync(stagingDir, { recursive: true, force: true });
  console.error(`\nThe index stage failed; ${displayPath(outDir)} is unchanged.\n${(e as Error).message}`);
  process.exit(1);
}

// 4. Publish
progress.stage('publish');
const previous = `${outDir}.previous`;
rmSync(previous, { recursive: true, force: true });
if (existsSync(outDir)) renameSync(outDir, previous);
try {
  renameSync(stagingDir, outDir);
} catch (e) {
  // Put the previous site back rather than leave no site at all.
  if (existsSync(previous) && !existsSync(outDir)) renameSync(previous, outDir);
  throw e;
}
rmSync(previous, { recursive: true, force: true });
progress.done(displayPath(outDir));

// 5. Ledger
progress.stage('ledger');
const ledgerFile = ledgerPath(catalog.root);
const ledgerText = serializeLedger(plan.ledger);
const unchanged = existsSync(ledgerFile) && readFileSync(ledgerFile, 'utf8') === ledgerText;
if (unchanged) progress.done(`${displayPath(ledgerFile)} unchanged`);
else if (!updateLedger) progress.done(`${displayPath(ledgerFile)} not updated (--no-ledger-update)`);
else {
  writeFileSync(ledgerFile, ledgerText);
  progress.done(`${displayPath(ledgerFile)} updated: commit it with the catalog`);
}
