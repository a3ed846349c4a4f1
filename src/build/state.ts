/**
 * What the build's stages hand each other (src/build/pipeline.ts, `ctx.state`): the settings, the
 * current plan, the folders each stage writes to, and each stage's result once it has one.
 */
import type { Shard } from '../catalog/shard.ts';
import type { Board } from './board.ts';
import type { HostBudget } from './hosts.ts';
import type { WorkDirs } from './site-folders.ts';
import type { PublishedSite } from './page-reuse.ts';
import type { Plan, PlanSettings } from './plan.ts';
import type { RenderPartition, RenderProcesses, RenderResult } from './render-processes.ts';
import type { PagefindIndexResult } from './search-index.ts';
import type { PageHead } from './rendered-pages.ts';
import type { SiteFigures, TitleFigures } from './summary.ts';

/** What `npm run build` was asked to do (scripts/build.ts reads the flags and settings). */
export interface BuildSettings {
  /** The catalog folder (ERRDEX_DATA). */
  catalog: string;
  /** The site folder (ERRDEX_DIST). */
  outDir: string;
  /** The build cache (ERRDEX_CACHE_DIR). */
  cacheDir: string;
  /** --skip-invalid: the report file of the skipped records; null: an invalid catalog stops the build. */
  skipReport: string | null;
  /** --strict: warnings (records built with an uncertainty shown) fail the build too. */
  strict: boolean;
  /** Not --no-cache. */
  useCache: boolean;
  /** Not --no-ledger-update. */
  updateLedger: boolean;
  /** --max-fragments. */
  maxFragments: number | undefined;
  /** --max-index-files: at most this many message index files. */
  maxIndexFiles: number | undefined;
  /** --host, --host-limit, --trim-redirects: the host's budget the site is checked against (src/build/hosts.ts). */
  host: HostBudget | null;
  /** --report: where the measurements go. */
  reportFile: string | null;
  plan: PlanSettings;
  /** Records per Pagefind index, at most (ERRDEX_PAGEFIND_PART_RECORDS); unset, search-index.ts's PAGEFIND_PART_RECORDS. */
  pagefindPartRecords: number | undefined;
  /** The dataset version of records that carry none: SOURCE_DATE_EPOCH's time, or the build's start (src/catalog/validate.ts). */
  datasetVersion: string;
  /** Progress redrawn in place (a terminal, not CI), or printed a line a step. */
  interactive: boolean;
  /** The environment the build was started with: what its child processes are given. */
  env: NodeJS.ProcessEnv;
  /** --wait-for-lock: wait while another build writes to the output folder, rather than fail (src/build/lock.ts). */
  waitForLock?: boolean;
  /** --allow-mass-removal: publish even when most of the published error pages go (src/build/publish-checks.ts). */
  allowMassRemoval?: boolean;
  /** --shard i/n: build one shard into `outDir` for `npm run merge` (src/catalog/shard.ts); null: the whole site. */
  shard: Shard | null;
  /** A merge (npm run merge): the shards' folders, whose pages, full-text parts and record files are linked, not made again (src/build/merge.ts). */
  fromShards?: readonly string[];
}


export interface BuildState {
  settings: BuildSettings;
  /** The current plan: made again when validation has counted the records (learnRecords). */
  plan: Plan;
  learnRecords: (records: number, rendered: number, changed: number | null) => void;
  board: Board;
  /** The build's own folders: the site being built, where the stages beside the render write, the snapshot. */
  dirs: WorkDirs;
  /** The validated catalog: its entries, its head and its related errors (written by validate and derive; src/catalog/snapshot.ts). */
  snapshot: string;
  head: string;
  related: string;
  /** A shard's build: the ids of its records (written by validate). */
  shardIds: string;
  /** A shard's or a merge's hash of the snapshot and what shapes it, once taken (src/build/shard-reuse.ts `snapshotKey`). */
  snapshotKey?: string;
  /** The last published site, when its pages may be reused (src/build/page-reuse.ts); and the code's key. */
  published: PublishedSite | null;
  /**
   * The standby this build claimed, whose folders its stages fill in place (src/build/standby.ts); null:
   * none, or none to fill (--no-cache, or a merge, whose files are made from the shards').
   */
  standby: string | null;
  code: string;
  /** The render processes (the first starts with the build). */
  render: RenderProcesses;
  /** Set by validate and derive. */
  catalog?: { root: string; records: number; partitions: RenderPartition[]; shard: ShardRecords | null };
  /** Results, set by each stage as it ends. */
  rendered?: RenderResult;
  recordFiles?: RecordFilesResult;
  listIndex?: ListIndexResult;
  messageIndex?: MessageIndexResult;
  fullText?: PagefindIndexResult;
  /** What publish did with the URL ledger, for the ledger stage to say. */
  ledgerSummary?: string;
}

/** A shard's records: how many, and the file of their ids (src/catalog/shard.ts). */
export interface ShardRecords {
  records: number;
  ids: string;
}

/** What the message-index stage hands on: its summary, and the URL ledger's report, file and new text. */
export interface MessageIndexResult {
  summary: string;
  records: number;
  warnings: string[];
  /** `published`: records the ledger had as live before this build; `removed`: of those, the ones this build removes. */
  ledger: { report: string[]; file: string; text: string; published: number; removed: number };
  /** The hash of everything the message index is made from (`messageIndexKey`): a merge takes shard 1's when its own is the same. */
  key?: string;
}

/** What the record files stage wrote. */
export interface RecordFilesResult {
  records: number;
  files: number;
  /** Of those, the files linked to the published site's copy (src/build/unchanged-files.ts). */
  linked: number;
  /** Of those linked, the files already in place in folders taken from the standby (src/build/standby.ts); absent: none taken. */
  inPlace?: number;
  bytes: number;
  /** The short links' titles compared among themselves, as written. */
  titles: TitleFigures;
  /** A shard's: the heads of its short links, for the merge to compare the titles of all. */
  heads?: [string, PageHead][];
  /** A shard's: the `snapshotKey` of what they were made from; a merge links them when its own is the same. */
  key?: string;
  /** The stage's folders (`api/errors/`, `e/`) measured as it filled them, so publish walks the rest of the site; absent when it linked a shard's. */
  figures?: SiteFigures;
}

/** A listing a shard made: its path, its key in the cache, its rows' count. */
export interface MadeListing {
  path: string;
  key: string;
  rows: number;
}

/** What the list-index stage (src/build/stages/list-index.ts) wrote. */
export interface ListIndexResult {
  listings: number;
  /** Listings whose files came from the cache. */
  cached: number;
  /** Records parsed to find the listings: none when no record the listings show changed but those whose text did. */
  read: number;
  records: number;
  files: number;
  bytes: number;
  /** Gzipped bytes of the largest listing's files together. */
  largestBytes: number;
  /** With the standby's folder to fill: the files already in place there. */
  inPlace?: number;
  /** A shard's: the listings of its share, for the merge; and the `snapshotKey` of what they were made from. */
  made?: MadeListing[];
  key?: string;
}
