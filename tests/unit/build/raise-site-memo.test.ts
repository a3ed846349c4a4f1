import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { syntheticRecords } from '../../../bench/lib/synthetic.ts';
import { memoRaiseSites } from '../../../src/build/raise-site-memo.ts';
import { loadCatalog } from '../../../src/catalog/catalog.ts';
import { leanSnapshotEntries, readSnapshot, writeSnapshot } from '../../../src/catalog/snapshot.ts';
import { raiseSites } from '../../../src/search/raise-site.ts';

type Line = { record: { filePath: string; lineNumber: number; sourceCode: string; sourceCodeStart: number } };

/**
 * A catalog's snapshot: records whose excerpts show their functions (five records of two files, some
 * excerpts starting below the definition) among 3,000 synthetic ones; `edit`: the first of the five gains
 * a definition above its raise line.
 */
function snapshotOf(dir: string, edit: boolean) {
  const catalogDir = join(dir, edit ? 'edited' : 'input');
  mkdirSync(catalogDir, { recursive: true });
  const lines = readFileSync(join(import.meta.dirname, '../../fixtures/catalogs/raise-sites/records.jsonl'), 'utf8').trimEnd().split('\n');
  if (edit) {
    const first = JSON.parse(lines[0]!) as Line;
    const r = first.record;
    const above = r.lineNumber - r.sourceCodeStart;
    const code = r.sourceCode.split('\n');
    code.splice(above, 0, 'function editedHere(source) {');
    r.sourceCode = code.join('\n');
    r.sourceCodeStart -= 1;
    lines[0] = JSON.stringify(first);
  }
  writeFileSync(join(catalogDir, 'records.jsonl'), `${[...lines, ...syntheticRecords({ count: 3000, seed: 5 })].join('\n')}\n`);
  const snapshot = join(catalogDir, 'snapshot.jsonl');
  writeSnapshot(snapshot, loadCatalog(catalogDir).entries);
  // What the message index read before the memo: every record whole, in one pass.
  const whole = raiseSites(readSnapshot(snapshot).map(({ record: r }) => ({ repo: r.repo, filePath: r.filePath, lineNumber: r.lineNumber, sourceCode: r.sourceCode, sourceCodeStart: r.sourceCodeStart })));
  return { snapshot, lean: [...leanSnapshotEntries(snapshot)], whole };
}

it("keeps the raise sites per source file: only the files whose records changed are read again, the sites those of every record read whole", () => {
  const dir = mkdtempSync(join(tmpdir(), 'errdex-raise-sites-'));
  const before = snapshotOf(dir, false);
  expect(before.whole.filter((s) => s.scope !== null).length).toBeGreaterThanOrEqual(5);
  const memo = { file: join(dir, 'cache', 'raise-sites.json'), code: 'code-1' };

  expect(memoRaiseSites(before.snapshot, before.lean, null)).toEqual({ sites: before.whole, read: 3005 });
  expect(memoRaiseSites(before.snapshot, before.lean, memo)).toEqual({ sites: before.whole, read: 3005 });
  expect(memoRaiseSites(before.snapshot, before.lean, memo)).toEqual({ sites: before.whole, read: 0 });

  // One record's excerpt edited: its file's records are read again (each from its line), and its scope
  // is the new definition's.
  const after = snapshotOf(dir, true);
  const edited = memoRaiseSites(after.snapshot, after.lean, memo);
  expect(edited.sites).toEqual(after.whole);
  expect(edited.sites).not.toEqual(before.whole);
  const file = after.lean.find((e) => e.record.repo === 'acme/builder' && e.record.lineNumber === 40)!.record;
  const sameFile = after.lean.filter((e) => e.record.repo === file.repo && e.record.filePath === file.filePath).length;
  expect(sameFile).toBeLessThan(100);
  expect(edited.read).toBe(sameFile);
  expect(memoRaiseSites(after.snapshot, after.lean, memo).read).toBe(0);
  // Another code's memo is not taken.
  expect(memoRaiseSites(after.snapshot, after.lean, { ...memo, code: 'code-2' }).read).toBe(3005);
});
