/**
 * No empty or mass-removing publish by accident: a catalog emptied by --skip-invalid, or cut to a
 * quarter of its records, stops the build before it publishes, saying how many and why; the output
 * folder and the URL ledger stay as they were. --allow-mass-removal publishes an intended removal.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, buildSite, hashTree, listFiles } from '../support/site.ts';

const root = mkdtempSync(join(tmpdir(), 'errdex-guards-'));
const catalog = join(root, 'catalog');
const ledgerFile = join(catalog, 'url-ledger.json');
const dist = join(root, 'site', 'dist');
const twins = (dir: string) => listFiles(join(dir, 'api/errors')).sort();

describe('builds that would publish no or few of the published error pages', () => {
  let before: Map<string, string>;
  let ledger: string;

  beforeAll(() => {
    // The basic catalog's 4 records, published, with their ledger.
    cpSync(join(FIXTURES, 'basic'), catalog, { recursive: true, filter: (src) => basename(src) !== 'url-ledger.json' });
    const first = buildSite('unused', catalog, { dist, updateLedger: true });
    expect(first.status, first.stderr).toBe(0);
    before = hashTree(dist);
    ledger = readFileSync(ledgerFile, 'utf8');
    expect(twins(dist)).toHaveLength(4);
  }, 300_000);

  it('stops with --skip-invalid when every record is invalid, before publishing', () => {
    writeFileSync(join(catalog, 'samples.jsonl'), 'not json\n');
    writeFileSync(join(catalog, 'acme-widget.json'), '{"record": {"id": "nope"}}');
    const run = buildSite('unused', catalog, { dist, updateLedger: true, args: [`--skip-invalid=${join(root, 'skipped.json')}`] });
    cpSync(join(FIXTURES, 'basic'), catalog, { recursive: true, filter: (src) => basename(src) !== 'url-ledger.json' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('The catalog has no valid records');
    expect(hashTree(dist)).toEqual(before);
    expect(readFileSync(ledgerFile, 'utf8')).toBe(ledger);
  }, 300_000);

  it('stops a build that removes 3 of the 4 published error pages, by the site and by the ledger', () => {
    rmSync(join(catalog, 'samples.jsonl'));
    const run = buildSite('unused', catalog, { dist, updateLedger: true });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/would remove 3 of the 4 error pages of the published site \(.*\), and 3 of the 4 error pages of the URL ledger/);
    expect(run.stderr).toContain('--allow-mass-removal');
    expect(hashTree(dist)).toEqual(before);
    expect(readFileSync(ledgerFile, 'utf8')).toBe(ledger);
    // A new output folder (a CI runner's): the ledger still knows what was published.
    const fresh = buildSite('unused', catalog, { dist: join(root, 'fresh', 'dist'), updateLedger: true });
    expect(fresh.status).toBe(1);
    expect(fresh.stderr).toMatch(/would remove 3 of the 4 error pages of the URL ledger/);
    expect(readFileSync(ledgerFile, 'utf8')).toBe(ledger);
  }, 600_000);

  it('publishes the removal with --allow-mass-removal', () => {
    const run = buildSite('unused', catalog, { dist, updateLedger: true, args: ['--allow-mass-removal'] });
    expect(run.status, run.stderr).toBe(0);
    expect(twins(dist)).toEqual(['1111222233334444.json']);
    const entries = JSON.parse(readFileSync(ledgerFile, 'utf8')).entries as { removedIn: string | null }[];
    expect(entries.filter((e) => e.removedIn !== null)).toHaveLength(3);
  }, 300_000);
});
