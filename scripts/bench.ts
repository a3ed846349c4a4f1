/**
 * `npm run bench [-- --sizes 1000,10000 --profile rich|lean --no-baseline --no-incremental --edit [--verify-each]]`:
 * the build benchmark.
 *
 * For each size: generates a synthetic catalog (bench/lib/synthetic.ts; the rich profile, shaped like
 * real records, unless `--profile lean`), runs the full errdex build
 * cold (empty cache), again with one record changed (incremental; with `--edit`, each of five edits in
 * turn, the sites compared with cold builds: editRuns), and the plain baseline (a minimal
 * Astro 7 site with Shiki's <Code>, then the Pagefind CLI; bench/lib/baseline.ts) on the same
 * records, in the same run. Reports per stage wall time, items/s, peak RSS of the whole process tree,
 * output files and bytes, and errdex's times as ratios of the baseline's. The stages come from the
 * build's own report (`--report`), so stages added to the build appear here by themselves.
 *
 * Results: printed, and written to .errdex/bench/results.md and results.json.
 *
 * No timed build runs soon after a large deletion (see `settle`): the bench moves what it removes to a
 * trash folder, emptied at its end, and waits out the deletions it cannot avoid.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { loadCatalog } from '../src/catalog/catalog.ts';
import { writeBaselineProject } from '../bench/lib/baseline.ts';
import { generateCatalog } from '../bench/lib/generate.ts';
import { PROFILES, type Profile } from '../bench/lib/synthetic.ts';
import { applyEdit, EDITS, type Edit } from '../bench/lib/edits.ts';
import { formatCount, formatDuration } from '../src/build/progress.ts';
import { treeSize, type BuildReport } from '../src/build/measure.ts';
import { awaitSiteDeletion, compareSites, discard, emptyTrash, errdexBuild, runMeasured, settle, type Built, type Measured } from '../bench/lib/run.ts';
import { refuseOption, scriptOptions } from '../src/util/script-options.ts';

const USAGE = `Usage: npm run bench -- [--sizes 1000,10000] [--profile ${PROFILES.join('|')}] [--no-baseline] [--no-incremental] [--edit [--verify-each]]

The build benchmark. For each size (record counts separated by commas, a k suffix for thousands:
10k; default 1000,10000), a synthetic catalog of that profile (default rich) built cold, then:
  --no-incremental   no build with one record changed after the cold one
  --edit             instead of that, each of five edits in turn, the last edit's site compared with a cold build
  --verify-each      with --edit, every edit's site compared with a cold build
  --no-baseline      no plain baseline (Astro and Pagefind alone) on the same records
Writes .errdex/bench/results.md and results.json.`;
const { values: options } = scriptOptions(
  {
    sizes: { type: 'string', default: '1000,10000' },
    profile: { type: 'string', default: 'rich' },
    'no-baseline': { type: 'boolean', default: false },
    'no-incremental': { type: 'boolean', default: false },
    edit: { type: 'boolean', default: false },
    'verify-each': { type: 'boolean', default: false },
  },
  USAGE,
);
const profile = options.profile as Profile;
if (!PROFILES.includes(profile)) refuseOption(`--profile takes one of ${PROFILES.join(', ')}`, USAGE);
const sizes = options.sizes.split(',').map((x) => Number(x.replace(/k$/i, '000')));
if (sizes.some((n) => !Number.isInteger(n) || n <= 0)) refuseOption('--sizes takes record counts separated by commas, e.g. --sizes 1000,10000,100000', USAGE);

const BENCH = resolve('.errdex/bench');

const node = process.execPath;
const astro = resolve('node_modules/astro/bin/astro.mjs');
const pagefind = resolve('node_modules/pagefind/lib/runner/bin.cjs');

const mb = (b: number): string => `${formatCount(Math.round(b / 1e6))} MB`;
const s = (x: number): string => `${x.toFixed(1)} s`;


/** One edit's incremental build, and how its site compares with a cold build of the same catalog (null: not compared). */
interface EditResult {
  edit: Edit;
  what: string;
  build: Built;
  identical: { same: boolean; differing: string[]; files: number } | null;
}

interface SizeResult {
  records: number;
  edits?: EditResult[];
  cold: Built;
  incremental?: Built;
  baseline?: { astro: Measured & { files: number; bytes: number }; pagefind: Measured };
}

/** Changes one record's documentation in the catalog (a new sentence), as an editor would. */
function changeOneRecord(catalogDir: string, records: number): void {
  const file = join(catalogDir, 'part-000.jsonl');
  const lines = readFileSync(file, 'utf8').split('\n');
  const i = Math.floor(Math.min(records, lines.length - 1) / 2);
  const wrapped = JSON.parse(lines[i]!);
  wrapped.record.documentation += ` Edited for the incremental benchmark at ${new Date().toISOString()}.`;
  lines[i] = JSON.stringify(wrapped);
  writeFileSync(file, lines.join('\n'));
}

async function benchSize(records: number): Promise<SizeResult> {
  const dir = join(BENCH, `${profile}-${records}`);
  const catalog = join(dir, 'catalog');
  const cache = join(dir, 'cache');
  const dist = join(dir, 'dist');
  console.log(`\n## ${formatCount(records)} records\n`);
  discard(catalog);
  await generateCatalog(catalog, records, 1, profile);
  discard(cache);
  discard(dist);

  // The baseline first: the incremental build deletes the site it replaces, and nothing may run
  // soon after that (settle).
  let baseline: SizeResult['baseline'];
  if (!options['no-baseline']) {
    console.log('baseline: plain Astro with <Code>, then the Pagefind CLI…');
    const project = join(dir, 'baseline');
    discard(project);
    await writeBaselineProject(project, loadCatalog(catalog).entries);
    await settle();
    const a = await runMeasured(node, [astro, 'build', '--silent'], { cwd: project, env: { ASTRO_TELEMETRY_DISABLED: '1' } });
    if (a.status !== 0) throw new Error(`baseline astro build failed:\n${a.output.slice(-3000)}`);
    const size = treeSize(join(project, 'dist'));
    console.log(`  astro build: ${s(a.seconds)}, peak ${mb(a.peakRssBytes)}, ${s(a.cpuSeconds)} of CPU, ${formatCount(size.files)} files`);
    const p = await runMeasured(node, [pagefind, '--site', join(project, 'dist')], { cwd: project });
    if (p.status !== 0) throw new Error(`baseline pagefind failed:\n${p.output.slice(-3000)}`);
    console.log(`  pagefind: ${s(p.seconds)}, peak ${mb(p.peakRssBytes)}, ${s(p.cpuSeconds)} of CPU`);
    baseline = { astro: { ...a, ...size, output: '' }, pagefind: { ...p, output: '' } };
    discard(project);
  }

  console.log('\nerrdex, cold (empty cache):');
  await settle();
  const result: SizeResult = { records, cold: await errdexBuild(catalog, dist, cache, join(dir, 'report-cold.json')), baseline };

  if (options.edit) result.edits = await editRuns(dir, catalog, dist, cache);
  else if (!options['no-incremental']) {
    changeOneRecord(catalog, records);
    console.log('\nerrdex, one record changed:');
    await settle();
    result.incremental = await errdexBuild(catalog, dist, cache, join(dir, 'report-incremental.json'));
    await awaitSiteDeletion(dist);
  }
  discard(dist);
  return result;
}

/**
 * Each edit (bench/lib/edits.ts) in turn, each followed by an incremental build with the previous
 * build's cache, as a maintainer's edit loop runs (no waiting for the file system to settle between
 * them). The last edit's site, and with --verify-each every edit's, is compared with a cold build of
 * the same catalog (a copy taken before the incremental build wrote its URL ledger, built without
 * writing one, into fresh output and cache folders).
 */
async function editRuns(dir: string, catalog: string, dist: string, cache: string): Promise<EditResult[]> {
  const results: EditResult[] = [];
  for (const [round, edit] of EDITS.entries()) {
    const what = applyEdit(catalog, edit, `round ${round + 1}`);
    const copy = join(dir, `catalog-${edit}`);
    discard(copy);
    execFileSync('cp', ['-r', catalog, copy]);
    console.log(`\nerrdex, edited (${what}):`);
    const build = await errdexBuild(catalog, dist, cache, join(dir, `report-${edit}.json`));
    await awaitSiteDeletion(dist);
    let identical: EditResult['identical'] = null;
    if (options['verify-each'] || round === EDITS.length - 1) {
      const [coldDist, coldCache] = [join(dir, `dist-cold-${edit}`), join(dir, `cache-cold-${edit}`)];
      console.log(`\nerrdex, cold, the same catalog (to compare):`);
      await errdexBuild(copy, coldDist, coldCache, join(dir, `report-cold-${edit}.json`), ['--no-ledger-update']);
      identical = compareSites(dist, coldDist);
      console.log(identical.same ? `  identical: ${formatCount(identical.files)} files` : `  ${identical.differing.length} files differ: ${identical.differing.slice(0, 10).join(', ')}`);
      discard(coldDist);
      discard(coldCache);
    }
    discard(copy);
    results.push({ edit, what, build, identical });
  }
  return results;
}

function stageTable(r: BuildReport): string[] {
  const rows = ['| stage | wall time | items | items/s | peak RSS (whole build) | output |', '| --- | --- | --- | --- | --- | --- |'];
  for (const st of r.stages) {
    // A stage that ran beside another ends as soon as the build reaches it (its own time is in its summary): no rate.
    const rate = st.items > 0 && st.seconds >= 0.1 ? formatCount(Math.round(st.items / st.seconds)) : '';
    const out = st.outputBytes === null ? '' : st.outputFiles === null ? mb(st.outputBytes) : `${formatCount(st.outputFiles)} files, ${mb(st.outputBytes)}`;
    rows.push(`| ${st.name} | ${s(st.seconds)} | ${st.items ? `${formatCount(st.items)} ${st.unit}` : ''} | ${rate} | ${mb(st.peakRssBytes)} | ${out} |`);
  }
  return rows;
}

/** Each process of a build, by the script or program it runs: its CPU, its own peak memory, and when it ran. */
function processTable(b: Built): string[] {
  const rows = ['| process | count | CPU-seconds | own peak RSS | ran (s from the start) |', '| --- | ---: | ---: | ---: | --- |'];
  for (const p of b.processes) {
    if (p.cpuSeconds < 0.1) continue;
    rows.push(`| ${p.label} | ${p.processes} | ${p.cpuSeconds.toFixed(1)} | ${mb(p.peakRssBytes)} | ${p.from.toFixed(1)}–${p.to.toFixed(1)} |`);
  }
  return rows;
}

function markdown(results: SizeResult[]): string {
  const lines: string[] = [];
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  lines.push(`Machine: ${cpus().length} cores (${cpu}), ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Profile: ${profile}.`, '');
  lines.push(
    '| records | errdex cold | one record changed | peak RSS (cold) | baseline: astro | baseline: + pagefind | errdex / baseline astro | errdex / baseline astro+pagefind | CPU-seconds, errdex cold / baseline astro+pagefind |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const r of results) {
    const b = r.baseline;
    const withPf = b ? b.astro.seconds + b.pagefind.seconds : 0;
    lines.push(
      `| ${formatCount(r.records)} | ${s(r.cold.wallSeconds)} | ${r.incremental ? s(r.incremental.wallSeconds) : '—'} | ${mb(r.cold.treePeakRssBytes)} | ` +
        `${b ? `${s(b.astro.seconds)}, ${mb(b.astro.peakRssBytes)}` : '—'} | ${b ? `${s(withPf)}, pagefind ${mb(b.pagefind.peakRssBytes)}` : '—'} | ` +
        `${b ? `${(r.cold.wallSeconds / b.astro.seconds).toFixed(2)}×` : '—'} | ${b ? `${(r.cold.wallSeconds / withPf).toFixed(3)}×` : '—'} | ` +
        `${s(r.cold.cpuSeconds)} / ${b ? s(b.astro.cpuSeconds + b.pagefind.cpuSeconds) : '—'} |`,
    );
  }
  for (const r of results) {
    if (!r.edits) continue;
    lines.push('', `### ${formatCount(r.records)} records, edits (each an incremental build after the one before)`, '');
    lines.push('| edit | wall time | CPU-seconds | peak RSS | site identical to a cold build |', '| --- | --- | --- | --- | --- |');
    for (const e of r.edits) {
      const same = e.identical === null ? 'not compared' : e.identical.same ? `yes (${formatCount(e.identical.files)} files)` : `no: ${e.identical.differing.length} files differ (${e.identical.differing.slice(0, 3).join(', ')})`;
      lines.push(`| ${e.what} | ${s(e.build.wallSeconds)} | ${s(e.build.cpuSeconds)} | ${mb(e.build.treePeakRssBytes)} | ${same} |`);
    }
  }
  for (const r of results) {
    lines.push('', `### ${formatCount(r.records)} records, cold`, '', ...stageTable(r.cold), '', ...processTable(r.cold));
    lines.push('', `Site: ${formatCount(r.cold.siteFiles)} files, ${mb(r.cold.siteBytes)}.`);
    if (r.incremental) lines.push('', `### ${formatCount(r.records)} records, one record changed`, '', ...stageTable(r.incremental), '', ...processTable(r.incremental));
    for (const e of r.edits ?? []) lines.push('', `### ${formatCount(r.records)} records, ${e.what}`, '', ...stageTable(e.build), '', ...processTable(e.build));
  }
  return `${lines.join('\n')}\n`;
}

mkdirSync(BENCH, { recursive: true });
// Left by an interrupted run.
emptyTrash();
const results: SizeResult[] = [];
for (const n of sizes) results.push(await benchSize(n));
// Emptied once nothing is timed any more.
emptyTrash();
const md = markdown(results);
writeFileSync(join(BENCH, 'results.md'), md);
writeFileSync(join(BENCH, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(`\n${md}`);
console.log(`Written to ${join('.errdex/bench', 'results.md')} (${formatDuration(performance.now() / 1000)} in all).`);
