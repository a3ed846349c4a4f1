/**
 * Two builds of different catalogs into one output folder, the second started 0-5 s after the first
 * (a CI retry, two terminals, a watcher): the output folder's lock (src/build/lock.ts) lets one write
 * at a time, so the folder ends as one complete site of one catalog, and each build that succeeded
 * wrote its own catalog's URL ledger. Half the rounds fail the second build at once, half make it wait
 * (--wait-for-lock). ERRDEX_CONCURRENCY_ROUNDS sets the rounds (the issue's target: 20); the seed
 * ERRDEX_CONCURRENCY_SEED the offsets.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { rng, syntheticRecords } from '../../bench/lib/synthetic.ts';
import { buildSite, hashTree, readText } from '../support/site.ts';

const ROUNDS = Number(process.env.ERRDEX_CONCURRENCY_ROUNDS ?? 4);
const SEED = Number(process.env.ERRDEX_CONCURRENCY_SEED ?? 26);
const root = mkdtempSync(join(tmpdir(), 'errdex-concurrent-'));
const cache = join(root, 'cache');

const catalogs = { a: [...syntheticRecords({ count: 6, seed: 11 })], b: [...syntheticRecords({ count: 7, seed: 12 })] };
type Name = keyof typeof catalogs;
const idsOf = (name: Name): string[] => catalogs[name].map((l) => JSON.parse(l).record.id).sort();

function writeCatalog(dir: string, name: Name): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'records.jsonl'), `${catalogs[name].join('\n')}\n`);
  return dir;
}

interface Run {
  name: Name;
  catalog: string;
  pid: number;
  status: number;
  stdout: string;
  stderr: string;
  startedAt: number;
}

function startBuild(name: Name, catalog: string, dist: string, args: string[]): Promise<Run> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, ['scripts/build.ts', ...args], { env: { ...process.env, ERRDEX_DATA: catalog, ERRDEX_DIST: dist, ERRDEX_CACHE_DIR: cache, CI: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((done) => child.on('close', (code) => done({ name, catalog, pid: child.pid!, status: code ?? 1, stdout, stderr, startedAt })));
}

describe(`two builds of different catalogs into one output folder (${ROUNDS} rounds)`, () => {
  const alone = new Map<Name, Map<string, string>>();

  beforeAll(() => {
    // Each catalog built alone: what the output folder must hold, byte for byte, after a round.
    for (const name of ['a', 'b'] as const) {
      const site = buildSite(`concurrent-alone-${name}`, writeCatalog(join(root, `alone-${name}`), name), { env: { ERRDEX_CACHE_DIR: cache } });
      expect(site.status, site.stderr).toBe(0);
      alone.set(name, hashTree(site.dist));
    }
  }, 300_000);

  it('ends every round with one complete site of one catalog, and each successful build with its own ledger', async () => {
    const random = rng(SEED);
    for (let round = 0; round < ROUNDS; round++) {
      const wait = round % 2 === 1;
      const offset = random() * 5000;
      const dir = join(root, `round-${round}`);
      const dist = join(dir, 'site', 'dist');
      const [first, second]: Name[] = round % 4 < 2 ? ['a', 'b'] : ['b', 'a'];
      // The catalogs share no record: the second to publish removes every page of the first, on purpose.
      const args = ['--allow-mass-removal', ...(wait ? ['--wait-for-lock'] : [])];
      const one = startBuild(first!, writeCatalog(join(dir, first!), first!), dist, args);
      await sleep(offset);
      const two = startBuild(second!, writeCatalog(join(dir, second!), second!), dist, args);
      const runs = await Promise.all([one, two]);
      const ok = runs.filter((r) => r.status === 0);
      const label = `round ${round} (${wait ? 'wait' : 'fail at once'}, offset ${(offset / 1000).toFixed(2)} s)`;
      expect(ok.length, `${label}: ${runs.map((r) => r.stderr).join('\n')}`).toBeGreaterThan(0);
      for (const r of runs.filter((r) => r.status !== 0)) {
        // Refused at once, naming the build that holds the folder; no ledger written.
        const other = runs.find((o) => o !== r)!;
        expect(r.stderr, label).toContain(`Another build is writing to`);
        expect(r.stderr, label).toContain(`build pid ${other.pid} on`);
        expect(existsSync(join(r.catalog, 'url-ledger.json')), label).toBe(false);
      }
      // The build that published last: one that waited for the other, else the one started later.
      const last = ok.find((r) => r.stdout.includes('Waiting for build pid')) ?? ok.reduce((a, b) => (b.startedAt > a.startedAt ? b : a));
      expect(hashTree(dist), label).toEqual(alone.get(last.name));
      for (const r of ok) {
        const ledger = JSON.parse(readText(join(r.catalog, 'url-ledger.json')));
        expect(ledger.entries.map((e: { id: string }) => e.id).sort(), label).toEqual(idsOf(r.name));
      }
      // Nothing left beside the output folder: no lock, no working folder (old sites being deleted and the standby are not a build's own).
      expect(readdirSync(dirname(dist)).filter((f) => !f.startsWith('dist.previous-') && f !== 'dist.standby'), label).toEqual(['dist']);
      // Each round as it ends: a long run (ERRDEX_CONCURRENCY_ROUNDS=20) shows its progress.
      console.log(`${label}: ${runs.map((r) => `${r.name} exit ${r.status}`).join(', ')}; published ${last.name}`);
    }
  }, ROUNDS * 300_000);
});
