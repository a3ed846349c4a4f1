import { describe, expect, it } from 'vitest';
import { EARLY_HIGHLIGHT_BYTES, EARLY_RENDER_BYTES, LEAN_HEAP_FLAGS, partitionCount, plan, PARTITION_RECORDS, SMALL_EDIT_RECORDS, STAGES, stageProcess, type Plan, type StageName } from '../../../src/build/plan.ts';

const machine = { cores: 2 };
const defaults = { workers: null, partitionRecords: null, earlyHighlightBytes: null };
const needs = (p: Plan, name: StageName) => p.stages.find((s) => s.name === name)!.needs;
const priority = (p: Plan, name: StageName) => p.stages.find((s) => s.name === name)!.priority;

describe('partitionCount', () => {
  it('renders a catalog of up to one partition in one process, a larger one in partitions of at most the size, a multiple of the workers', () => {
    const opts = { explicit: false, single: 25_000, size: 50_000 };
    expect(partitionCount(3, 2, opts)).toBe(1);
    expect(partitionCount(25_000, 2, opts)).toBe(1);
    expect(partitionCount(25_001, 2, opts)).toBe(2);
    expect(partitionCount(100_000, 2, opts)).toBe(2);
    expect(partitionCount(100_001, 2, opts)).toBe(4);
    expect(partitionCount(300_000, 4, opts)).toBe(8);
    expect(partitionCount(100_000, 2, { explicit: false, single: 25_000, size: 25_000 })).toBe(4);
    // ERRDEX_WORKERS set: at least one partition per worker.
    expect(partitionCount(12, 2, { explicit: true, single: 4, size: 4 })).toBe(3);
    expect(partitionCount(12, 2, { explicit: true, single: 25_000, size: 50_000 })).toBe(2);
  });
});

describe('plan', () => {
  it('lists every stage once, each needing only stages before it in the graph', () => {
    const p = plan({ bytes: 1e6, records: 10_000 }, machine, defaults);
    expect(p.stages.map((s) => s.name).sort()).toEqual([...STAGES].sort());
    // A topological order exists: no stage waits for itself through others.
    const done = new Set<string>();
    let progress = true;
    while (progress) {
      progress = false;
      for (const s of p.stages) if (!done.has(s.name) && s.needs.every((n) => done.has(n))) (done.add(s.name), (progress = true));
    }
    expect(done.size).toBe(STAGES.length);
  });

  it('before the records are counted: validation and derive first, the render process started early', () => {
    const p = plan({ bytes: 1e6, records: null }, machine, defaults);
    expect(p.partitions).toBeNull();
    expect(needs(p, 'validate')).toEqual([]);
    expect(needs(p, 'derive')).toEqual(['validate']);
    expect(p.render.earlyProcess).toBe(true);
    expect(p.highlight.fromCatalogFiles).toBe(false);
  });

  it('one partition: the indexes and record files start with the snapshot at the low priority, highlighting beside derive', () => {
    const p = plan({ bytes: 30e6, records: 10_000 }, machine, defaults);
    expect(p.partitions).toBe(1);
    expect(p.render.earlyProcess).toBe(true);
    expect(needs(p, 'highlight')).toEqual(['validate']);
    expect(priority(p, 'highlight')).toBe('normal');
    for (const s of ['full-text', 'message-index', 'record-files'] as const) {
      expect(needs(p, s)).toEqual(['validate']);
      expect(priority(p, s)).toBe('low');
    }
    expect(needs(p, 'render')).toEqual(['derive', 'highlight']);
    expect(p.render.lanes).toEqual([[]]);
    expect(needs(p, 'publish').sort()).toEqual(['full-text', 'list-index', 'message-index', 'record-files', 'render']);
    expect(needs(p, 'ledger')).toEqual(['publish']);
    // Memory is no constraint: V8's own heap growth, the least CPU.
    expect(p.leanHeaps).toBe(false);
    expect(stageProcess(p, 'highlight')).toEqual({ priority: 'normal', nodeFlags: [] });
  });

  it('an edit of a catalog of one partition: the full-text index at the render\'s priority, the others low', () => {
    const reusing = { reusing: true, shard: false };
    const p = plan({ bytes: 30e6, records: 10_000, changed: 1 }, machine, defaults, reusing);
    // It indexes again the part holding the edited record: the longest task beside the render, begun as
    // soon as the snapshot is written (the stage waits for it), before validation writes the head.
    expect(priority(p, 'full-text')).toBe('normal');
    expect(needs(p, 'full-text')).toEqual([]);
    expect(needs(plan({ bytes: 30e6, records: null }, machine, defaults, reusing), 'full-text')).toEqual([]);
    expect(priority(p, 'render')).toBe('normal');
    for (const s of ['message-index', 'record-files', 'list-index'] as const) expect(priority(p, s)).toBe('low');
    // Before the records are counted too: the stage may start then.
    expect(priority(plan({ bytes: 30e6, records: null }, machine, defaults, reusing), 'full-text')).toBe('normal');
  });

  it('one partition from large files: highlighting from the files at the start, gathering the snapshot after validation', () => {
    const p = plan({ bytes: EARLY_HIGHLIGHT_BYTES + 1, records: 20_000 }, machine, defaults);
    expect(p.highlight).toEqual({ fromCatalogFiles: true, snapshotAfter: 'validate' });
    expect(needs(p, 'highlight')).toEqual([]);
    expect(priority(p, 'highlight')).toBe('low');
    expect(needs(p, 'full-text')).toEqual(['validate']);
    // A large catalog by its files: its processes keep their heaps lean from the start.
    expect(p.leanHeaps).toBe(true);
  });

  it('several partitions: the full-text index first at normal priority, then the message index and record files; the second lane waits for both indexes', () => {
    const p = plan({ bytes: 100e6, records: 100_000 }, machine, defaults);
    expect(p.partitions).toBe(2);
    expect(p.render.earlyProcess).toBe(false);
    expect(needs(p, 'highlight')).toEqual(['derive']);
    expect(needs(p, 'full-text')).toEqual(['validate']);
    expect(priority(p, 'full-text')).toBe('normal');
    expect(needs(p, 'message-index')).toEqual(['full-text']);
    expect(priority(p, 'message-index')).toBe('normal');
    expect(needs(p, 'record-files')).toEqual(['full-text']);
    expect(priority(p, 'record-files')).toBe('low');
    expect(p.render.lanes).toEqual([[{ stage: 'message-index', ifStarted: true }], [{ stage: 'message-index', ifStarted: false }]]);
    // Their processes run at once: each keeps its heap close to what it holds.
    expect(p.leanHeaps).toBe(true);
    expect(stageProcess(p, 'message-index')).toEqual({ priority: 'normal', nodeFlags: LEAN_HEAP_FLAGS });
    expect(stageProcess(p, 'record-files')).toEqual({ priority: 'low', nodeFlags: LEAN_HEAP_FLAGS });
  });

  it('several partitions from large files: the full-text index waits for validation\'s process to end', () => {
    const p = plan({ bytes: EARLY_HIGHLIGHT_BYTES + 1, records: 100_000 }, machine, defaults);
    expect(p.highlight).toEqual({ fromCatalogFiles: true, snapshotAfter: 'derive' });
    expect(needs(p, 'highlight')).toEqual([]);
    expect(needs(p, 'full-text')).toEqual(['derive']);
  });

  it('follows the settings: workers, partition size and the early-highlight threshold', () => {
    const p = plan({ bytes: 10, records: 12 }, machine, { workers: 2, partitionRecords: 4, earlyHighlightBytes: 1 });
    expect(p.workers).toBe(2);
    expect(p.partitions).toBe(3);
    expect(p.render.lanes).toHaveLength(2);
    expect(p.highlight.fromCatalogFiles).toBe(true);
    expect(plan({ bytes: 10, records: 12 }, { cores: 6 }, defaults).workers).toBe(6);
  });

  it('is pure: the same facts give the same plan', () => {
    const facts = { bytes: 5e6, records: 30_000 };
    expect(plan(facts, machine, defaults)).toEqual(plan(facts, machine, defaults));
  });

  it('highlights nothing ahead when the published pages may be reused: the render highlights what it renders', () => {
    const skip = (p: Plan, name: StageName) => p.stages.find((s) => s.name === name)!.skip;
    const cold = plan({ bytes: EARLY_HIGHLIGHT_BYTES + 1, records: 100_000 }, machine, defaults);
    expect(skip(cold, 'highlight')).toBeUndefined();
    const reusing = plan({ bytes: EARLY_HIGHLIGHT_BYTES + 1, records: 100_000 }, machine, defaults, { reusing: true, shard: false });
    expect(skip(reusing, 'highlight')).toMatch(/not ahead of the render/);
    expect(reusing.highlight.fromCatalogFiles).toBe(false);
    for (const name of STAGES.filter((n) => n !== 'highlight')) expect(skip(reusing, name), name).toBeUndefined();
  });

  it('renders in the partitions the changed entries take when the published pages may be reused', () => {
    const reusing = { reusing: true, shard: false };
    // An edit of a few entries, or a merge of shards (none changed): one render process, its stages beside it.
    const edit = plan({ bytes: 1e6, records: 40_000, changed: 3 }, machine, defaults, reusing);
    expect(edit.partitions).toBe(1);
    expect(needs(edit, 'record-files')).toEqual(['validate']);
    // Its stages beside the render still read the whole catalog, all at once: lean heaps.
    expect(edit.leanHeaps).toBe(true);
    expect(plan({ bytes: 1e6, records: 20_000, changed: 3 }, machine, defaults, reusing).leanHeaps).toBe(false);
    // A few entries of a catalog whose stages run after the full-text index: they take the others from
    // the build cache and hold little, so their heaps grow as V8 likes; more entries, or none known, lean.
    expect(plan({ bytes: 1e6, records: 100_000, changed: 3 }, machine, defaults, reusing).leanHeaps).toBe(false);
    expect(plan({ bytes: 1e6, records: 100_000, changed: SMALL_EDIT_RECORDS + 1 }, machine, defaults, reusing).leanHeaps).toBe(true);
    expect(plan({ bytes: 1e6, records: 100_000, changed: null }, machine, defaults, reusing).leanHeaps).toBe(true);
    expect(plan({ bytes: 1e6, records: 100_000, changed: 3 }, machine, defaults).leanHeaps).toBe(true);
    expect(plan({ bytes: 1e6, records: 40_000, changed: 0 }, machine, defaults, reusing).partitions).toBe(1);
    // Most entries changed, or nothing known of them: the catalog's partitions, as a cold build.
    expect(plan({ bytes: 1e6, records: 40_000, changed: 30_000 }, machine, defaults, reusing).partitions).toBe(2);
    expect(plan({ bytes: 1e6, records: 40_000, changed: null }, machine, defaults, reusing).partitions).toBe(2);
    // Not reusing: the changed count does not matter.
    expect(plan({ bytes: 1e6, records: 40_000, changed: 3 }, machine, defaults).partitions).toBe(2);
    // Above one partition's records: still one render process, but the stages beside it in a large catalog's
    // order (the full-text index first, then the others), as they each read the whole catalog.
    const large = plan({ bytes: 1e6, records: PARTITION_RECORDS + 1, changed: 3 }, machine, defaults, reusing);
    expect(large.partitions).toBe(1);
    expect(large.render.earlyProcess).toBe(true);
    // Catalog files too large for the early process's first heap limit: it is not started, to be ended.
    expect(plan({ bytes: EARLY_RENDER_BYTES + 1, records: null }, machine, defaults, reusing).render.earlyProcess).toBe(false);
    expect(plan({ bytes: EARLY_RENDER_BYTES, records: null }, machine, defaults, reusing).render.earlyProcess).toBe(true);
    for (const s of ['record-files', 'list-index'] as const) expect(needs(large, s)).toEqual(['full-text']);
    // The message index, the largest of them, after the render process too.
    expect(needs(large, 'message-index')).toEqual(['full-text', 'render']);
    // From the build's start: the stage waits for the snapshot alone, not for validation's end.
    expect(needs(large, 'full-text')).toEqual([]);
    expect(priority(large, 'full-text')).toBe('normal');
    expect(large.render.lanes).toEqual([[]]);
    // The same by the ERRDEX_PARTITION_RECORDS setting (the site tests' small catalogs).
    const small = plan({ bytes: 10, records: 12, changed: 1 }, machine, { ...defaults, partitionRecords: 4 }, reusing);
    expect([small.partitions, needs(small, 'record-files')]).toEqual([1, ['full-text']]);
    // Many changed: the partitions their count takes, the large catalog's order.
    expect(plan({ bytes: 1e6, records: 100_000, changed: 60_000 }, machine, defaults, reusing).partitions).toBe(2);
    // A shard reusing its pages: by its own records.
    expect(plan({ bytes: 1e6, records: 100_000, rendered: 40_000, changed: 3 }, machine, defaults, { reusing: true, shard: true }).partitions).toBe(1);
    expect(plan({ bytes: 1e6, records: 100_000, rendered: 40_000, changed: 70_000 }, machine, defaults, { reusing: true, shard: true }).partitions).toBe(2);
  });

  it("leaves a shard's build the catalog-wide stages for the merge (but shard 1's message index), and partitions its render by its own records", () => {
    const skip = (p: Plan, name: StageName) => p.stages.find((s) => s.name === name)!.skip;
    const shard = plan({ bytes: EARLY_HIGHLIGHT_BYTES + 1, records: 100_000, rendered: 20_000 }, machine, defaults, { reusing: false, shard: true });
    expect(STAGES.filter((n) => skip(shard, n) !== undefined)).toEqual(['message-index', 'ledger']);
    // Shard 1 makes the message index, from the whole catalog, for the merge.
    const first = plan({ bytes: 1e6, records: 100_000, rendered: 20_000 }, machine, defaults, { reusing: false, shard: true, firstShard: true });
    expect(STAGES.filter((n) => skip(first, n) !== undefined)).toEqual(['ledger']);
    // From the catalog's files would highlight every record's blocks, not the shard's.
    expect(shard.highlight.fromCatalogFiles).toBe(false);
    // 20,000 records of its own: one render partition, not the two the catalog's 100,000 take.
    expect(shard.partitions).toBe(1);
    expect(plan({ bytes: 1e6, records: 100_000 }, machine, defaults).partitions).toBe(2);
  });
});
