/**
 * The GitHub Pages workflow's commands (scripts/ci-pages.sh, which .github/workflows/pages.yml runs),
 * on a fixture catalog kept in a git repository of its own with a bare remote: the build and its
 * artifact check, the URL ledger committed back, and what the restored folders give the next build.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const FIXTURES = resolve('tests/fixtures/catalogs');
const root = mkdtempSync(join(tmpdir(), 'errdex-deploy-'));
const catalog = join(root, 'catalog');
const remote = join(root, 'remote.git');
const dist = join(root, 'dist');
const ledger = join(catalog, 'url-ledger.json');

function git(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', ['-c', 'user.name=errdex test', '-c', 'user.email=test@errdex.invalid', ...args], { cwd, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim();
}

interface Run {
  status: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
}

/** Runs scripts/ci-pages.sh with the environment the workflow gives it. */
function ciPages(command: string, env: Record<string, string> = {}): Run {
  const outputFile = join(root, `outputs-${Math.random().toString(36).slice(2)}`);
  writeFileSync(outputFile, '');
  const run = spawnSync('bash', ['scripts/ci-pages.sh', command], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      CI: 'true',
      ERRDEX_DATA: catalog,
      ERRDEX_DIST: dist,
      ERRDEX_CACHE_DIR: join(root, 'cache'),
      ERRDEX_SITE_URL: 'https://acme.github.io',
      ERRDEX_BASE_PATH: '/errdex',
      GITHUB_OUTPUT: outputFile,
      GITHUB_REF_NAME: 'main',
      GITHUB_RUN_ID: '7',
      ...env,
    },
  });
  const outputs = Object.fromEntries(
    readFileSync(outputFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { status: run.status ?? 1, stdout: run.stdout, stderr: run.stderr, outputs };
}

/** Every file below a folder, relative to it. */
const listFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));

/** The error pages the ledger lists, as files of the site, with their inode: a reused page keeps it. */
function errorPageInodes(): Map<string, number> {
  const entries = JSON.parse(readFileSync(ledger, 'utf8')).entries as { paths: string[] }[];
  const pages = entries.flatMap((entry) => entry.paths.map((path) => join(dist, path, 'index.html')));
  return new Map(pages.map((page) => [page, statSync(page).ino]));
}

// A fresh clone's catalog: the fixture committed, no ledger yet, pushed to the remote.
cpSync(join(FIXTURES, 'basic'), catalog, { recursive: true });
rmSync(ledger, { force: true });
spawnSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
git(catalog, 'init', '-q', '-b', 'main');
git(catalog, 'add', '-A');
git(catalog, 'commit', '-q', '-m', 'catalog');
git(catalog, 'remote', 'add', 'origin', remote);
git(catalog, 'push', '-q', 'origin', 'main');

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the GitHub Pages workflow, run by scripts/ci-pages.sh', () => {
  let firstBuild: Map<string, number>;

  it('builds the site and reports the artifact it uploads: files, bytes, largest file', () => {
    const run = ciPages('build');
    expect(run.status, run.stderr + run.stdout).toBe(0);
    const files = listFiles(dist);
    const sizes = files.map((file) => statSync(join(dist, file)).size);
    const [, count, bytes, largest, largestBytes] = /Pages artifact: (\d+) files, (\d+) bytes, largest (\S+) \((\d+) bytes\)/.exec(run.stdout) ?? [];
    expect(Number(count)).toBe(files.length);
    expect(Number(bytes)).toBe(sizes.reduce((a, b) => a + b, 0));
    expect(Number(largestBytes)).toBe(Math.max(...sizes));
    expect(statSync(join(dist, largest!)).size).toBe(Number(largestBytes));
    // Served below /errdex/: the links carry the base path, the folder layout does not.
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toContain('href="/errdex/');
    expect(run.outputs).toEqual({ dist, ledger, 'ledger-changed': 'true' });
    firstBuild = errorPageInodes();
    expect(firstBuild.size).toBe(4);
  });

  it('commits the URL ledger after the deploy and pushes it to the branch, once', () => {
    const run = ciPages('commit-ledger');
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(git(remote, 'log', '-1', '--format=%s', 'main')).toBe('URL ledger: the pages published by run 7 [skip ci]');
    expect(git(remote, 'show', 'main:url-ledger.json')).toBe(readFileSync(ledger, 'utf8').trim());
    const head = git(remote, 'rev-parse', 'main');

    const again = ciPages('commit-ledger');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('URL ledger unchanged: nothing to commit.');
    expect(git(remote, 'rev-parse', 'main')).toBe(head);
  });

  it('puts the ledger commit on top of a commit pushed while the site was building', () => {
    const other = join(root, 'other-clone');
    git(root, 'clone', '-q', '-b', 'main', remote, other);
    writeFileSync(join(other, 'notes.txt'), 'pushed meanwhile\n');
    git(other, 'add', 'notes.txt');
    git(other, 'commit', '-q', '-m', 'meanwhile');
    git(other, 'push', '-q', 'origin', 'main');
    // The ledger changes locally (as a build that renamed a page would), behind the remote.
    const text = readFileSync(ledger, 'utf8');
    writeFileSync(ledger, text.replace('"version": 1', '"version": 1 '));
    const run = ciPages('commit-ledger');
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(git(remote, 'log', '-2', '--format=%s', 'main').split('\n')).toEqual(['URL ledger: the pages published by run 7 [skip ci]', 'meanwhile']);
    writeFileSync(ledger, text);
    git(catalog, 'commit', '-q', '-m', 'ledger as built', '--', 'url-ledger.json');
  });

  it('reuses every unchanged page when the build cache and the last output are restored', () => {
    const run = ciPages('build');
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toMatch(/pages rendered, 4 unchanged/);
    // Each error page is the same file as before, hard-linked from the restored output.
    expect(errorPageInodes()).toEqual(firstBuild);
    expect(run.outputs['ledger-changed']).toBe('false');
  });

  it('renders every page again from the build cache alone, and stops a site over the size limit', () => {
    rmSync(dist, { recursive: true, force: true });
    const run = ciPages('build', { ERRDEX_PAGES_MAX_BYTES: '1000' });
    expect(run.stdout).toMatch(/pages rendered, 0 unchanged/);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/The site is \d+ bytes, over GitHub Pages' limit of 1000 bytes per site: the deploy would fail\./);
    expect(run.stderr).toContain('docs/deploy.md');
    expect(run.outputs).toEqual({});
  });

  it('is what the workflow runs, with both folders cached', () => {
    const workflow = readFileSync('.github/workflows/pages.yml', 'utf8');
    expect(workflow).toContain('run: bash scripts/ci-pages.sh build');
    expect(workflow).toContain('run: bash scripts/ci-pages.sh commit-ledger');
    const cachedPaths = [...workflow.matchAll(/path: \|\n\s+(\S+)\n\s+(\S+)\n/g)].map((m) => [m[1], m[2]]);
    expect(cachedPaths).toEqual([
      ['.errdex/cache', 'dist'],
      ['.errdex/cache', 'dist'],
    ]);
    expect(workflow).toMatch(/ERRDEX_CACHE_DIR: \.errdex\/cache\n/);
    expect(workflow).toMatch(/ERRDEX_DIST: dist\n/);
  });
});
