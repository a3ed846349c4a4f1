/**
 * The bench's edits (bench/lib/edits.ts): each keeps the catalog valid and changes what it says, and
 * a record added again (another run's, on the same catalog) is another record with its own page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyEdit, EDITS } from '../../../bench/lib/edits.ts';
import { generateCatalog } from '../../../bench/lib/generate.ts';
import { loadCatalog } from '../../../src/catalog/catalog.ts';

const dir = mkdtempSync(join(tmpdir(), 'errdex-edits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the bench’s edits', () => {
  it('keep the catalog valid, each edit after the one before, and two records added are two pages', async () => {
    await generateCatalog(dir, 40, 1, 'rich');
    const before = loadCatalog(dir);
    expect(before.problems).toEqual([]);
    for (const edit of EDITS) expect(applyEdit(dir, edit, `run 1 ${edit}`)).toMatch(new RegExp(`^${edit}: `));
    expect(applyEdit(dir, 'add', 'run 2')).toMatch(/^add: record [0-9a-f]{16}$/);
    const after = loadCatalog(dir);
    expect(after.problems).toEqual([]);
    // 40, one added and one removed in the first run, one added in the second.
    expect(after.entries).toHaveLength(41);
    const added = after.entries.filter((e) => e.record.slug.includes('-added-'));
    expect(added).toHaveLength(2);
    expect(new Set(added.map((e) => e.record.slug)).size).toBe(2);
  });
});
