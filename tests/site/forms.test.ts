/**
 * A catalog in the forms other catalogs use (tests/fixtures/catalogs/forms: a bare entry with a
 * `$comment`, no backgroundTag and an excerpt longer than its span; an array file) builds unchanged:
 * every record published, the uncertain numbering shown on the page, the twins in wrapped form; and
 * `--strict` refuses the same catalog for its warning.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, buildSite, readText, type BuiltSite } from '../support/site.ts';

describe('a catalog of bare records and arrays', () => {
  let site: BuiltSite;
  beforeAll(() => {
    site = buildSite('forms', join(FIXTURES, 'forms'));
  }, 300_000);

  it('builds every record, and says so with the warning counted apart', () => {
    expect(site.status, site.stderr).toBe(0);
    expect(`${site.stdout}${site.stderr}`).toContain('5 records read: 5 built, 0 skipped, 1 warning (span 1)');
    const index = JSON.parse(readText(join(site.dist, 'api/errors.json'))) as { count: number };
    expect(index.count).toBe(5);
  });

  it("shows the excerpt's numbering as unverified, the thrown line found by its message, and whose dataset version it is", () => {
    const page = readText(join(site.dist, 'axios/axios/request-failed-with-status-code-a0e1b2/index.html'));
    expect(page).toMatch(/Line numbers unverified: the excerpt has 16 lines, but its span \(12–25\) has 14\./);
    expect(page).toContain('the thrown line is marked where the message text appears');
    // Numbered from 12, the raising line is the excerpt's 9th: line 20 is marked.
    expect(page).toMatch(/<span class="marked">20<\/span>/);
    expect(page).toContain("the catalog&#39;s newest, as the record and its file give none");
  });

  it("publishes a bare record's JSON twin in wrapped form", () => {
    const twin = JSON.parse(readText(join(site.dist, 'api/errors/a0e1b2c3d4e5f607.json')));
    expect(twin).toMatchObject({ datasetVersion: '2026-07-02T00:00:00Z', $datasetVersionFrom: 'catalog' });
    expect(twin.record.errorCode).toBe('ERR_BAD_RESPONSE');
  });

  it('--strict makes the warning fail the build', () => {
    const strict = buildSite('forms-strict', join(FIXTURES, 'forms'), { args: ['--strict'] });
    expect(strict.status).not.toBe(0);
    expect(strict.stderr).toContain('--strict makes warnings fail the build');
  }, 300_000);
});
