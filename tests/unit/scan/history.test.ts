import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { history } from '../../../src/scan/history.ts';
import { scan, type CachedFile } from '../../../src/scan/scan.ts';
import { commitAll, git } from './fixture-repo.ts';

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
