/**
 * Sharded builds: `npm run build -- --shard i/n` on each shard and `npm run merge` make the site a
 * build on one machine makes, byte for byte; a shard built again after an edit reuses what did not
 * change, and the merge of the new shards is the cold build of the edited catalog. Shards that do
 * not belong together are refused before anything is built, every problem named.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { syntheticRecords } from '../../bench/lib/synthetic.ts';
import { buildSite, hashTree } from '../support/site.ts';
import { runScript } from '../support/run-script.ts';
import { listFilesBelow } from '../../src/util/files.ts';

const root = mkdtempSync(join(tmpdir(), 'errdex-shards-'));
const lines = [...syntheticRecords({ count: 40, seed: 11 })];
// Full-text parts of at most 8 records: 8 parts, dealt to the shards.
const env = { CI: '1', SOURCE_DATE_EPOCH: '1700000000', ERRDEX_PAGEFIND_PART_RECORDS: '8' };

/** Every file of a folder with its identity and time: what a merge that wrote into it would change. */
const identities = (dir: string): string =>
  listFilesBelow(dir)
    .map((f) => {
      const st = statSync(join(dir, f), { bigint: true });
      return `${f} ${st.ino} ${st.size} ${st.mtimeNs}`;
    })
    .join('\n');

function writeCatalog(dir: string, records: string[]): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'records.jsonl'), `${records.join('\n')}\n`);
  return dir;
}

function buildShard(catalog: string, shard: string, out: string, cache: string) {
  const run = buildSite(`shard-${shard}`, catalog, { args: ['--shard', shard, '--out', out], env: { ...env, ERRDEX_CACHE_DIR: cache } });
  expect(run.status, run.stderr + run.stdout).toBe(0);
  return run;
}

const merge = (catalog: string, dist: string, cache: string, shards: string[], args: string[] = []) =>
  runScript('scripts/merge.ts', [...shards, '--no-ledger-update', ...args], { env: { ...process.env, ...env, ERRDEX_DATA: catalog, ERRDEX_DIST: dist, ERRDEX_CACHE_DIR: cache } });

describe('a catalog built as 3 shards and merged', () => {
  const catalog = writeCatalog(join(root, 'catalog'), lines);
  const shards = [1, 2, 3].map((i) => join(root, `shard-${i}`));
  const build = (i: number) => buildShard(catalog, `${i}/3`, shards[i - 1]!, join(root, `cache-${i}`));
  let one: Map<string, string>;
  let oneOut: string;
  let merged: Awaited<ReturnType<typeof merge>>;
  let before: string[];

  beforeAll(async () => {
    const site = buildSite('shards-one-machine', catalog, { env: { ...env, ERRDEX_CACHE_DIR: join(root, 'cache-one') } });
    expect(site.status, site.stderr).toBe(0);
    one = hashTree(site.dist);
    oneOut = site.stdout;
    [1, 2, 3].forEach(build);
    before = shards.map(identities);
    merged = await merge(catalog, join(root, 'merged'), join(root, 'cache-merge'), shards);
  });

  it('is the site one machine builds, byte for byte', () => {
    expect(merged.code, merged.err + merged.out).toBe(0);
    expect(hashTree(join(root, 'merged'))).toEqual(one);
  });

  it('reuses every error page and full-text part the shards made, and renders the rest', () => {
    expect(merged.out).toMatch(/3 shards joined in the build cache/);
    expect(merged.out).toMatch(/40 error pages: \d+ pages rendered, 40 unchanged/);
    expect(merged.out).toMatch(/full-text index of 40 pages in 8 parts \(8 unchanged\)/);
    // Each shard wrote its own records' JSON twins and short links; the merge links every one.
    const own = shards.map((dir) => readdirSync(join(dir, 'records', 'api', 'errors')).length);
    expect(own.reduce((a, b) => a + b, 0)).toBe(40);
    expect(Math.min(...own)).toBeGreaterThan(0);
    expect(merged.out).toMatch(/80 JSON twins and short links, 80 of them unchanged \(the shards': made from the same snapshot\)/);
    // Their short links' titles are compared across the shards, as one machine compares them.
    const titles = (out: string) => /Page titles: .*/.exec(out)?.[0];
    expect(titles(merged.out)).toMatch(/Page titles: \d+ pages/);
    expect(titles(merged.out)).toBe(titles(oneOut));
    // Each shard made its share of the listings' filter indexes; the merge indexes none (tested with
    // listings of several pages in tests/unit/build/stages/list-index.test.ts).
    expect(merged.out).toMatch(/filter indexes of (\d+) listings \(\1 unchanged; 0 records read\), the largest \d+ KB \(the shards': made from the same snapshot\)/);
    // Shard 1 made the message index from the whole catalog; the merge, validating the same, links it.
    expect(merged.out).toMatch(/message index in \d+ files, _redirects \(shard 1's: made from the same snapshot\)/);
    expect(readdirSync(join(shards[0]!, 'message-index'))).toEqual(['_redirects', 'search-index']);
    // Shard 1's folder carries what its validation and derive kept of the whole catalog: the merge takes it.
    expect(merged.out).toMatch(/[1-9]\d* unchanged since the last build, not checked alone again/);
    expect(merged.out).toMatch(/related errors: .* \(their inputs unchanged: kept from the last build\)/);
  });

  it("reads the shards' folders in place and leaves them as they were", () => {
    expect(shards.map(identities)).toEqual(before);
    // Its page store (links into the shards' folders) is gone once the site is published, and the
    // next merge joins the shards again: its build cache keeps no copy of the site.
    for (const gone of ['shards', 'site', 'pages.json']) expect(existsSync(join(root, 'cache-merge', gone))).toBe(false);
  });

  it('after an edit: the shard holding it renders its page again, the others reuse theirs, and the merge is the cold build of the edited catalog', async () => {
    const edited = [...lines];
    const record = JSON.parse(edited[5]!);
    record.record.documentation = 'An explanation edited for the shard test.';
    edited[5] = JSON.stringify(record);
    writeCatalog(catalog, edited);
    const runs = [1, 2, 3].map(build);
    const rendered = runs.map((r) => Number(/(\d+) pages rendered/.exec(r.stdout)?.[1]));
    // One page changed: one shard renders it (and nothing else of its own), the others nothing but
    // the short-link template each writes its short links from.
    expect(rendered.sort()).toEqual([1, 1, 2]);
    // Its JSON twin changed: the shard holding it writes its files anew and links the rest.
    const twins = runs.map((r) => /(\d+) JSON twins and short links, (\d+) of them unchanged/.exec(r.stdout)!.slice(1).map(Number));
    expect(twins.filter(([files, unchanged]) => files! > unchanged! && files! - unchanged! <= 2)).toHaveLength(1);
    expect(twins.filter(([files, unchanged]) => files === unchanged)).toHaveLength(2);
    // The edit changed one record's prose: the others are not checked alone again, the related errors are kept.
    for (const r of runs) expect(r.stdout).toMatch(/[1-9]\d* unchanged since the last build, not checked alone again.*\n(.*\n)*.*kept from the last build/);
    const again = await merge(catalog, join(root, 'merged'), join(root, 'cache-merge'), shards);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/80 JSON twins and short links, 80 of them unchanged/);
    expect(again.out).toMatch(/_redirects \(shard 1's: made from the same snapshot\)/);
    const cold = buildSite('shards-edited-cold', writeCatalog(join(root, 'edited'), edited), { env: { ...env, ERRDEX_CACHE_DIR: join(root, 'cache-cold') } });
    expect(cold.status, cold.stderr).toBe(0);
    expect(hashTree(join(root, 'merged'))).toEqual(hashTree(cold.dist));
  });

  it("makes the message index itself when shard 1's was made otherwise (here: another --max-index-files)", async () => {
    const other = await merge(catalog, join(root, 'merged-other'), join(root, 'cache-merge-other'), shards, ['--max-index-files=2']);
    expect(other.code, other.err).toBe(0);
    const files = Number(/message index in (\d+) files, _redirects \(made here: no shard made it from the same snapshot\)/.exec(other.out)?.[1]);
    expect(files).toBeLessThanOrEqual(2);
  });

  it("makes the record files and filter indexes itself when the shards' were made from another snapshot, and the site is the same", async () => {
    const copies = shards.map((dir, i) => {
      const copy = join(root, `copied-${i + 1}`);
      cpSync(dir, copy, { recursive: true });
      return copy;
    });
    // Every shard's record files of one other snapshot: the merge begins linking them before it knows
    // its own snapshot's key, then ends that and makes them. One shard's filter indexes of another.
    const said = [...copies.map((dir) => join(dir, 'records.json')), join(copies[1]!, 'list-index.json')];
    for (const file of said) writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), key: 'another snapshot' }));
    const made = await merge(catalog, join(root, 'merged-made'), join(root, 'cache-merge-made'), copies);
    expect(made.code, made.err).toBe(0);
    expect(made.out).toMatch(/80 JSON twins and short links, 80 of them unchanged \(made here: not every shard made them from the same snapshot\)/);
    // The listings' files are found in the cache under the keys the merge computes.
    expect(made.out).toMatch(/filter indexes of (\d+) listings \(\1 unchanged; \d+ records? read\), the largest \d+ KB(?! \(the shards')/);
    // The last merge's site: the catalog as the edit above left it.
    expect(hashTree(join(root, 'merged-made'))).toEqual(hashTree(join(root, 'merged')));
  });

  it("is what the sharded Pages workflow runs: its shard jobs' command, and scripts/ci-pages.sh merge", () => {
    const workflow = readFileSync('.github/workflows/pages-sharded.yml', 'utf8');
    expect(workflow).toContain('run: npm run build -- --shard ${{ matrix.shard }}/${{ strategy.job-total }} --out shard');
    expect(workflow).toContain('run: bash scripts/ci-pages.sh merge shards/shard-*');
    // Each shard restores its own build cache.
    expect(workflow).toMatch(/key: errdex-shard-\$\{\{ matrix\.shard \}\}-of-/);
    // Without the snapshot's pieces, which would hold the whole catalog in every shard's cache.
    expect(workflow.match(/!\.errdex\/cache\/snapshot\n/g)).toHaveLength(2);
    const outputs = join(root, 'github-output');
    const dist = join(root, 'merged-by-ci');
    const run = spawnSync('bash', ['scripts/ci-pages.sh', 'merge', ...shards, '--', '--no-ledger-update'], {
      encoding: 'utf8',
      env: { ...process.env, ...env, ERRDEX_DATA: catalog, ERRDEX_DIST: dist, ERRDEX_CACHE_DIR: join(root, 'cache-ci'), GITHUB_OUTPUT: outputs },
    });
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toMatch(/from 3 shards/);
    expect(readFileSync(outputs, 'utf8')).toContain(`dist=${dist}`);
    expect(hashTree(dist)).toEqual(hashTree(join(root, 'merged')));
  });

  it('refuses shards that do not belong together, naming every problem, and builds nothing', async () => {
    const other = join(root, 'other-catalog');
    cpSync(catalog, other, { recursive: true });
    writeCatalog(other, lines.slice(0, 30));
    buildShard(other, '2/3', join(root, 'other-2'), join(root, 'cache-other'));
    const refused = await merge(catalog, join(root, 'refused'), join(root, 'cache-refused'), [shards[0]!, join(root, 'other-2'), shards[0]!, root]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/is not a shard's folder/);
    expect(refused.err).toMatch(/other-2 \(shard 2\/3\) was built from another catalog/);
    expect(refused.err).toMatch(/are the same shard/);
    expect(refused.err).toMatch(/shard 3\/3 is missing/);
    expect(refused.err).toMatch(/Nothing was built/);
  });

  it('says what is wrong with the command line (exit 2)', async () => {
    const base = { ...process.env, ...env, ERRDEX_DATA: catalog };
    expect((await runScript('scripts/build.ts', ['--shard', '4/3'], { env: base })).err).toMatch(/--shard 4\/3: i must be from 1 to n/);
    expect((await runScript('scripts/build.ts', ['--out', 'x'], { env: base })).code).toBe(2);
    const none = await runScript('scripts/merge.ts', [], { env: base });
    expect([none.code, none.err]).toEqual([2, expect.stringMatching(/name the shards’ folders/)]);
  });
});

// The real records (../shared/search-dev, outside the repository; skipped where it is absent).
const DEV = [process.env.ERRDEX_SEARCH_DEV, '../shared/search-dev', '../../shared/search-dev'].find((d): d is string => Boolean(d) && existsSync(join(d!, 'records.jsonl')));

describe.skipIf(!DEV)('the search-dev catalog (1,705 real records of 7 repositories) as 3 shards', () => {
  it('merges into the site one machine builds, byte for byte', async () => {
    const catalog = join(root, 'search-dev');
    mkdirSync(catalog, { recursive: true });
    copyFileSync(join(DEV!, 'records.jsonl'), join(catalog, 'records.jsonl'));
    const site = buildSite('shards-search-dev-one', catalog, { env: { ...env, ERRDEX_CACHE_DIR: join(root, 'dev-cache-one') } });
    expect(site.status, site.stderr).toBe(0);
    const folders = [1, 2, 3].map((i) => join(root, `dev-shard-${i}`));
    const sizes = [1, 2, 3].map((i) => Number(/shard \d\/3 in .*?: ([\d,]+) of/.exec(buildShard(catalog, `${i}/3`, folders[i - 1]!, join(root, `dev-cache-${i}`)).stdout)![1]!.replace(/,/g, '')));
    expect(sizes.reduce((a, b) => a + b)).toBe(1705);
    const merged = await merge(catalog, join(root, 'dev-merged'), join(root, 'dev-cache-merge'), folders);
    expect(merged.code, merged.err).toBe(0);
    expect(merged.out).toMatch(/filter indexes of ([1-9]\d*) listings \(\1 unchanged; 0 records read\), the largest \d+ KB \(the shards': made from the same snapshot\)/);
    expect(merged.out).toMatch(/([\d,]+) JSON twins and short links, \1 of them unchanged \(the shards': made from the same snapshot\)/);
    expect(merged.out).toMatch(/_redirects \(shard 1's: made from the same snapshot\)/);
    expect(hashTree(join(root, 'dev-merged'))).toEqual(hashTree(site.dist));
  });
});
