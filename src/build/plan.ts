/**
 * The build's plan: which stages run, what each needs before it starts, what it reads and writes, at
 * which priority, how many render partitions and workers. A pure function of what is known of the
 * catalog, the machine and the settings, so that every decision about order lives here, one place a
 * test can read, and the stages (src/build/stages/) only do their work.
 *
 * The build makes the plan twice: at its start, when the catalog files' bytes are all it knows (which
 * stages start beside validation), and again once validation has counted the valid records (how many
 * render partitions, and from there what runs together). Stages not begun by then follow the second.
 *
 * Memory and the two cores decide the order. A catalog that renders in one partition (up to 25,000
 * records) leaves a core beside its one render process: the full-text index, the message index and
 * the record files start with the snapshot, at the low priority (but the full-text index in an edit,
 * whose path it is), and highlighting beside derive. A larger one cannot hold everything at once
 * (validation's process, a render process, Pagefind and the message index each hold some gigabyte
 * at 100k records: docs/benchmarks.md): the full-text index comes first, then the message index and
 * the record files, and the second render process waits for both indexes; so too beside the one
 * render process of an edit of a large catalog, where the message index also waits for the render
 * to end.
 * Catalog files above EARLY_HIGHLIGHT_BYTES are highlighted as they are from the start.
 */

/** The stages, in the order the progress shows them. */
export const STAGES = ['validate', 'derive', 'highlight', 'render', 'record-files', 'message-index', 'list-index', 'full-text', 'publish', 'ledger'] as const;
export type StageName = (typeof STAGES)[number];

export interface CatalogFacts {
  /** Bytes of the catalog files. */
  bytes: number;
  /** Valid records; null until validation has counted them. */
  records: number | null;
  /** Of those, the records whose error pages this build renders: a shard's (src/catalog/shard.ts); all when absent. */
  rendered?: number | null;
  /**
   * Of the records, those whose entry validation had not found sound before (src/catalog/validate.ts,
   * `known`): edited, new, or with a warning. A build reusing the published pages renders about these.
   */
  changed?: number | null;
}

/** What kind of build this is. */
export interface BuildKind {
  /** The published site's error pages may be reused (a build cache with a page manifest of the same code). */
  reusing: boolean;
  /** A shard's build (`--shard i/n`): its error pages and full-text parts only, for `npm run merge`. */
  shard: boolean;
  /** Shard 1's build, which also makes the message index for the merge (src/build/stages/message-index.ts). */
  firstShard?: boolean;
}

export interface Machine {
  cores: number;
}

/** The build's tuning settings (each an environment variable; null: the default). */
export interface PlanSettings {
  /** ERRDEX_WORKERS: render processes and highlight threads at a time; when set, at least one partition per worker. */
  workers: number | null;
  /** ERRDEX_PARTITION_RECORDS: the most records per render partition above one. */
  partitionRecords: number | null;
  /** ERRDEX_EARLY_HIGHLIGHT_BYTES: catalog files above this many bytes are highlighted from the build's start. */
  earlyHighlightBytes: number | null;
}

export type Priority = 'normal' | 'low';

export interface StagePlan {
  name: StageName;
  /** Stages that must have ended before this one starts. */
  needs: StageName[];
  reads: string[];
  writes: string[];
  /** 'low': niceness 10, on the CPU the other stages leave (src/build/protocol.ts). */
  priority: Priority;
  /** Why this build has nothing for the stage to do: it ends at once, saying so. */
  skip?: string;
}

/** What a render lane waits for before its first process starts. */
export interface LaneWait {
  stage: StageName;
  /** Only when that stage has started by the time the render does. */
  ifStarted: boolean;
}

export interface Plan {
  facts: CatalogFacts;
  /**
   * The stages' processes keep their heaps close to what they hold (LEAN_HEAP_FLAGS): a catalog too
   * large to render in one process (whatever this build renders of it: the stages beside the render
   * read the whole catalog), or highlighted from its files, where the build's memory is the sum of
   * the processes that run at once. Not for an edit of a few records (`SMALL_EDIT_RECORDS`) of a catalog
   * whose stages run after the render's, not all beside it: they take what they made of the others
   * from the build cache and hold little, and V8's own growth costs less CPU in collection.
   */
  leanHeaps: boolean;
  workers: number;
  /** Render partitions (one Astro process each); null until the records are counted. */
  partitions: number | null;
  highlight: {
    /** From the catalog files as they are, from the build's start (large catalogs). */
    fromCatalogFiles: boolean;
    /** When a highlight stage begun from the files gathers the valid records' blocks from the snapshot. */
    snapshotAfter: StageName;
  };
  render: {
    /**
     * The render process of a one-partition catalog starts with the build and waits for its input
     * (src/build/render-gate.ts), unless its files are too large for its first heap limit (EARLY_RENDER_BYTES).
     */
    earlyProcess: boolean;
    /** Per lane of render processes, what its first process waits for (memory). */
    lanes: LaneWait[][];
  };
  stages: StagePlan[];
}

/** A catalog of up to this many records renders in one process. */
export const SINGLE_PARTITION_RECORDS = 25_000;
/**
 * Above one partition, at most this many records per render process (at 100k records about 1.2 GB
 * each, two at a time). Larger partitions mean fewer processes, each of which starts up once: four
 * of 25,000 took 15 CPU-seconds more than two of 50,000.
 */
export const PARTITION_RECORDS = 50_000;

/**
 * Catalog files of more than this many bytes are highlighted from the build's start, beside
 * validation: some 47,000 records of the bench's synthetic catalog, 25,000 of 5 KB, a catalog that
 * nearly always renders in more than one partition, which is what that order is made for.
 */
export const EARLY_HIGHLIGHT_BYTES = 128 * 2 ** 20;

/** The least heap limit of a render process, in MiB (src/build/render-processes.ts `renderHeapMb`): the early one starts with it. */
export const MIN_RENDER_HEAP_MB = 1024;
/** A render process's heap limit, as a multiple of its snapshot's size (`renderHeapMb`). */
export const RENDER_HEAP_PER_SNAPSHOT = 5;
/**
 * Catalog files above this many bytes start no early render process. Its heap limit is set before the
 * snapshot exists, and the snapshot is about the catalog files' size: the process would be ended once
 * the snapshot is written, after taking a core from validation.
 */
export const EARLY_RENDER_BYTES = (MIN_RENDER_HEAP_MB * 2 ** 20) / RENDER_HEAP_PER_SNAPSHOT;

/**
 * V8 grows a heap to several times what its last full collection kept, so a process that makes much
 * garbage (highlighting, the message index) holds far more than it needs. 25 % growth costs a few
 * per cent of CPU for a quarter less memory (docs/benchmarks.md, "Memory at 100,000 rich records").
 */
export const LEAN_HEAP_FLAGS = ['--heap-growing-percent=25'] as const;

/**
 * An edit of at most this many records keeps its stages on their memos' paths (they read the changed
 * records one by one: src/build/raise-site-memo.ts `ONE_BY_ONE`), so their heaps are left to grow as V8
 * likes (`Plan.leanHeaps`).
 */
export const SMALL_EDIT_RECORDS = 2_000;

/** How a stage's process is started: its priority, and V8's flags when the plan keeps heaps lean. */
export function stageProcess(p: Plan, name: StageName): { priority: Priority; nodeFlags: readonly string[] } {
  return { priority: p.stages.find((st) => st.name === name)!.priority, nodeFlags: p.leanHeaps ? LEAN_HEAP_FLAGS : [] };
}

/**
 * How many render partitions: one for a catalog of up to `single` records, else a multiple of the
 * workers of at most `size` records each, so that a process's memory does not grow with the catalog
 * and every worker stays busy to the end. ERRDEX_WORKERS set (`explicit`) forces one per worker.
 */
export function partitionCount(records: number, workers: number, sizes: { explicit: boolean; single: number; size: number }): number {
  if (sizes.explicit) return Math.max(workers, Math.ceil(records / sizes.size));
  if (records <= sizes.single) return 1;
  return Math.ceil(Math.ceil(records / sizes.size) / workers) * workers;
}

/**
 * A build that may reuse the published site's pages does not highlight ahead: the render highlights
 * the blocks of the pages it renders (a miss in the highlight cache is highlighted where it is read:
 * src/highlight/highlighter.ts), a few blocks after an edit, and none for a merge of shards. Reading
 * the whole snapshot to find them took longer than the render of an edit's pages.
 */
const REUSING_SKIPS_HIGHLIGHT = 'not ahead of the render: it highlights the blocks of the pages it renders, the others are reused';
/** The stages a shard's build leaves to the merge, which makes them once for the whole site. */
const LEFT_TO_MERGE = 'left to npm run merge';

export function plan(facts: CatalogFacts, machine: Machine, settings: PlanSettings, kind: BuildKind = { reusing: false, shard: false }): Plan {
  const workers = settings.workers ?? machine.cores;
  const size = settings.partitionRecords ?? PARTITION_RECORDS;
  const single = Math.min(size, SINGLE_PARTITION_RECORDS);
  // A build that reuses the published pages renders the pages of changed entries, and those whose
  // related errors, titles or places changed with them: an edit's few, none of a merge of shards. It
  // renders them in the partitions their count takes, not the catalog's.
  const all = facts.rendered ?? facts.records;
  const rendered = kind.reusing && facts.changed != null && all !== null ? Math.min(all, facts.changed) : all;
  const partitions = rendered === null ? null : partitionCount(rendered, workers, { explicit: settings.workers !== null, single, size });
  // Until the records are counted, what starts with the build assumes one partition: the early
  // render process is ended if there turn out to be more.
  const one = partitions === null || partitions === 1;
  // The stages beside the render start all at once with one render process, as long as the catalog
  // would fit one render partition: each of them reads the whole catalog, whatever the render renders.
  // An edit of a larger catalog renders in one process (which holds no record whole) but keeps a
  // large catalog's order beside it: the full-text index first, then the others.
  const together = one && !(all !== null && all > size);
  // From the catalog's files, which hold every record, not a shard's.
  const early = !kind.reusing && !kind.shard && facts.bytes > (settings.earlyHighlightBytes ?? EARLY_HIGHLIGHT_BYTES);
  const skips: Partial<Record<StageName, string>> = {
    ...(kind.reusing ? { highlight: REUSING_SKIPS_HIGHLIGHT } : {}),
    ...(kind.shard ? { ledger: LEFT_TO_MERGE, ...(kind.firstShard ? {} : { 'message-index': LEFT_TO_MERGE }) } : {}),
  };
  const stage = (name: StageName, needs: StageName[], reads: string[], writes: string[], priority: Priority = 'normal'): StagePlan => {
    const skip = skips[name];
    return skip === undefined ? { name, needs, reads, writes, priority } : { name, needs, reads, writes, priority, skip };
  };
  const stages: StagePlan[] = [
    stage('validate', [], ['catalog files', 'classes', 'ledger'], ['snapshot', 'skipped-records report']),
    stage('derive', ['validate'], ['snapshot'], ['related errors']),
    // Beside derive when the stages run together; after it otherwise (derive's process then holds too much to share).
    // From the files as they are: from the start, at the low priority, so validation keeps its core.
    early
      ? stage('highlight', [], ['catalog files', 'snapshot'], ['highlight cache'], 'low')
      : stage('highlight', [together ? 'validate' : 'derive'], ['snapshot'], ['highlight cache']),
    stage('render', ['derive', 'highlight'], ['render context', 'snapshot', 'related errors', 'highlight cache', 'published site'], ['staging site', 'page keys']),
    stage('record-files', [together ? 'validate' : 'full-text'], ['snapshot', 'short-link template'], ['JSON twins', 'short links'], 'low'),
    // The largest of them: after the one render process of an edit of a large catalog too, not beside
    // it (that process holds every record's listings and related errors).
    stage('message-index', together ? ['validate'] : one ? ['full-text', 'render'] : ['full-text'], ['snapshot', 'ledger'], ['message index', '_redirects', 'ledger plan'], together ? 'low' : 'normal'),
    // Each listing's filter index (repositories, classes, tags): read from the snapshot like the message index.
    stage('list-index', [together ? 'validate' : 'full-text'], ['snapshot'], ['filter indexes'], 'low'),
    // Together in a first build, it takes what the others leave; in an edit it indexes again the part
    // of each record changed, the longest task beside the render, at its priority, from the moment the
    // snapshot is written (the stage waits for it: src/build/stages/full-text.ts), before validation
    // has written the head. Otherwise it comes first, ends before a second render process starts, and
    // waits for validation's process when highlighting began early.
    stage('full-text', kind.reusing ? [] : [!together && early ? 'derive' : 'validate'], ['snapshot', 'published site'], ['Pagefind parts'], together && !kind.reusing ? 'low' : 'normal'),
    // The site and the ledger in one step (src/build/publish-step.ts); the ledger stage says what became of it.
    stage('publish', ['render', 'record-files', 'message-index', 'list-index', 'full-text'], ['staging site', 'published site', 'ledger plan'], ['site', 'ledger', 'page keys']),
    stage('ledger', ['publish'], ['ledger plan'], []),
  ];
  return {
    facts,
    leanHeaps: (early || (facts.records ?? 0) > single) && !(kind.reusing && !together && rendered !== null && rendered <= SMALL_EDIT_RECORDS),
    workers,
    partitions,
    highlight: { fromCatalogFiles: early, snapshotAfter: together ? 'validate' : 'derive' },
    render: {
      earlyProcess: one && facts.bytes <= EARLY_RENDER_BYTES,
      lanes: Array.from({ length: Math.min(workers, partitions ?? 1) }, (_, lane) =>
        one ? [] : lane === 0 ? [{ stage: 'message-index', ifStarted: true }] : [{ stage: 'message-index', ifStarted: false }],
      ),
    },
    stages,
  };
}
