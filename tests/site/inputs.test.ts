/**
 * Inputs that once crashed the build or vanished from it (deep nesting, a file name that is not
 * UTF-8, a FIFO, symbolic links), under `npm run validate`, the build, and `--skip-invalid`: each is
 * a problem line naming its file, the same in all three, and the valid records still build. And
 * a URL ledger whose paths would leave their folder or enter the site's own: refused by both, by entry.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseRecord } from '../fixtures/bad-catalogs/cases.ts';
import { buildSite, FIXTURES } from '../support/site.ts';

const base = mkdtempSync(join(tmpdir(), 'errdex-inputs-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const root = join(base, 'catalog');
mkdirSync(root);
mkdirSync(join(base, 'outside'));
const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
writeFileSync(join(root, 'good.jsonl'), `${JSON.stringify(baseRecord(1))}\n{"record":${deep(4000)},"datasetVersion":"2026-07-02T00:00:00Z"}\n`);
writeFileSync(Buffer.concat([Buffer.from(`${root}/caf`), Buffer.from([0xe9]), Buffer.from('.jsonl')]), `${JSON.stringify(baseRecord(2))}\n`);
execFileSync('mkfifo', [join(root, 'pipe.jsonl')]);
writeFileSync(join(base, 'outside', 'three.jsonl'), `${JSON.stringify(baseRecord(3))}\n`);
symlinkSync(join(base, 'outside', 'three.jsonl'), join(root, 'three.jsonl'));
mkdirSync(join(root, 'inner'));
writeFileSync(join(root, 'inner', 'four.json.txt'), JSON.stringify(baseRecord(4)));
symlinkSync('inner/four.json.txt', join(root, 'four.json'));

/** The problem lines a run printed, with the temporary folder's path cut off. */
const problemLines = (output: string) =>
  output
    .split(`${root}/`)
    .join('')
    .split('\n')
    .filter((l) => /^\S+:\d+ {2}/.test(l));

const EXPECTED = [
  'caf\\xE9.jsonl:1  (file)  has a name that is not valid UTF-8 (the byte 0xE9); rename it to read it',
  'good.jsonl:2  record  is nested 4,001 levels deep; the limit is 64 (a record needs 3)',
  'pipe.jsonl:1  (file)  is not a regular file (a FIFO); it is not read',
  expect.stringMatching(/^three\.jsonl:1 {2}\(file\) {2}is a symbolic link to .*\/outside\/three\.jsonl, outside the catalog folder; it is not read$/),
];

describe('inputs that are reported, not crashed on', () => {
  it('npm run validate lists each with its file and exits 1', () => {
    const run = spawnSync(process.execPath, ['scripts/validate.ts'], { encoding: 'utf8', env: { ...process.env, ERRDEX_DATA: root } });
    expect(run.status, run.stderr).toBe(1);
    expect(problemLines(run.stderr)).toEqual(EXPECTED);
    expect(run.stderr).toMatch(/6 records read: 2 built, 4 skipped/);
  });

  it('the build lists the same and builds nothing', () => {
    const run = buildSite('inputs-strict', root);
    expect(run.status, run.stderr).toBe(1);
    expect(problemLines(run.stderr)).toEqual(EXPECTED);
    expect(existsSync(join(run.dist, 'index.html'))).toBe(false);
  });

  it('with --skip-invalid the valid records (one through a link inside the catalog) build, and the report names each skipped input', () => {
    const report = join(base, 'skipped.json');
    const run = buildSite('inputs-skip', root, { args: [`--skip-invalid=${report}`] });
    expect(run.status, run.stderr).toBe(0);
    const skipped = JSON.parse(readFileSync(report, 'utf8')) as { problems: { file: string; line: number; message: string }[] };
    expect(skipped.problems.map((p) => `${p.file.split(`${root}/`).join('')}:${p.line}`)).toEqual(['caf\\xE9.jsonl:1', 'good.jsonl:2', 'pipe.jsonl:1', 'three.jsonl:1']);
    const pages = ['0000000000000001', '0000000000000004'].map((id) => join(run.dist, 'acme', 'widgets', `widget-not-found-${id.slice(-6)}`, 'index.html'));
    for (const page of pages) expect(existsSync(page), page).toBe(true);
  });
});

describe('a URL ledger with paths no page may have', () => {
  const catalog = join(base, 'ledger-catalog');
  mkdirSync(catalog);
  writeFileSync(join(catalog, 'records.jsonl'), `${JSON.stringify(baseRecord(1))}\n`);
  const entry = (id: string, path: string) => JSON.stringify({ id, repo: 'acme/widgets', title: 'WidgetError: gone', paths: [path], since: '2026-01-01T00:00:00Z', removedIn: '2026-02-01T00:00:00Z' });
  const ledger = ['{', '  "version": 1,', '  "entries": [', `    ${entry('00000000000000aa', '/acme/widgets/../../../etc/')},`, `    ${entry('00000000000000bb', '/search/widgets/x/')}`, '  ]', '}', ''];
  writeFileSync(join(catalog, 'url-ledger.json'), ledger.join('\n'));
  const expected = [
    'url-ledger.json:4  entries.0.paths.0  is "/acme/widgets/../../../etc/", with 6 segments; it must be a page path such as "/owner/repo/slug/" (in the entry of record 00000000000000aa)',
    'url-ledger.json:5  entries.1.paths.0  is "/search/widgets/x/", inside the site\'s own folder /search/; a record\'s page is never there (in the entry of record 00000000000000bb)',
  ];
  const lines = (output: string) =>
    output
      .split(`${catalog}/`)
      .join('')
      .split('\n')
      .filter((l) => /^\S+:\d+ {2}/.test(l));

  it('npm run validate names each bad path with its file, line and entry', () => {
    const run = spawnSync(process.execPath, ['scripts/validate.ts'], { encoding: 'utf8', env: { ...process.env, ERRDEX_DATA: catalog } });
    expect(run.status, run.stderr).toBe(1);
    expect(lines(run.stderr)).toEqual(expected);
  });

  it('the build names them too and builds nothing, even with --skip-invalid', () => {
    const run = buildSite('inputs-ledger', catalog, { args: ['--skip-invalid'] });
    expect(run.status, run.stderr).toBe(1);
    expect(lines(run.stderr)).toEqual(expected);
    expect(existsSync(join(run.dist, 'index.html'))).toBe(false);
  });
});

describe('settings', () => {
  it('a wrong setting stops the build before any work, every wrong one named with its variable', () => {
    const env = { ERRDEX_REPORT_URL: 'javascript:alert(1)', ERRDEX_SITE_URL: 'not a url', ERRDEX_WORKERS: '0' };
    const run = buildSite('inputs-settings', join(FIXTURES, 'basic'), { env });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^3 settings are wrong:\n {2}ERRDEX_WORKERS .*\n {2}ERRDEX_SITE_URL .*"not a url"\.\n {2}ERRDEX_REPORT_URL .*"javascript:alert\(1\)"/);
    expect(run.stderr).toContain('Nothing was built.');
    expect(existsSync(run.dist)).toBe(false);
  });
});
