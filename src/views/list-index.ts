/**
 * A repository's filter index: every error of the repository in page order, compact enough that the
 * listing filter (src/client/list-filter.ts) fetches it instead of the listing's other pages (whose
 * HTML for thousands of errors runs to megabytes). Written once per build by the list-index stage
 * (src/build/stages/list-index.ts) as a small head and gzipped shards; read back here too, so the
 * writing and the reading side cannot drift apart.
 *
 * A shard holds its own tables of file paths and exception classes, and rows pointing into them. A
 * slug that is the message's words followed by a tail (as the scanner makes them) is stored as its
 * tail only; any other slug is stored whole.
 */
import { slugWords } from '../util/text.ts';
import type { ErrorRecord, Severity } from '../schema/record.ts';

export const LIST_INDEX_VERSION = 1;
/** Raw JSON bytes of one shard, before gzip (about a third of that is sent). */
export const SHARD_BUDGET = 128 * 1024;
export const SEVERITY_ORDER: readonly Severity[] = ['critical', 'error', 'warning', 'info'];

export interface ListIndexHead {
  v: number;
  /** Errors of the repository. */
  total: number;
  /** Shard files, relative to the head, in page order; `bytes` as stored (gzipped). */
  shards: { file: string; rows: number; bytes: number }[];
}

/** [message, file (index into files), line (0: none), severity (index into SEVERITY_ORDER), class (index into classes), slug]. */
export type ListIndexRow = [string, number, number, number, number, string];

export interface ListIndexShard {
  files: string[];
  /** Exception classes; '' for none. */
  classes: string[];
  rows: ListIndexRow[];
}

/** One error as the filter shows it. */
export interface ListIndexEntry {
  message: string;
  file: string;
  line: number | null;
  severity: Severity;
  errorClass: string;
  slug: string;
}

export type ListIndexRecord = Pick<ErrorRecord, 'errorMessage' | 'filePath' | 'lineNumber' | 'severity' | 'errorClass' | 'slug'>;


export function packSlug(message: string, slug: string): string {
  const stem = slugWords(message);
  return stem !== '' && slug.startsWith(`${stem}-`) ? `~${slug.slice(stem.length)}` : slug;
}

/** A slug never starts with '~', so a packed one is told apart from a whole one. */
export function unpackSlug(message: string, packed: string): string {
  return packed.startsWith('~') ? `${slugWords(message)}${packed.slice(1)}` : packed;
}

/** The records of one repository, in page order, cut into shards of about `budget` JSON bytes. */
export function listIndexShards(records: readonly ListIndexRecord[], budget = SHARD_BUDGET): ListIndexShard[] {
  const shards: ListIndexShard[] = [];
  let shard: ListIndexShard | null = null;
  let fileIds = new Map<string, number>();
  let classIds = new Map<string, number>();
  let bytes = 0;
  const idOf = (ids: Map<string, number>, list: string[], key: string): number => {
    let id = ids.get(key);
    if (id === undefined) {
      id = list.length;
      list.push(key);
      ids.set(key, id);
      bytes += key.length + 3;
    }
    return id;
  };
  for (const r of records) {
    if (!shard || bytes >= budget) {
      shard = { files: [], classes: [], rows: [] };
      shards.push(shard);
      fileIds = new Map();
      classIds = new Map();
      bytes = 0;
    }
    const row: ListIndexRow = [
      r.errorMessage,
      idOf(fileIds, shard.files, r.filePath),
      r.lineNumber ?? 0,
      SEVERITY_ORDER.indexOf(r.severity),
      idOf(classIds, shard.classes, r.errorClass ?? ''),
      packSlug(r.errorMessage, r.slug),
    ];
    shard.rows.push(row);
    bytes += JSON.stringify(row).length + 1;
  }
  return shards;
}

/** The entries of a shard as read back. */
export function shardEntries(shard: ListIndexShard): ListIndexEntry[] {
  return shard.rows.map(([message, file, line, severity, cls, slug]) => ({
    message,
    file: shard.files[file] ?? '',
    line: line > 0 ? line : null,
    severity: SEVERITY_ORDER[severity] ?? 'error',
    errorClass: shard.classes[cls] ?? '',
    slug: unpackSlug(message, slug),
  }));
}
