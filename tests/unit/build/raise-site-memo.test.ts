import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { syntheticRecords } from '../../../bench/lib/synthetic.ts';
import { keepRaiseSites, keptRaiseSites, ONE_BY_ONE, readKeptSites, snapshotRaiseSites, sourceFiles } from '../../../src/build/raise-site-memo.ts';
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

  // Nothing kept: the sites read in one pass, then kept.
  expect(readKeptSites(memo)).toBeNull();
  const cold = snapshotRaiseSites(before.snapshot);
  expect(cold).toEqual(before.whole);
  keepRaiseSites(memo, sourceFiles(before.lean), cold, null);
  const written = statSync(memo.file).ino;
  const kept = readKeptSites(memo)!;
  expect(keptRaiseSites(before.snapshot, before.lean, sourceFiles(before.lean), kept)).toEqual({ sites: before.whole, read: 0 });
  // The same sites again: the memo is not written again.
  keepRaiseSites(memo, sourceFiles(before.lean), before.whole, kept);
  expect(statSync(memo.file).ino).toBe(written);

  // One record's excerpt edited: its file's records are read again (each from its line), and its scope
  // is the new definition's.
  const after = snapshotOf(dir, true);
  const edited = keptRaiseSites(after.snapshot, after.lean, sourceFiles(after.lean), kept)!;
  expect(edited.sites).toEqual(after.whole);
  expect(edited.sites).not.toEqual(before.whole);
  const file = after.lean.find((e) => e.record.repo === 'acme/builder' && e.record.lineNumber === 40)!.record;
  const sameFile = after.lean.filter((e) => e.record.repo === file.repo && e.record.filePath === file.filePath).length;
  expect(sameFile).toBeLessThan(100);
  expect(edited.read).toBe(sameFile);
  keepRaiseSites(memo, sourceFiles(after.lean), edited.sites, kept);
  expect(statSync(memo.file).ino).not.toBe(written);
  expect(keptRaiseSites(after.snapshot, after.lean, sourceFiles(after.lean), readKeptSites(memo)!)!.read).toBe(0);
  // More records to read than ONE_BY_ONE: none read beside the lean entries (the caller reads them in one pass).
  expect(3005).toBeGreaterThan(ONE_BY_ONE);
  expect(keptRaiseSites(after.snapshot, after.lean, sourceFiles(after.lean), {})).toBeNull();
  // Another code's memo is not taken.
  expect(readKeptSites({ ...memo, code: 'code-2' })).toBeNull();
});
