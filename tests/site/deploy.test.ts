/**
 * The GitHub Pages workflow's commands (scripts/ci-pages.sh, which .github/workflows/pages.yml runs),
 * on a fixture catalog kept in a git repository of its own with a bare remote: the build and its
 * artifact check, the URL ledger committed back, and what the build cache alone gives the next
 * build in a fresh copy of the project.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY_HEADER } from '../../src/util/csp.ts';

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

/** Runs scripts/ci-pages.sh (of this project, or of the copy in `project`) with the environment the workflow gives it. */
function ciPages(command: string, env: Record<string, string> = {}, project = '.'): Run {
  const outputFile = join(root, `outputs-${Math.random().toString(36).slice(2)}`);
  writeFileSync(outputFile, '');
  const run = spawnSync('bash', [join(project, 'scripts/ci-pages.sh'), command], {
    cwd: project,
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

/** Each file below a folder with the SHA-256 of its bytes. */
function hashes(dir: string): Map<string, string> {
  return new Map(listFiles(dir).map((f) => [f, createHash('sha256').update(readFileSync(join(dir, f))).digest('hex')]));
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

  it('builds the site, checked against GitHub Pages, and reports the artifact it uploads: files, bytes, largest file', () => {
    const run = ciPages('build');
    expect(run.status, run.stderr + run.stdout).toBe(0);
    const files = listFiles(dist);
    const sizes = files.map((file) => statSync(join(dist, file)).size);
    const total = sizes.reduce((a, b) => a + b, 0);
    const [, count, bytes, largest, largestBytes] = /Pages artifact: (\d+) files, (\d+) bytes, largest (\S+) \((\d+) bytes\)/.exec(run.stdout) ?? [];
    expect(Number(count)).toBe(files.length);
    expect(Number(bytes)).toBe(total);
    expect(Number(largestBytes)).toBe(Math.max(...sizes));
    expect(statSync(join(dist, largest!)).size).toBe(Number(largestBytes));
    // The build's own summary says the same, and that the site fits GitHub Pages' 1 GB.
    expect(run.stdout).toContain(`${files.length.toLocaleString('en-US')} files, `);
    expect(run.stdout).toContain(`(${total.toLocaleString('en-US')} bytes), largest ${largest} `);
    expect(run.stdout).toContain(`Fits GitHub Pages (--host=github-pages): ${total.toLocaleString('en-US')} of 1,000,000,000 bytes.`);
    // _headers for hosts that read it: the policy with frame-ancestors, hashed files cached for good, below the base path.
    const headers = readFileSync(join(dist, '_headers'), 'utf8');
    expect(headers).toContain(`/errdex/*\n  Content-Security-Policy: ${CONTENT_SECURITY_POLICY_HEADER}\n`);
    expect(headers).toContain('/errdex/_astro/*\n  Cache-Control: public, max-age=31536000, immutable\n');
    expect(headers).toContain('/errdex/pagefind/fragment/*\n  Cache-Control: public, max-age=31536000, immutable\n');
    // The catalog's JSON Schemas, served with their $id at this site's URL, otherwise the committed files.
    for (const name of ['error-record', 'classes', 'url-ledger']) {
      const served = readFileSync(join(dist, `schema/${name}.json`), 'utf8');
      expect(JSON.parse(served).$id).toBe(`https://acme.github.io/errdex/schema/${name}.json`);
      const committed = readFileSync(`schema/${name}.schema.json`, 'utf8');
      expect(served.replace(/"\$id": "[^"]*"/, '')).toBe(committed.replace(/"\$id": "[^"]*"/, ''));
    }
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

  it('reuses every unchanged page on the next build', () => {
    const run = ciPages('build');
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toMatch(/pages rendered, 4 unchanged/);
    // Each error page is the same file as before, hard-linked from the build cache's copy.
    expect(errorPageInodes()).toEqual(firstBuild);
    expect(run.outputs['ledger-changed']).toBe('false');
  });

  it('reuses every unchanged page in a fresh checkout with only the build cache restored', () => {
    // A fresh checkout elsewhere: the project's files without dist/ or .errdex/, its dependencies
    // installed (linked), and the build cache restored into .errdex/cache (copied, as actions/cache does).
    const checkout = join(root, 'fresh-checkout');
    const skip = new Set(['node_modules', '.errdex', 'dist', '.git', '.astro']);
    const project = resolve('.');
    cpSync(project, checkout, { recursive: true, filter: (src) => !skip.has(relative(project, src).split(sep)[0]!) });
    symlinkSync(resolve('node_modules'), join(checkout, 'node_modules'));
    cpSync(join(root, 'cache'), join(checkout, '.errdex/cache'), { recursive: true });
    const before = hashes(dist);
    const freshDist = join(checkout, 'dist');
    const run = ciPages('build', { ERRDEX_CACHE_DIR: '.errdex/cache', ERRDEX_DIST: 'dist' }, checkout);
    expect(run.status, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toMatch(/4 error pages: \d+ pages rendered, 4 unchanged/);
    expect(run.stdout).toMatch(/full-text index of 4 pages.*\(unchanged\)/);
    // The same site as the last build's, file for file.
    expect(hashes(freshDist)).toEqual(before);
    expect(existsSync(join(checkout, '.errdex/cache/site'))).toBe(true);
  });

  it('renders every page again without the build cache, and stops a site over the size limit before publishing', () => {
    const before = hashes(dist);
    const run = ciPages('build', { ERRDEX_PAGES_MAX_BYTES: '1000', ERRDEX_CACHE_DIR: join(root, 'no-cache') });
    expect(run.stdout).toMatch(/pages rendered, 0 unchanged/);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/The site is [\d.]+ [KM]B \([\d,]+ bytes\), over the --host-limit bytes of 1\.0 KB per site\./);
    expect(run.stderr).toContain('docs/deploy.md');
    expect(run.outputs).toEqual({});
    // Nothing was published.
    expect(hashes(dist)).toEqual(before);
  });

  it('stops a catalog too large for the host once its records are counted, with the count and the fix, before anything is built', () => {
    const before = hashes(dist);
    // The Cloudflare Pages check with a file limit of 10: the 4 records need at least 16 files.
    const run = spawnSync(process.execPath, ['scripts/build.ts', '--host=cloudflare-pages', '--host-limit', 'files=10', '--no-ledger-update'], {
      encoding: 'utf8',
      env: { ...process.env, CI: '1', ERRDEX_DATA: catalog, ERRDEX_DIST: dist, ERRDEX_CACHE_DIR: join(root, 'cache') },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('4 records make at least 16 files (an error page, short link, JSON twin and full-text fragment each), over the --host-limit files of 10 files per site.');
    expect(run.stderr).toContain('no option makes 4 records fit 10 files');
    expect(run.stderr).toContain('docs/deploy.md');
    // Stopped after validation: nothing highlighted, rendered or published.
    expect(run.stdout).not.toMatch(/\[3\/\d+\] \d+ code blocks/);
    expect(hashes(dist)).toEqual(before);
  });

  it('is what the workflow runs, with the build cache alone kept between runs', () => {
    const workflow = readFileSync('.github/workflows/pages.yml', 'utf8');
    expect(workflow).toContain('run: bash scripts/ci-pages.sh build');
    expect(workflow).toContain('run: bash scripts/ci-pages.sh commit-ledger');
    // Each cache step's paths: the build cache, but the snapshot's pieces (docs/deploy.md).
    const cachedPaths = [...workflow.matchAll(/uses: actions\/cache\/(?:restore|save)@\S+\n\s+with:\n\s+path: \|\n((?:\s{12}\S.*\n)+)/g)].map((m) => m[1]!.trim().split(/\s+/));
    expect(cachedPaths).toEqual([
      ['.errdex/cache', '!.errdex/cache/snapshot'],
      ['.errdex/cache', '!.errdex/cache/snapshot'],
    ]);
    expect(workflow).toMatch(/ERRDEX_CACHE_DIR: \.errdex\/cache\n/);
    expect(workflow).toMatch(/ERRDEX_DIST: dist\n/);
  });
});
