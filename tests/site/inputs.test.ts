/**
 * Inputs that once crashed the build or vanished from it (deep nesting, a file name that is not
 * UTF-8, a FIFO, symbolic links), under `npm run validate`, the build, and `--skip-invalid`: each is
 * a problem line naming its file, the same in all three, and the valid records still build.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baseRecord } from '../fixtures/bad-catalogs/cases.ts';
import { buildSite } from '../support/site.ts';

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
