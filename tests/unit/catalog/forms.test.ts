/**
 * The forms a catalog file holds (src/schema/input-forms.ts): wrapped, bare, arrays of either, `$`
 * notes, no backgroundTag; and the dataset version a bare record takes, with its twin in wrapped form.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../src/catalog/catalog.ts';
import { buildDatasetVersion } from '../../../src/catalog/validate.ts';
import { readTwin } from '../../../src/schema/input-forms.ts';

const FORMS = resolve('tests/fixtures/catalogs/forms');

describe('the forms that exist', () => {
  const catalog = loadCatalog(FORMS);
  const byId = new Map(catalog.entries.map((e) => [e.record.id, e]));

  it('reads a bare record, an array file, and a .jsonl line holding an array, with no error', () => {
    expect(catalog.problems).toEqual([]);
    expect([...byId.keys()].sort()).toEqual(['00000000000000a1', '00000000000000a2', '00000000000000a3', '00000000000000a4', 'a0e1b2c3d4e5f607']);
    expect(catalog.total).toBe(5);
  });

  it('places each array item on its own line', () => {
    expect(byId.get('00000000000000a1')!.origin).toMatchObject({ file: expect.stringMatching(/widgets-array\.json$/), line: 2 });
    expect(byId.get('00000000000000a2')!.origin.line).toBeGreaterThan(40);
    expect(byId.get('00000000000000a4')!.origin).toMatchObject({ file: expect.stringMatching(/lines\.jsonl$/), line: 1 });
  });

  it('ignores $ keys and fills in a missing backgroundTag as null', () => {
    const axios = byId.get('a0e1b2c3d4e5f607')!;
    expect(axios.record.backgroundTag).toBeNull();
    expect(Object.keys(axios.record).some((k) => k.startsWith('$'))).toBe(false);
  });

  it("gives a bare record the file's, else the catalog's dataset version, and a wrapped twin that says which", () => {
    expect(byId.get('00000000000000a2')).toMatchObject({ datasetVersion: '2026-07-02T00:00:00Z', datasetVersionFrom: 'file' });
    expect(byId.get('00000000000000a4')).toMatchObject({ datasetVersion: '2026-07-01T00:00:00Z', datasetVersionFrom: 'file' });
    const axios = byId.get('a0e1b2c3d4e5f607')!;
    expect(axios).toMatchObject({ datasetVersion: '2026-07-02T00:00:00Z', datasetVersionFrom: 'catalog' });
    const twin = JSON.parse(axios.sourceText);
    expect(twin.datasetVersion).toBe('2026-07-02T00:00:00Z');
    expect(twin.$datasetVersionFrom).toBe('catalog');
    // The record in the twin is the catalog's text exactly, notes included.
    expect(axios.sourceText).toContain(readFileSync(join(FORMS, 'axios-bare.json'), 'utf8').trim());
    expect(readTwin(axios.sourceText)).toEqual({ record: axios.record, datasetVersionFrom: 'catalog' });
    // A wrapped record's twin is its text as given.
    expect(byId.get('00000000000000a1')!.datasetVersionFrom).toBeUndefined();
    expect(JSON.parse(byId.get('00000000000000a1')!.sourceText).$schema).toBe('https://errdex.dev/schema/error-record.json');
  });

  it("gives the build's dataset version (SOURCE_DATE_EPOCH) when no record has one", () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-bare-'));
    writeFileSync(join(dir, 'only.json'), readFileSync(join(FORMS, 'axios-bare.json')));
    // The entry reads SOURCE_DATE_EPOCH once (buildDatasetVersion) and hands the version down.
    const only = loadCatalog(dir, { datasetVersion: buildDatasetVersion({ SOURCE_DATE_EPOCH: '1767225600' }) }).entries[0]!;
    expect(only).toMatchObject({ datasetVersion: '2026-01-01T00:00:00.000Z', datasetVersionFrom: 'build' });
  });

  it('reports an excerpt longer than its span as a warning on its line, and builds the record', () => {
    expect(catalog.warnings).toHaveLength(1);
    expect(catalog.warnings[0]).toMatchObject({ field: 'sourceCode', line: 15, code: 'span', severity: 'warning' });
    expect(catalog.warnings[0]!.message).toMatch(/^has 16 lines, expected 14/);
  });

  it('names the fields of a bare record as the file writes them, with their lines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-bare-'));
    const bad = JSON.parse(readFileSync(join(FORMS, 'axios-bare.json'), 'utf8'));
    bad.severity = 'fatal';
    bad.messagePattern = '(?<=code )\\d+';
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(bad, null, 2));
    const problems = loadCatalog(dir).problems.map((p) => `${p.line} ${p.field} ${p.code}`);
    expect(problems.sort()).toEqual(['12 severity schema', '8 messagePattern pattern']);
  });
});
