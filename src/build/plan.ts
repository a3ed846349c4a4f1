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
 * the record files start with the snapshot, at the low priority, and highlighting beside derive. A
 * larger one cannot hold everything at once (at 100k records validation's process 1.7 GB, a render
 * partition of 50,000 records 1.4 GB, Pagefind 2 GB, the message index 1.5 GB): the full-text index
 * comes first, then the message index and the record files, and the second render process waits for
 * both indexes. Catalog files above EARLY_HIGHLIGHT_BYTES are highlighted as they are from the start.
 */

/** The stages, in the order the progress shows them. */
export const STAGES = ['validate', 'derive', 'highlight', 'render', 'record-files', 'message-index', 'list-index', 'full-text', 'publish', 'ledger'] as const;
export type StageName = (typeof STAGES)[number];

export interface CatalogFacts {
  /** Bytes of the catalog files. */
  bytes: number;
  /** Valid records; null until validation has counted them. */
  records: number | null;
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
}

/** What a render lane waits for before its first process starts. */
export interface LaneWait {
  stage: StageName;
  /** Only when that stage has started by the time the render does. */
  ifStarted: boolean;
}

export interface Plan {
  facts: CatalogFacts;
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
    /** The render process of a one-partition catalog starts with the build and waits for its input (src/build/render-gate.ts). */
    earlyProcess: boolean;
    /** Per lane of render processes, what its first process waits for (memory). */
    lanes: LaneWait[][];
  };
  stages: StagePlan[];
}

/** A catalog of up to this many records renders in one process. */
export const SINGLE_PARTITION_RECORDS = 25_000;
/**
 * Above one partition, at most this many records per render process (at 100k records about 1.4 GB for
 * 50,000, two at a time). Larger partitions mean fewer processes, each of which starts up once: four
 * of 25,000 took 15 CPU-seconds more than two of 50,000.
 */
export const PARTITION_RECORDS = 50_000;
/**
 * Catalog files of more than this many bytes are highlighted from the build's start, beside
 * validation: some 47,000 records of the bench's synthetic catalog, 25,000 of 5 KB, a catalog that
 * nearly always renders in more than one partition, which is what that order is made for.
 */
export const EARLY_HIGHLIGHT_BYTES = 128 * 2 ** 20;

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

export function plan(facts: CatalogFacts, machine: Machine, settings: PlanSettings): Plan {
  const workers = settings.workers ?? machine.cores;
  const size = settings.partitionRecords ?? PARTITION_RECORDS;
  const single = Math.min(size, SINGLE_PARTITION_RECORDS);
  const partitions = facts.records === null ? null : partitionCount(facts.records, workers, { explicit: settings.workers !== null, single, size });
  // Until the records are counted, what starts with the build assumes one partition: the early
  // render process is ended if there turn out to be more.
  const one = partitions === null || partitions === 1;
  const early = facts.bytes > (settings.earlyHighlightBytes ?? EARLY_HIGHLIGHT_BYTES);
  const stage = (name: StageName, needs: StageName[], reads: string[], writes: string[], priority: Priority = 'normal'): StagePlan => ({ name, needs, reads, writes, priority });
  const stages: StagePlan[] = [
    stage('validate', [], ['catalog files', 'classes', 'ledger'], ['snapshot', 'skipped-records report']),
    stage('derive', ['validate'], ['snapshot'], ['related errors']),
    // Beside derive on one partition; after it otherwise (derive's process then holds too much to share).
    // From the files as they are: from the start, at the low priority, so validation keeps its core.
    early
      ? stage('highlight', [], ['catalog files', 'snapshot'], ['highlight cache'], 'low')
      : stage('highlight', [one ? 'validate' : 'derive'], ['snapshot'], ['highlight cache']),
    stage('render', ['derive', 'highlight'], ['render context', 'snapshot', 'related errors', 'highlight cache', 'published site'], ['staging site', 'page keys']),
    stage('record-files', [one ? 'validate' : 'full-text'], ['snapshot', 'short-link template'], ['JSON twins', 'short links'], 'low'),
    stage('message-index', [one ? 'validate' : 'full-text'], ['snapshot', 'ledger'], ['message index', '_redirects', 'ledger plan'], one ? 'low' : 'normal'),
    // Each listing's filter index (repositories, classes, tags): read from the snapshot like the message index.
    stage('list-index', [one ? 'validate' : 'full-text'], ['snapshot'], ['filter indexes'], 'low'),
    // Beside a one-partition render it takes what the others leave; above, it must end before the
    // second render process starts, and waits for validation's process when highlighting began early.
    stage('full-text', [!one && early ? 'derive' : 'validate'], ['snapshot', 'published site'], ['Pagefind parts'], one ? 'low' : 'normal'),
    // The site and the ledger in one step (src/build/publish-step.ts); the ledger stage says what became of it.
    stage('publish', ['render', 'record-files', 'message-index', 'list-index', 'full-text'], ['staging site', 'published site', 'ledger plan'], ['site', 'ledger', 'page keys']),
    stage('ledger', ['publish'], ['ledger plan'], []),
  ];
  return {
    facts,
    workers,
    partitions,
    highlight: { fromCatalogFiles: early, snapshotAfter: one ? 'validate' : 'derive' },
    render: {
      earlyProcess: one,
      lanes: Array.from({ length: Math.min(workers, partitions ?? 1) }, (_, lane) =>
        one ? [] : lane === 0 ? [{ stage: 'message-index', ifStarted: true }] : [{ stage: 'message-index', ifStarted: false }],
      ),
    },
    stages,
  };
}
