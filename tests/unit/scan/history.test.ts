import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogReport, loadCatalog } from '../../../src/catalog/catalog.ts';
import type { ErrorRecord } from '../../../src/schema/record.ts';
import { carryHistory, history, recordHistory, type HistoryEvent, type SiteHistory } from '../../../src/scan/history.ts';
import { slugOf } from '../../../src/scan/ids.ts';
import { runHistory, runScan } from '../../../src/scan/run.ts';
import { sampleWrapped } from '../../support/records.ts';
import { scan, type CachedFile } from '../../../src/scan/scan.ts';
import { commitAll, FIXED_DATE, git } from './fixture-repo.ts';

/** A repository whose three commits add, edit, move and remove raise sites. */
function evolvingRepo(): { dir: string; shas: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'errdex-scan-history-'));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'remote', 'add', 'origin', 'https://github.com/acme/history-demo.git');
  mkdirSync(join(dir, 'acme'));
  const write = (path: string, text: string) => writeFileSync(join(dir, path), text);
  write('acme/queue.py', 'def push(item):\n    if item is None:\n        raise ValueError("item must not be None")\n    raise RuntimeError("queue is full")\n');
  write('acme/pool.py', 'def take():\n    raise LookupError("pool is empty, nothing to take")\n');
  const first = commitAll(dir, 'first');
  git(dir, 'tag', 'v1.0');
  // The message is edited; a site is added.
  write('acme/queue.py', 'def push(item):\n    if item is None:\n        raise ValueError("item must not be None or empty")\n    raise RuntimeError("queue is full")\n\n\ndef pop():\n    raise IndexError("pop from an empty queue")\n');
  const second = commitAll(dir, 'second');
  git(dir, 'tag', 'v1.1');
  // A file is renamed; a site is removed.
  renameSync(join(dir, 'acme/pool.py'), join(dir, 'acme/pools.py'));
  write('acme/queue.py', 'def push(item):\n    if item is None:\n        raise ValueError("item must not be None or empty")\n\n\ndef pop():\n    raise IndexError("pop from an empty queue")\n');
  const third = commitAll(dir, 'third');
  git(dir, 'tag', 'v1.10');
  return { dir, shas: [first, second, third] };
}

describe('scan: --history', () => {
  const repo = evolvingRepo();

  it('reports each site introduced, its message changed, its file moved and its removal, one site followed under one id', async () => {
    const h = await history({ dir: repo.dir, spec: `${repo.shas[0]}..${repo.shas[2]}` });
    expect(h.revisions.map((r) => r.sha)).toEqual(repo.shas);
    expect(h.presentAtStart).toBe(3);
    const byMessage = (m: string) => h.sites.find((s) => s.errorMessage === m)!;
    const edited = byMessage('item must not be None or empty');
    expect(edited.events.map((e) => [e.kind, e.at.sha])).toEqual([
      ['introduced', repo.shas[0]],
      ['changed', repo.shas[1]],
    ]);
    expect(edited.events[1]).toMatchObject({ from: 'item must not be None', to: 'item must not be None or empty' });
    expect(byMessage('pop from an empty queue').events.map((e) => e.kind)).toEqual(['introduced']);
    expect(byMessage('pop from an empty queue').events[0]!.at.sha).toBe(repo.shas[1]);
    expect(byMessage('queue is full').events.map((e) => [e.kind, e.at.sha])).toEqual([
      ['introduced', repo.shas[0]],
      ['removed', repo.shas[2]],
    ]);
    const moved = byMessage('pool is empty, nothing to take');
    expect(moved.events.map((e) => e.kind)).toEqual(['introduced', 'moved']);
    expect(moved.events[1]).toMatchObject({ from: 'acme/pool.py', to: 'acme/pools.py' });
    expect(moved.filePath).toBe('acme/pools.py');
    // Four sites in all, however many revisions saw them.
    expect(h.sites).toHaveLength(4);
  });

  it('walks tags in version order (v1.10 after v1.1)', async () => {
    const h = await history({ dir: repo.dir, spec: 'tags' });
    expect(h.revisions.map((r) => r.name)).toEqual(['v1.0', 'v1.1', 'v1.10']);
  });

  it("walks the tags of HEAD's line in the order of their commits, whatever their names, and leaves other lines' tags out", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-scan-history-lines-'));
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'remote', 'add', 'origin', 'https://github.com/acme/history-lines.git');
    const write = (text: string) => writeFileSync(join(dir, 'app.py'), text);
    write('raise ValueError("first wording of the message")\n');
    commitAll(dir, 'first');
    // An old naming scheme: by name it sorts after every v tag.
    git(dir, 'tag', 'zz_release_1');
    write('raise ValueError("second wording of the message")\n');
    commitAll(dir, 'second');
    git(dir, 'tag', 'v2.0');
    git(dir, 'tag', 'v2.0-rc1');
    // A maintenance branch: its tag never reaches main.
    git(dir, 'checkout', '-q', '-b', 'maint', 'zz_release_1');
    write('raise ValueError("a wording main never had")\n');
    commitAll(dir, 'maint');
    git(dir, 'tag', 'v1.9');
    git(dir, 'checkout', '-q', 'main');
    write('raise ValueError("third wording of the message")\n');
    commitAll(dir, 'third');
    git(dir, 'tag', 'v3.0');
    const h = await history({ dir, spec: 'tags' });
    expect(h.revisions.map((r) => r.name)).toEqual(['zz_release_1', 'v2.0', 'v2.0-rc1', 'v3.0']);
    expect(h.sites).toHaveLength(1);
    expect(h.sites[0]!.events.map((e) => [e.kind, e.at.name])).toEqual([
      ['introduced', 'zz_release_1'],
      ['changed', 'v2.0'],
      ['changed', 'v3.0'],
    ]);
  });

  it('gives the same records when files are reused from an earlier scan as when every file is read', async () => {
    const cache = new Map<string, CachedFile>();
    await scan({ dir: repo.dir, rev: repo.shas[1], cache });
    expect(cache.size).toBe(2);
    const reused = await scan({ dir: repo.dir, rev: repo.shas[2], cache });
    const fresh = await scan({ dir: repo.dir, rev: repo.shas[2] });
    expect(reused.records).toEqual(fresh.records);
    expect(reused.summary.filesRead).toEqual(fresh.summary.filesRead);
  });
});

describe("scan: --history --out, the catalog with each record's history", () => {
  const repo = evolvingRepo();
  const revision = (i: number) => ({ name: ['v1.0', 'v1.1', 'v1.10'][i]!, sha: repo.shas[i]!, date: new Date(FIXED_DATE).toISOString() });
  const [v1, v2, v3] = [revision(0), revision(1), revision(2)];

  it("writes the last revision's sites and the removed ones, each with since, earlier messages and removal, all valid", async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'errdex-history-out-')), 'catalog');
    const { file, records } = await runHistory({ dir: repo.dir, spec: 'tags', out, log: () => {} });
    const catalog = loadCatalog(out);
    expect(catalogReport(catalog)).not.toMatch(/error/);
    expect(catalog.problems).toEqual([]);
    const byId = (rs: ErrorRecord[]) => [...rs].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(byId(catalog.entries.map((e) => e.record))).toEqual(byId(records));
    expect(file).toBe(join(out, 'acme-history-demo.jsonl'));
    const byMessage = new Map(records.map((r) => [r.errorMessage, r]));
    expect([...byMessage.keys()].sort()).toEqual(['item must not be None or empty', 'pool is empty, nothing to take', 'pop from an empty queue', 'queue is full']);
    expect(byMessage.get('item must not be None or empty')!.history).toEqual({
      scannedFrom: v1,
      introduced: v1,
      messageChanges: [{ at: v2, errorMessage: 'item must not be None', messagePattern: 'item must not be None' }],
    });
    expect(byMessage.get('pop from an empty queue')!.history).toEqual({ scannedFrom: v1, introduced: v2, messageChanges: [] });
    // The removed site stays, as last seen (at v1.1, the last revision that had it), after the present ones.
    const removed = byMessage.get('queue is full')!;
    expect(removed.history).toEqual({ scannedFrom: v1, introduced: v1, messageChanges: [], removed: v3 });
    expect(removed.analyzedSha).toBe(repo.shas[1]);
    expect(records.at(-1)).toBe(removed);
    // Each slug goes with the id the site is known by (a slug made from a later id collides with other pages).
    expect(records.filter((r) => r.slug !== slugOf(r.errorMessage, r.id))).toEqual([]);
    // A moved file is no message change.
    expect(byMessage.get('pool is empty, nothing to take')!.history!.messageChanges).toEqual([]);
  });

  it("keeps person-written prose with --merge, and each record's history", async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'errdex-history-merge-')), 'catalog');
    const first = await runHistory({ dir: repo.dir, spec: 'tags', out, log: () => {} });
    const lines = readFileSync(first.file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { record: ErrorRecord; datasetVersion: string });
    for (const l of lines) l.record.documentation = `Written by a person about ${l.record.id}.`;
    writeFileSync(first.file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const again = await runHistory({ dir: repo.dir, spec: 'tags', out, merge: out, log: () => {} });
    expect(again.merge!.keptProse).toBe(4);
    expect(again.records.map((r) => r.documentation)).toEqual(first.records.map((r) => `Written by a person about ${r.id}.`));
    expect(again.records.map((r) => r.history)).toEqual(first.records.map((r) => r.history));
  });

  it('goes on with the histories when a later commit is scanned with --merge: the same histories as one history run over all of it', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'errdex-history-carry-')), 'catalog');
    await runHistory({ dir: repo.dir, spec: `${repo.shas[0]}..${repo.shas[1]}`, out, log: () => {} });
    const { records } = await runScan({ dir: repo.dir, rev: repo.shas[2], out, merge: out, log: () => {} });
    const whole = await runHistory({ dir: repo.dir, spec: `${repo.shas[0]}..${repo.shas[2]}`, out: join(mkdtempSync(join(tmpdir(), 'errdex-history-whole-')), 'whole.jsonl'), log: () => {} });
    // Revisions by commit: the range names them by short sha, the scan names the tagged commit by its tag.
    const shas = (r: ErrorRecord) => JSON.stringify(r.history, (k, v) => (k === 'name' ? undefined : v));
    const byMessage = (rs: ErrorRecord[]) => Object.fromEntries(rs.map((r) => [r.errorMessage, shas(r)]));
    expect(byMessage(records)).toEqual(byMessage(whole.records));
    expect(records.find((r) => r.errorMessage === 'queue is full')!.history!.removed).toEqual(v3);
    expect(loadCatalog(out).problems).toEqual([]);
  });

  it('carries an edited message into the history at the scanned revision, and brings a removed site back', () => {
    const base = (sampleWrapped()[0]!.record as unknown) as ErrorRecord;
    const old: ErrorRecord = { ...base, id: 'a'.repeat(16), errorMessage: 'old {x}', messagePattern: 'old (.+?)', history: { scannedFrom: v1, introduced: v1, messageChanges: [] } };
    const back: ErrorRecord = { ...base, id: 'b'.repeat(16), history: { scannedFrom: v1, introduced: v1, messageChanges: [], removed: v2 } };
    const out = carryHistory([{ ...old, errorMessage: 'new {x}', messagePattern: 'new (.+?)', history: undefined }, { ...back, history: undefined }, { ...base, id: 'c'.repeat(16) }], [old, back], [], v3);
    expect(out.map((r) => r.history)).toEqual([
      { scannedFrom: v1, introduced: v1, messageChanges: [{ at: v3, errorMessage: 'old {x}', messagePattern: 'old (.+?)' }] },
      { scannedFrom: v1, introduced: v3, messageChanges: [] },
      { scannedFrom: v1, introduced: v3, messageChanges: [] },
    ]);
    // A catalog without histories is left alone.
    expect(carryHistory([base], [{ ...base, history: undefined }], [], v3)).toEqual([base]);
  });

  it("gives a new site that raises a followed site's earlier message in its place an id of its own", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'errdex-scan-history-reuse-'));
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'remote', 'add', 'origin', 'https://github.com/acme/reuse-demo.git');
    const write = (text: string) => writeFileSync(join(dir, 'check.py'), text);
    write('def check(x):\n    if x < 0:\n        raise ValueError("x is out of range")\n');
    const first = commitAll(dir, 'first');
    // The message is edited: the site is followed under its first id.
    write('def check(x):\n    if x < 0:\n        raise ValueError("x is out of the allowed range")\n');
    commitAll(dir, 'second');
    // A new site in the same function raises the first wording again: its natural id is the followed site's.
    write('def check(x):\n    if x < 0:\n        raise ValueError("x is out of the allowed range")\n    if x > 9:\n        raise ValueError("x is out of range")\n');
    const third = commitAll(dir, 'third');
    const out = join(mkdtempSync(join(tmpdir(), 'errdex-history-reuse-out-')), 'catalog');
    const { records } = await runHistory({ dir, spec: `${first}..${third}`, out, log: () => {} });
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
    expect(loadCatalog(out).problems).toEqual([]);
    const byMessage = new Map(records.map((r) => [r.errorMessage, r]));
    expect(byMessage.get('x is out of the allowed range')!.history!.messageChanges.map((c) => c.errorMessage)).toEqual(['x is out of range']);
    expect(byMessage.get('x is out of range')!.history!.introduced.sha).toBe(third);
  });

  it("folds a site's events into its history field: the last introduction, every change, a removal only when last", () => {
    const site = (events: HistoryEvent[]): SiteHistory => ({ id: 'a'.repeat(16), errorMessage: 'm', filePath: 'f.py', errorClass: null, events });
    const back = recordHistory(site([{ kind: 'introduced', at: v1 }, { kind: 'removed', at: v2 }, { kind: 'introduced', at: v3 }]), v1);
    expect(back).toEqual({ scannedFrom: v1, introduced: v3, messageChanges: [] });
    const gone = recordHistory(site([{ kind: 'introduced', at: v1 }, { kind: 'changed', at: v2, from: 'a {x}', fromPattern: 'a (.+?)', to: 'b {x}' }, { kind: 'moved', at: v3, from: 'f.py', to: 'g.py' }, { kind: 'removed', at: v3 }]), v1);
    expect(gone).toEqual({ scannedFrom: v1, introduced: v1, messageChanges: [{ at: v2, errorMessage: 'a {x}', messagePattern: 'a (.+?)' }], removed: v3 });
  });
});
