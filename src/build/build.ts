/**
 * `npm run build`, put together: the plan (src/build/plan.ts) decides the stages and their order,
 * the pipeline (src/build/pipeline.ts) runs them, each stage is one file under src/build/stages/.
 * Progress shows one line per stage with its own time (src/build/board.ts); `--report` writes each
 * stage's measurements (src/build/measure.ts). A failed stage ends the build with the output folder
 * as it was.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { displayPath, listCatalogFiles } from '../catalog/load.ts';
import { writeFileAtomic } from '../util/files.ts';
import { defaultSettingWarnings } from '../views/metadata.ts';
import { Board } from './board.ts';
import { acquireBuildLock, BuildLocked, type BuildLock } from './lock.ts';
import { MemorySampler, treeSize, type BuildReport } from './measure.ts';
import { catalogDigest, joinShards, MergeProblem, readShards, shardsStore } from './merge.ts';
import { codeKey, publishedSite, reuseFiles, writeIdentities } from './page-reuse.ts';
import { Pipeline, StageError, type Stage, type StageContext } from './pipeline.ts';
import { plan, STAGES, type CatalogFacts, type StageName } from './plan.ts';
import { recoverPublish } from './publish-step.ts';
import { Progress } from './progress.ts';
import { RenderProcesses } from './render-processes.ts';
import { removeStaleRenderDirs, removeStaleWorkDirs, workDirs, type WorkDirs } from './site-folders.ts';
import { claimStandby } from './standby.ts';
import { fullTextStage } from './stages/full-text.ts';
import { highlightStage } from './stages/highlight.ts';
import { ledger } from './stages/ledger.ts';
import { listIndexStage } from './stages/list-index.ts';
import { messageIndexStage } from './stages/message-index.ts';
import { checkRecordCount, OverBudget } from './stages/deploy-files.ts';
import { publishStage } from './stages/publish.ts';
import { publishShard } from './stages/shard.ts';
import { beginShardRecords, recordFilesStage } from './stages/record-files.ts';
import { render, startRender } from './stages/render.ts';
import { beginValidation, derive, InvalidCatalog, validate } from './stages/validate.ts';
import type { BuildSettings, BuildState } from './state.ts';

const RUN: Record<StageName, (ctx: StageContext<BuildState>) => Promise<void>> = {
  validate,
  derive,
  highlight: highlightStage,
  render,
  'record-files': recordFilesStage,
  'message-index': messageIndexStage,
  'list-index': listIndexStage,
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
  'list-index': 'filter indexes',
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

/**
 * Builds and publishes the site, holding the output folder's lock throughout (src/build/lock.ts):
 * a second build of the same folder fails at once naming this one, or waits (--wait-for-lock).
 */
export async function runBuild(settings: BuildSettings, underLock?: () => void): Promise<void> {
  const started = performance.now();
  let lock: BuildLock;
  try {
    lock = await acquireBuildLock(settings.outDir, {
      wait: settings.waitForLock ?? false,
      onWait: (h) => console.log(`Waiting for ${h ? `build pid ${h.pid} on ${h.host}` : 'another build'} to finish writing ${displayPath(settings.outDir)} (--wait-for-lock)…`),
    });
  } catch (e) {
    if (e instanceof BuildLocked) throw new BuildFailure(`${e.message}

Nothing was built.`);
    throw e;
  }
  try {
    // Under the lock, no other build of this folder runs: a publish step a crash cut short is
    // finished or undone first (src/build/publish-step.ts), then what such builds left is stale.
    const recovered = recoverPublish(settings.outDir);
    if (recovered) console.log(`A build stopped while publishing ${displayPath(settings.outDir)}: its publish step was ${recovered === 'after' ? 'finished' : 'undone'}, so the site and the URL ledger agree.`);
    removeStaleWorkDirs(settings.outDir);
    removeStaleRenderDirs();
    underLock?.();
    await buildLocked(settings, started);
  } finally {
    lock.release();
  }
}

async function buildLocked(settings: BuildSettings, started: number): Promise<void> {
  const { outDir } = settings;
  const facts: CatalogFacts = { bytes: catalogBytes(settings.catalog), records: null };
  const machine = { cores: availableParallelism() };
  const memory = new MemorySampler();
  const board = new Board(STAGES, LABELS, new Progress(STAGES.length, { interactive: settings.interactive }), () => memory.reset());
  const dirs = workDirs(outDir);
  const snapshots = dirs.snapshots;
  const code = codeKey();
  const shardIds = join(snapshots, 'shard-ids.json');
  const paths = { snapshot: join(snapshots, 'catalog.jsonl'), head: join(snapshots, 'head.json'), related: join(snapshots, 'related.jsonl'), shardIds };
  // Begun before the published site's files are proven, which neither reads: validation (the catalog)
  // and a merge's linking of the shards' record files (their folders).
  const early = [beginValidation({ settings, dirs, code, ...paths }), beginShardRecords(settings, dirs.recordFiles)];
  const stopEarly = () => early.forEach((stop) => stop());
  let state: BuildState;
  let pipeline: Pipeline<BuildState>;
  try {
    ({ state, pipeline } = setUp(settings, { facts, machine, board, dirs, code, paths }));
  } catch (e) {
    stopEarly();
    throw e;
  }
  pipeline.onCleanup((failed) => {
    memory.stop();
    if (failed) {
      state.render.killAll();
      stopEarly();
    }
    // A stage just ended may still be writing to its folder for a moment.
    rmSync(dirs.root, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  });
  const interrupt = () => pipeline.cancel(new StageError('build', new Error('Interrupted.')));
  process.once('SIGINT', interrupt).once('SIGTERM', interrupt);
  // A site published with errdex's own site URL or report URL links to the wrong place: said up front.
  for (const warning of defaultSettingWarnings()) board.warn(warning);
  try {
    await pipeline.run();
  } catch (e) {
    throw new BuildFailure(failureMessage(e as StageError, outDir));
  } finally {
    process.off('SIGINT', interrupt).off('SIGTERM', interrupt);
  }
  if (settings.reportFile) writeReport(settings.reportFile, state, (performance.now() - started) / 1000);
}

/** What a build knows before its stages: the catalog's bytes, the machine, its board, folders and snapshot's paths. */
interface BuildStart {
  facts: CatalogFacts;
  machine: { cores: number };
  board: Board;
  dirs: WorkDirs;
  code: string;
  paths: Pick<BuildState, 'snapshot' | 'head' | 'related' | 'shardIds'>;
}

/** The build's state and its pipeline of stages, the first plan's, with the early render process started. */
function setUp(settings: BuildSettings, { facts, machine, board, dirs, code, paths }: BuildStart): { state: BuildState; pipeline: Pipeline<BuildState> } {
  const { cacheDir } = settings;
  // What the published site holds that this build may link instead of making again (its error pages,
  // its full-text index's parts), known while the catalog is read. A merge's: the shards' page stores
  // joined (src/build/merge.ts), not a site it published.
  const published = publishedSite({ cacheDir: settings.fromShards ? shardsStore(cacheDir) : cacheDir, code, force: !settings.useCache });
  if (published && published.unproven > 0) {
    board.note(`${published.unproven} files kept in the build cache (${displayPath(published.site)}) are not the ones it recorded: they are made again.`);
  }
  const kind = { reusing: published !== null, shard: settings.shard !== null, firstShard: settings.shard?.index === 0 };
  const first = plan(facts, machine, settings.plan, kind);
  // Claimed under the lock, to fill or to be deleted when this build publishes; a shard publishes to a
  // folder of its own, and leaves the standby to the site's builds. A standby's files are the published
  // site's: a merge, whose files are made from the shards', and --no-cache fill none.
  const claimed = settings.shard ? null : claimStandby(settings.outDir);
  const standby = settings.useCache && !settings.fromShards ? claimed : null;
  const state: BuildState = {
    settings,
    plan: first,
    learnRecords: () => {},
    board,
    dirs,
    ...paths,
    published,
    standby,
    code,
    render: new RenderProcesses({
      outDir: dirs.staging,
      parallel: first.workers,
      cacheDir,
      logDir: resolve('.errdex/logs'),
      reuse: reuseFiles(published, dirs.root),
      reusedDir: dirs.reused,
      standby,
      identities: standby && writeIdentities(published, dirs.root),
      shard: settings.shard ? { ...settings.shard, ids: paths.shardIds } : null,
      onPages: (n) => board.stage('render').update(n),
      env: settings.env,
    }),
  };
  const stages: Stage<BuildState>[] = first.stages.map((st) => ({
    name: st.name,
    needs: st.needs,
    run: async (ctx) => {
      board.stage(st.name).begin();
      // The current plan's: validation's count may change what a stage has to do.
      const skip = state.plan.stages.find((p) => p.name === st.name)?.skip;
      if (skip !== undefined) board.stage(st.name).end({ summary: skip, items: 0, unit: '' });
      else if (st.name === 'publish' && settings.shard) await publishShard(ctx);
      else await RUN[st.name](ctx);
      // Once the records are counted: a catalog the --host cannot take stops here, before anything
      // else starts (the failed stage's own child process is ended with the others).
      if (st.name === 'validate') checkRecordCount(settings, state.plan.facts.records ?? 0);
    },
  }));
  const pipeline = new Pipeline(state, stages);
  // Validation has counted the records: the plan made again, for the stages not yet begun.
  state.learnRecords = (records, rendered, changed) => {
    state.plan = plan({ ...facts, records, rendered, changed }, machine, settings.plan, kind);
    pipeline.replan(new Map(state.plan.stages.map((st) => [st.name, st.needs])));
  };
  startRender(state);
  return { state, pipeline };
}

/**
 * `npm run merge`: the shards' folders checked (src/build/merge.ts), joined into the build cache under
 * the output folder's lock, and the site built from there, reusing what the shards made.
 */
export async function runMerge(settings: BuildSettings, shardDirs: readonly string[]): Promise<void> {
  const code = codeKey();
  try {
    const stamps = readShards(shardDirs, { code, catalog: catalogDigest(settings.catalog) });
    // The shards' dataset version, which their pages show: the site's is the same.
    await runBuild({ ...settings, datasetVersion: stamps[0]!.datasetVersion, fromShards: shardDirs }, () => {
      const files = joinShards(shardDirs, settings.cacheDir, code);
      console.log(`${stamps.length} shards joined in the build cache: ${files.toLocaleString('en-US')} error pages and full-text parts to reuse.`);
    });
  } catch (e) {
    // Found before anything is built (joining runs under the lock, before the stages).
    if (e instanceof MergeProblem) throw new BuildFailure(`${e.message}\n\nNothing was built.`);
    throw e;
  }
}

function failureMessage(e: StageError, outDir: string): string {
  const unchanged = `${displayPath(outDir)} is unchanged`;
  if (e.cause instanceof InvalidCatalog) return `\nNothing was built; ${unchanged}. ${e.message}`;
  if (e.cause instanceof OverBudget) return `\n${e.cause.message}\n\n${displayPath(outDir)} is unchanged.`;
  if (['validate', 'derive', 'highlight'].includes(e.stage)) return `${e.message}\n\nNothing was built; ${unchanged}.`;
  return `${e.message}\n\nThe ${LABELS[e.stage as StageName] ?? e.stage} stage failed; ${unchanged}.`;
}

/**
 * The measurements, after the build's clock stopped: the site's files and bytes as publishing measured
 * them, or, where it did not (a shard's folder), by walking it, which takes seconds on a large site.
 */
function writeReport(file: string, state: BuildState, buildSeconds: number): void {
  const started = performance.now();
  const stages = state.board.results;
  const published = stages.find((st) => st.name === 'publish');
  const site = published?.outputFiles != null && published.outputBytes != null ? { files: published.outputFiles, bytes: published.outputBytes } : treeSize(state.settings.outDir);
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
  writeFileAtomic(file, `${JSON.stringify(report, null, 2)}\n`);
}
