import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ErrorRecord } from '../../../src/schema/record.ts';
import { loadCatalog } from '../../../src/catalog/catalog.ts';
import { runScan } from '../../../src/scan/run.ts';
import { scan } from '../../../src/scan/scan.ts';
import { commitAll, fixtureRepo } from './fixture-repo.ts';

const CLIENT = 'acme/client.py';

function edit(dir: string, path: string, change: (text: string) => string): void {
  const file = join(dir, path);
  writeFileSync(file, change(readFileSync(file, 'utf8')));
}

const readRecords = (file: string): ErrorRecord[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { record: ErrorRecord }).record);

describe('scan: ids across commits, and --merge', { timeout: 60_000 }, () => {
  it('keeps every id when lines move and other code changes', async () => {
    const dir = fixtureRepo('python');
    const before = await scan({ dir });
    edit(dir, CLIENT, (t) => `import os\n\n\n# a new header comment\n${t.replace('return payload', 'payload = bytes(payload)\n        return payload')}`);
    commitAll(dir, 'unrelated edits');
    const after = await scan({ dir });
    expect(after.summary.sha).not.toBe(before.summary.sha);
    expect(after.records.map((r) => r.id)).toEqual(before.records.map((r) => r.id));
    expect(after.records[0]!.lineNumber).toBe(before.records[0]!.lineNumber! + 4);
    // --rev reads the earlier commit again, byte for byte the same records.
    expect((await scan({ dir, rev: 'HEAD~1' })).records).toEqual(before.records);
  });

  it('merges: keeps person-written prose and ids of edited messages, reports added and gone, brings the ledger', async () => {
    const dir = fixtureRepo('python');
    const first = mkdtempSync(join(tmpdir(), 'errdex-merge-'));
    const firstRun = await runScan({ dir, out: first, log: () => {} });
    // A person improves one record and the catalog has a URL ledger from its builds.
    const lines = readFileSync(firstRun.file, 'utf8').trim().split('\n');
    const edited = lines.map((l) => {
      const w = JSON.parse(l) as { record: ErrorRecord };
      if (w.record.errorMessage === 'client closed: {reason}') {
        w.record.documentation = 'Raised after close(); create a new client.';
        w.record.solutions = ['Open a new Client instead of reusing a closed one'];
      }
      return JSON.stringify(w);
    });
    writeFileSync(firstRun.file, `${edited.join('\n')}\n`);
    writeFileSync(join(first, 'url-ledger.json'), '{"version": 1, "entries": []}\n');

    // Next commit: one message reworded, one raise removed, one added.
    edit(dir, CLIENT, (t) =>
      t
        .replace('empty payload for %(stage)s', 'empty payload received for %(stage)s')
        .replace('            raise LookupError(message="resource not found")\n', '            return None\n')
        .replace('    def status(self, code):', '    def reset(self):\n        raise RuntimeError("reset is not supported")\n\n    def status(self, code):'),
    );
    commitAll(dir, 'second');
    const second = mkdtempSync(join(tmpdir(), 'errdex-merge-'));
    const log: string[] = [];
    const run = await runScan({ dir, out: second, merge: first, log: (l) => log.push(l) });
    const m = run.merge!;
    expect(m.changed.map((c) => [c.before.errorMessage, c.after.errorMessage])).toEqual([['empty payload for {stage}', 'empty payload received for {stage}']]);
    expect(m.changed[0]!.after.id).toBe(m.changed[0]!.before.id);
    expect(m.changed[0]!.after.slug).not.toBe(m.changed[0]!.before.slug); // the build redirects the old slug
    expect(m.added.map((r) => r.errorMessage)).toEqual(['reset is not supported']);
    expect(m.gone.map((r) => r.errorMessage)).toEqual(['resource not found']);
    expect(m.unchanged).toBe(firstRun.records.length - 2);
    expect(m.keptProse).toBe(1);
    expect(log.join('\n')).toContain('1 changed');

    const written = readRecords(run.file);
    const closed = written.find((r) => r.errorMessage === 'client closed: {reason}')!;
    expect(closed.documentation).toBe('Raised after close(); create a new client.');
    expect(closed.solutions).toEqual(['Open a new Client instead of reusing a closed one']);
    expect(closed.analyzedSha).toBe(run.summary.sha);
    expect(closed.triggerScenarios).toContain('Generated from the code by errdex scan');
    expect(existsSync(join(second, 'url-ledger.json'))).toBe(true);
  });

  it('merges in place in a folder holding other repositories, which stay as they were', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'errdex-merge-'));
    const go = await runScan({ dir: fixtureRepo('go'), out: folder, log: () => {} });
    const goText = readFileSync(go.file, 'utf8');
    const py = fixtureRepo('python');
    const first = await runScan({ dir: py, out: folder, log: () => {} });
    const again = await runScan({ dir: py, out: folder, merge: folder, log: () => {} });
    expect(again.file).toBe(first.file);
    expect(again.merge!.unchanged).toBe(first.records.length);
    expect(readFileSync(go.file, 'utf8')).toBe(goText);
    const catalog = loadCatalog(folder);
    expect(catalog.problems).toEqual([]);
    expect(catalog.entries).toHaveLength(go.records.length + first.records.length);
  });

  it('refuses to merge with a broken catalog, naming the problem', async () => {
    const dir = fixtureRepo('go');
    const bad = mkdtempSync(join(tmpdir(), 'errdex-merge-'));
    writeFileSync(join(bad, 'x.jsonl'), '{"record": {"id": "nope"}, "datasetVersion": "2026-01-01T00:00:00Z"}\n');
    await expect(runScan({ dir, out: bad, merge: bad, log: () => {} })).rejects.toThrow(/x\.jsonl:1/);
  });
});
