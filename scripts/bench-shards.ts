/**
 * `npm run bench:shards [-- --records 40000 --shards 2,4,8 --profile rich|lean]`: sharded builds
 * against the build on one machine, on one synthetic catalog (bench/lib/synthetic.ts).
 *
 * The one-machine build first (cold), then for each shard count n: every shard's build in turn, cold
 * with its own cache, as n CI runners would run them side by side; then the merge, cold (its build
 * cache holds only what the shards made), and its site compared with the one-machine site, file by
 * file. Reports each shard's wall time, records and peak memory of its process tree, the folder it
 * hands on (what a CI uploads as an artifact), and the merge's time as a share of the one-machine
 * build's. On n runners the sharded build takes the slowest shard plus the merge (and the artifacts'
 * transfer, not measured here).
 *
 * Nothing is deleted while builds are timed (bench/lib/run.ts, settle): what a run replaces is moved
 * aside and deleted at its end.
 *
 * Results: printed, and written to .errdex/bench/shards.md and shards.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateCatalog } from '../bench/lib/generate.ts';
import { scriptOptions } from '../src/util/script-options.ts';
import { compareSites, discard, emptyTrash, errdexBuild, settle, type Built } from '../bench/lib/run.ts';
import { PROFILES, type Profile } from '../bench/lib/synthetic.ts';
import { SHARD_FILE, type ShardStamp } from '../src/build/merge.ts';
import { treeSize } from '../src/build/measure.ts';
import { formatCount } from '../src/build/progress.ts';

const USAGE = `Usage: npm run bench:shards -- [--records N] [--shards 2,4,8] [--profile ${PROFILES.join('|')}]

Builds a synthetic catalog of N records (default 40000, rich) on one machine, then as each count of
shards (default 4) and their merge; compares every merged site with the one-machine site. Writes
.errdex/bench/shards.md and shards.json.`;
const { values } = scriptOptions({ records: { type: 'string', default: '40000' }, shards: { type: 'string', default: '4' }, profile: { type: 'string', default: 'rich' } }, USAGE);
const records = Number(values.records);
const counts = values.shards.split(',').map(Number);
const profile = values.profile as Profile;
if (!Number.isInteger(records) || records < 1 || counts.some((n) => !Number.isInteger(n) || n < 1) || !PROFILES.includes(profile)) {
  console.error(USAGE);
  process.exit(2);
}

const dir = resolve('.errdex/bench', `shards-${profile}-${records}`);
const catalog = join(dir, 'catalog');
// One dataset version for every build: the shards' pages and the merge's must agree (docs/scale.md).
const env = { SOURCE_DATE_EPOCH: '1700000000' };
// Moved aside, not deleted, while builds are timed (bench/lib/run.ts, settle).
const fresh = (...paths: string[]) => {
  for (const p of paths) discard(p);
};
const s = (x: number) => `${x.toFixed(1)} s`;
const gb = (b: number) => `${(b / 1e9).toFixed(2)} GB`;

interface ShardRun {
  shard: number;
  records: number;
  build: Built;
  folderBytes: number;
  folderFiles: number;
}
interface CountResult {
  n: number;
  shards: ShardRun[];
  merge: Built;
  identical: { same: boolean; differing: string[]; files: number };
}

emptyTrash();
console.log(`Generating ${formatCount(records)} ${profile} records…`);
await generateCatalog(catalog, records, 1, profile);
const oneDist = join(dir, 'one-dist');
fresh(oneDist, join(dir, 'one-cache'));
await settle();
console.log('\nOne machine, cold:');
const one = await errdexBuild(catalog, oneDist, join(dir, 'one-cache'), join(dir, 'report-one.json'), ['--no-ledger-update'], 'scripts/build.ts', env);

const results: CountResult[] = [];
for (const n of counts) {
  const shards: ShardRun[] = [];
  for (let i = 1; i <= n; i++) {
    const out = join(dir, `shard-${i}-of-${n}`);
    const cache = join(dir, `cache-${i}-of-${n}`);
    fresh(out, cache);
    console.log(`\nShard ${i}/${n}, cold:`);
    const build = await errdexBuild(catalog, join(dir, 'unused-dist'), cache, join(dir, `report-shard-${i}-of-${n}.json`), ['--shard', `${i}/${n}`, '--out', out], 'scripts/build.ts', env);
    const stamp = JSON.parse(readFileSync(join(out, SHARD_FILE), 'utf8')) as ShardStamp;
    const size = treeSize(out);
    shards.push({ shard: i, records: stamp.shardRecords, build, folderBytes: size.bytes, folderFiles: size.files });
    fresh(cache);
  }
  const mergeDist = join(dir, `merged-${n}`);
  const mergeCache = join(dir, `merge-cache-${n}`);
  fresh(mergeDist, mergeCache);
  console.log(`\nMerge of ${n} shards, cold:`);
  const folders = shards.map((r) => join(dir, `shard-${r.shard}-of-${n}`));
  const merge = await errdexBuild(catalog, mergeDist, mergeCache, join(dir, `report-merge-${n}.json`), [...folders, '--no-ledger-update'], 'scripts/merge.ts', env);
  const identical = compareSites(oneDist, mergeDist);
  console.log(identical.same ? `The merged site is the one-machine site: ${formatCount(identical.files)} files, byte for byte.` : `${identical.differing.length} files differ: ${identical.differing.slice(0, 10).join(', ')}`);
  results.push({ n, shards, merge, identical });
  fresh(mergeDist, mergeCache, ...folders);
}

const lines = [
  `# Sharded builds: ${formatCount(records)} ${profile} records`,
  '',
  `One machine, cold: ${s(one.wallSeconds)}, peak ${gb(one.treePeakRssBytes)} (all processes), ${formatCount(one.siteFiles)} files.`,
  '',
  '| shards | records per shard (min–max) | shard wall (min–max) | s per 1,000 own records (median) | shard peak memory (max) | shard folder (max) | merge wall | merge / one machine | slowest shard + merge | identical |',
  '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
];
for (const r of results) {
  const walls = r.shards.map((x) => x.build.wallSeconds);
  const recs = r.shards.map((x) => x.records);
  const perK = r.shards.filter((x) => x.records > 0).map((x) => (x.build.wallSeconds / x.records) * 1000).sort((a, b) => a - b);
  lines.push(
    `| ${r.n} | ${formatCount(Math.min(...recs))}–${formatCount(Math.max(...recs))} | ${s(Math.min(...walls))}–${s(Math.max(...walls))} | ${(perK[Math.floor(perK.length / 2)] ?? 0).toFixed(2)} | ` +
      `${gb(Math.max(...r.shards.map((x) => x.build.treePeakRssBytes)))} | ${gb(Math.max(...r.shards.map((x) => x.folderBytes)))} | ${s(r.merge.wallSeconds)} | ` +
      `${((r.merge.wallSeconds / one.wallSeconds) * 100).toFixed(0)} % | ${s(Math.max(...walls) + r.merge.wallSeconds)} | ${r.identical.same ? 'yes' : `no (${r.identical.differing.length} files)`} |`,
  );
}
lines.push('', '## Stages of the merge', '');
for (const r of results) lines.push(`- ${r.n} shards: ${r.merge.stages.map((st) => `${st.name} ${s(st.seconds)}`).join(', ')}`);
const md = `${lines.join('\n')}\n`;
console.log(`\n${md}`);
writeFileSync(resolve('.errdex/bench/shards.md'), md);
writeFileSync(resolve('.errdex/bench/shards.json'), `${JSON.stringify({ records, profile, one, results }, null, 2)}\n`);
// Deleted once the results are out: some gigabytes, file by file.
fresh(oneDist);
emptyTrash();
