/**
 * `npm run build`, put together: the plan (src/build/plan.ts) decides the stages and their order,
 * the pipeline (src/build/pipeline.ts) runs them, each stage is one file under src/build/stages/.
 * Progress shows one line per stage with its own time (src/build/board.ts); `--report` writes each
 * stage's measurements (src/build/measure.ts). A failed stage ends the build with the output folder
 * as it was.
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { displayPath, listCatalogFiles } from '../catalog/load.ts';
import { Board } from './board.ts';
import { MemorySampler, treeSize, type BuildReport } from './measure.ts';
import { codeKey, publishedSite, reuseFiles } from './page-reuse.ts';
import { Pipeline, StageError, type Stage, type StageContext } from './pipeline.ts';
import { plan, STAGES, type StageName } from './plan.ts';
import { Progress } from './progress.ts';
import { RenderProcesses } from './render-processes.ts';
import { fullTextStage } from './stages/full-text.ts';
import { highlightStage } from './stages/highlight.ts';
import { ledger } from './stages/ledger.ts';
import { messageIndexStage } from './stages/message-index.ts';
import { checkRecordCount, OverBudget } from './stages/deploy-files.ts';
import { publishStage } from './stages/publish.ts';
import { recordFilesStage } from './stages/record-files.ts';
import { render, startRender } from './stages/render.ts';
import { derive, InvalidCatalog, validate } from './stages/validate.ts';
import type { BuildSettings, BuildState } from './state.ts';

const RUN: Record<StageName, (ctx: StageContext<BuildState>) => Promise<void>> = {
  validate,
  derive,
  highlight: highlightStage,
  render,
  'record-files': recordFilesStage,
  'message-index': messageIndexStage,
  'full-text': fullTextStage,
  publish: publishStage,
  ledger,
};

const LABELS: Record<StageName, string> = {
  validate: 'validate',
  derive: 'derive',
  highlight: 'highlight',
  render: 'render',
  'record-files': 'record files',
  'message-index': 'message index',
  'full-text': 'full-text index',
  publish: 'publish',
  ledger: 'ledger',
};

/** The build could not finish: its message, and the exit code. */
export class BuildFailure extends Error {}

/** The bytes of the catalog's files; 0 when they cannot be listed (validation says why). */
function catalogBytes(root: string): number {
  try {
    return listCatalogFiles(root).reduce((sum, f) => sum + statSync(f).size, 0);
  } catch {
    return 0;
  }
}

export async function runBuild(settings: BuildSettings): Promise<void> {
  const started = performance.now();
  const { outDir, cacheDir } = settings;
  const facts = { bytes: catalogBytes(settings.catalog), records: null };
  const machine = { cores: availableParallelism() };
  const memory = new MemorySampler();
  const board = new Board(STAGES, LABELS, new Progress(STAGES.length), () => memory.reset());
  const snapshots = join(cacheDir, 'snapshots');
  const dirs = { staging: `${outDir}.staging`, fullText: `${outDir}.pagefind`, messageIndex: `${outDir}.index`, recordFiles: `${outDir}.records`, snapshots };
  // What the published site holds that this build may link instead of making again (its error pages,
  // its full-text index's parts). Known before the catalog is read.
  const code = codeKey();
  const published = publishedSite({ cacheDir, code, force: !settings.useCache });
  const first = plan(facts, machine, settings.plan);
  const state: BuildState = {
    settings,
    plan: first,
    learnRecords: () => {},
    board,
    dirs,
    snapshot: join(snapshots, 'catalog.jsonl'),
    head: join(snapshots, 'head.json'),
    related: join(snapshots, 'related.jsonl'),
    published,
    code,
    render: new RenderProcesses({
      outDir: dirs.staging,
      parallel: first.workers,
      cacheDir,
      logDir: resolve('.errdex/logs'),
      reuse: reuseFiles(published, cacheDir),
      onPages: (n) => board.stage('render').update(n),
    }),
  };
  const stages: Stage<BuildState>[] = first.stages.map((st) => ({
    name: st.name,
    needs: st.needs,
    run: async (ctx) => {
      board.stage(st.name).begin();
      await RUN[st.name](ctx);
      // Once the records are counted: a catalog the --host cannot take stops here, before anything
      // else starts (the failed stage's own child process is ended with the others).
      if (st.name === 'validate') checkRecordCount(settings, state.plan.facts.records ?? 0);
    },
  }));
  const pipeline = new Pipeline(state, stages);
  // Validation has counted the records: the plan made again, for the stages not yet begun.
  state.learnRecords = (records) => {
    state.plan = plan({ ...facts, records }, machine, settings.plan);
    pipeline.replan(new Map(state.plan.stages.map((st) => [st.name, st.needs])));
  };
  let failed = false;
  pipeline.onCleanup(() => {
    memory.stop();
    if (!failed) return;
    state.render.killAll();
    // A stage just ended may still be writing to its folder for a moment.
    for (const dir of [dirs.staging, dirs.fullText, dirs.messageIndex, dirs.recordFiles]) rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  });
  const interrupt = () => pipeline.cancel(new StageError('build', new Error('Interrupted.')));
  process.once('SIGINT', interrupt).once('SIGTERM', interrupt);
  startRender(state);
  try {
    await pipeline.run();
  } catch (e) {
    failed = true;
    throw new BuildFailure(failureMessage(e as StageError, outDir));
  } finally {
    process.off('SIGINT', interrupt).off('SIGTERM', interrupt);
  }
  if (settings.reportFile) writeReport(settings.reportFile, state, (performance.now() - started) / 1000);
}

function failureMessage(e: StageError, outDir: string): string {
  const unchanged = `${displayPath(outDir)} is unchanged`;
  if (e.cause instanceof InvalidCatalog) return `\nNothing was built; ${unchanged}. ${e.message}`;
  if (e.cause instanceof OverBudget) return `\n${e.cause.message}\n\n${displayPath(outDir)} is unchanged.`;
  if (['validate', 'derive', 'highlight'].includes(e.stage)) return `${e.message}\n\nNothing was built; ${unchanged}.`;
  return `${e.message}\n\nThe ${LABELS[e.stage as StageName] ?? e.stage} stage failed; ${unchanged}.`;
}

/** The measurements, after the build's clock stopped: walking a large site takes seconds. */
function writeReport(file: string, state: BuildState, buildSeconds: number): void {
  const started = performance.now();
  const site = treeSize(state.settings.outDir);
  const stages = state.board.results;
  const render = stages.find((st) => st.name === 'render')!;
  [render.outputFiles, render.outputBytes] = [site.files, site.bytes];
  const report: BuildReport = {
    catalog: state.catalog!.root,
    records: state.catalog!.records,
    siteFiles: site.files,
    siteBytes: site.bytes,
    seconds: buildSeconds,
    reportSeconds: (performance.now() - started) / 1000,
    peakRssBytes: Math.max(...stages.map((s) => s.peakRssBytes)),
    stages,
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
