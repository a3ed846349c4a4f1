/**
 * The corpus of bad catalogs (tests/fixtures/bad-catalogs/): the validator's whole report for each
 * case, exactly; and for every case, that no record vanished without a problem naming it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, baseRecord, caseCatalog, caseNames, caseReport } from '../../fixtures/bad-catalogs/cases.ts';

const expected = (name: string) => readFileSync(join(CORPUS, name, 'expected-report.txt'), 'utf8').replace(/\n$/, '');

describe('the bad-catalog corpus', () => {
  const names = caseNames();

  it('covers every kind of breakage the validator must name', () => {
    expect(names).toEqual(
      expect.arrayContaining([
        'malformed-json', 'truncated-jsonl', 'bom', 'crlf', 'invalid-utf8', 'wrong-types', 'missing-and-unknown', 'schema-version',
        'empty-strings', 'huge-field', 'huge-excerpt', 'duplicate-ids', 'duplicate-slugs', 'repo-case', 'paths', 'github-url', 'message-pattern', 'unicode',
      ]),
    );
  });

  it.each(names)('%s: the report is exactly expected-report.txt', (name) => {
    expect(caseReport(name).report).toBe(expected(name));
  });

  it.each(names)('%s: every record is either valid or skipped with its problems; none vanishes', (name) => {
    const { catalog } = caseReport(name);
    const skippedRecords = new Set(catalog.skipped.map((s) => `${s.file}:${s.line}:${s.text}`));
    expect(catalog.entries.length + skippedRecords.size).toBe(catalog.total);
    for (const s of catalog.skipped) expect(s.problems.length).toBeGreaterThan(0);
    for (const p of catalog.problems) {
      expect(p.line).toBeGreaterThanOrEqual(1);
      expect(p.field).not.toBe('');
      expect(p.message).not.toBe('');
    }
  });
});

describe('accepted on purpose', () => {
  it('CRLF line endings: the records read exactly as with LF, and a JSON twin carries no stray \\r', () => {
    const { catalog } = caseReport('crlf');
    const byId = new Map(catalog.entries.map((e) => [e.record.id, e]));
    expect(byId.get('0000000000000001')!.record).toEqual(baseRecord(1).record);
    expect(byId.get('0000000000000002')!.record).toEqual(baseRecord(2).record);
    expect(byId.get('0000000000000001')!.sourceText).toBe(JSON.stringify(baseRecord(1)));
    expect(byId.get('0000000000000001')!.sourceText.includes('\r')).toBe(false);
    // CRLF inside an excerpt (escaped in JSON) counts as one line break each.
    expect(byId.get('0000000000000003')!.record.sourceCode).toContain('\r\n');
  });

  it('a byte-order mark at the start of a file is read past; the JSON twin does not carry it', () => {
    const { catalog } = caseReport('bom');
    const first = catalog.entries.find((e) => e.record.id === '0000000000000001')!;
    expect(first.record).toEqual(baseRecord(1).record);
    expect(first.sourceText.startsWith('\uFEFF')).toBe(false);
    expect(catalog.entries.map((e) => e.record.id).sort()).toEqual(['0000000000000001', '0000000000000002', '0000000000000003']);
  });

  it('emoji and combining marks are welcome in every free-text and label field', () => {
    const { catalog } = caseReport('unicode');
    const ids = catalog.entries.map((e) => e.record.id).sort();
    expect(ids).toEqual(['0000000000000003', '0000000000000004']);
    expect(catalog.byId.get('0000000000000003')!.record.filePath).toBe('src/store.py\u{1F4A5}');
  });

  it('__proto__ and constructor keys are reported and pollute nothing', () => {
    caseReport('missing-and-unknown');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('npm run validate on a bad catalog', () => {
  it('prints the same report and exits 1', () => {
    const root = caseCatalog('github-url');
    const run = spawnSync(process.execPath, ['scripts/validate.ts'], {
      encoding: 'utf8',
      env: { ...process.env, ERRDEX_DATA: root },
    });
    expect(run.status).toBe(1);
    const shown = root.replace(`${process.cwd()}/`, '');
    const [summary, ...report] = run.stderr.trimEnd().split(`${shown}/`).join('').split('\n').reverse();
    expect(report.reverse().join('\n')).toBe(expected('github-url'));
    expect(summary).toMatch(/^\S+: 18 records read: 0 built, 18 skipped \(schema 11, github-url 7\), 0 warnings; errors \(/);
  }, 30_000);

  const run = (name: string, ...args: string[]) =>
    spawnSync(process.execPath, ['scripts/validate.ts', ...args], { encoding: 'utf8', env: { ...process.env, ERRDEX_DATA: caseCatalog(name) } });

  it('--format=github prints one annotation per problem, errors and warnings', () => {
    const github = run('source-span', '--format=github');
    expect(github.status).toBe(1);
    const lines = github.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^::warning file=\S+records\.jsonl,line=1,title=span%3A record\.sourceCode::record\.sourceCode has 3 lines, expected 4/);
    expect(lines.slice(1).every((l) => l.startsWith('::error file='))).toBe(true);
  }, 30_000);

  it('warnings pass, and fail with --strict', () => {
    const root = caseCatalog('source-span');
    const onlyWarning = spawnSync(process.execPath, ['-e', `process.stdout.write(require('fs').readFileSync(${JSON.stringify(`${root}/records.jsonl`)}, 'utf8').split('\\n')[0])`], { encoding: 'utf8' }).stdout;
    const dir = mkdtempSync(join(tmpdir(), 'errdex-strict-'));
    writeFileSync(join(dir, 'one.jsonl'), `${onlyWarning}\n`);
    const env = { ...process.env, ERRDEX_DATA: dir };
    const plain = spawnSync(process.execPath, ['scripts/validate.ts'], { encoding: 'utf8', env });
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain('1 record read: 1 built, 0 skipped, 1 warning (span 1); valid');
    const strict = spawnSync(process.execPath, ['scripts/validate.ts', '--strict'], { encoding: 'utf8', env });
    expect(strict.status).toBe(1);
    expect(strict.stderr).toContain('warnings, which --strict makes fail');
  }, 30_000);
});
