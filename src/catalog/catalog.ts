/**
 * The Catalog: the valid records, loaded once per process. Pages, endpoints and scripts all read it
 * from here; nothing else opens catalog files.
 */
import type { FailureClass } from '../schema/failure-class.ts';
import { recordOf, type DatasetVersionFrom } from '../schema/input-forms.ts';
import type { ErrorRecord } from '../schema/record.ts';
import { loadClasses, type LoadedClasses } from './classes.ts';
import { readLedger, type Ledger } from './ledger.ts';
import { catalogPath, loadCatalogFiles } from './load.ts';
import { formatReport, type Problem } from './problems.ts';
import { currentShard, inShard } from './shard.ts';
import { readSnapshot, type SnapshotKeep } from './snapshot.ts';
import { validateEntries } from './validate.ts';

export interface CatalogEntry {
  record: ErrorRecord;
  /** The wrapped record's JSON text exactly as it stands in the catalog: the page's JSON twin. */
  sourceText: string;
  /** The hash of the text, when a process read the entry without it (src/catalog/snapshot.ts, SnapshotKeep). */
  textKey?: string;
  datasetVersion: string;
  /** Where the dataset version comes from when not from the record's own wrapper (a bare record: src/schema/input-forms.ts). */
  datasetVersionFrom?: Exclude<DatasetVersionFrom, 'record'>;
  origin: { file: string; line: number };
}

export interface SkippedRecord {
  file: string;
  line: number;
  id: string | null;
  problems: Problem[];
  text: string;
}

export interface Catalog {
  root: string;
  /** The catalog files read, as shown in reports. */
  files: string[];
  /** Valid records, ordered by repository then slug: the order of every listing and index. */
  entries: CatalogEntry[];
  byId: Map<string, CatalogEntry>;
  classes: FailureClass[];
  /** The URL ledger of earlier builds (empty before the first one). */
  ledger: { file: string; exists: boolean; ledger: Ledger };
  /** The newest `datasetVersion` among the records. */
  datasetVersion: string;
  /** The errors: each keeps a record (or the whole build, without --skip-invalid) from being built. */
  problems: Problem[];
  /** The warnings: their records are built and their pages show what is uncertain; --strict makes them errors. */
  warnings: Problem[];
  skipped: SkippedRecord[];
  /** Records seen in all: valid + skipped. */
  total: number;
  /**
   * The manifest's checksum of all JSON twins (src/lib/api.ts), when the build computed it before the
   * render: a render process of a catalog in several chunks holds only its own shard's texts.
   */
  twinsSha256?: string;
}

export class CatalogError extends Error {
  readonly report: string;
  readonly problems: Problem[];

  constructor(report: string, problems: Problem[]) {
    super(`The catalog has problems:\n${report}`);
    this.report = report;
    this.problems = problems;
  }
}

export function loadCatalog(root: string = catalogPath()): Catalog {
  const loaded = loadCatalogFiles(root);
  const problems = [...loaded.problems];
  const classes = loadClasses(root, problems);
  const ledger = readLedger(root);
  problems.push(...ledger.problems);
  const validation = validateEntries(loaded.entries, { classIds: new Set(classes.classes.map((c) => c.id)), classesFile: classes.file });
  problems.push(...validation.problems);

  const entries: CatalogEntry[] = validation.valid.map((v) => ({
    record: v.record,
    sourceText: v.text,
    datasetVersion: v.datasetVersion,
    ...(v.datasetVersionFrom === 'record' ? {} : { datasetVersionFrom: v.datasetVersionFrom }),
    origin: { file: v.entry.file, line: v.entry.line },
  }));
  entries.sort((a, b) => cmp(a.record.repo, b.record.repo) || cmp(a.record.slug, b.record.slug) || cmp(a.record.id, b.record.id));

  const skipped: SkippedRecord[] = validation.invalid.map(({ entry, problems }) => {
    const id = recordOf(entry.value)?.id;
    return { file: entry.file, line: entry.line, id: typeof id === 'string' ? id : null, problems, text: entry.text };
  });
  // Unreadable lines and files are skipped records too: report them with their problems. (A folder
  // without catalog files is a problem, but not a record.)
  const placed = new Set(validation.problems);
  const files = new Set(loaded.files);
  for (const p of loaded.problems) if (!placed.has(p) && files.has(p.file)) skipped.push({ file: p.file, line: p.line, id: null, problems: [p], text: '' });

  return assemble(root, entries, classes, ledger, {
    files: loaded.files,
    problems,
    warnings: validation.warnings,
    skipped,
    total: entries.length + validation.invalid.length + loaded.unreadable,
  });
}

/** A Catalog from its entries, classes and ledger: the fields derived the same way however the entries were read. */
function assemble(
  root: string,
  entries: CatalogEntry[],
  classes: LoadedClasses,
  ledger: ReturnType<typeof readLedger>,
  rest: Pick<Catalog, 'files' | 'problems' | 'warnings' | 'skipped' | 'total'>,
): Catalog {
  return {
    root,
    entries,
    byId: new Map(entries.map((e) => [e.record.id, e])),
    classes: classes.classes,
    ledger: { file: ledger.file, exists: ledger.exists, ledger: ledger.ledger },
    datasetVersion: entries.reduce((v, e) => (e.datasetVersion > v ? e.datasetVersion : v), ''),
    ...rest,
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function catalogReport(c: Catalog): string {
  return formatReport([...c.problems, ...c.warnings], c.total, c.total - c.entries.length, c.files.length);
}

let cached: Catalog | undefined;

/**
 * The valid entries of a snapshot the build script wrote after validating (src/catalog/snapshot.ts),
 * with the catalog's failure classes. Problems were reported by the build before it wrote it.
 */
export function catalogFromSnapshot(file: string, root: string = catalogPath(), keep?: SnapshotKeep): Catalog {
  const entries = readSnapshot(file, keep);
  const problems: Problem[] = [];
  const classes = loadClasses(root, problems);
  const ledger = readLedger(root);
  problems.push(...ledger.problems);
  return assemble(root, entries, classes, ledger, { files: [], problems, warnings: [], skipped: [], total: entries.length });
}

/**
 * The catalog for this build. Throws a CatalogError listing every problem, unless
 * `ERRDEX_SKIP_INVALID=1` opts into building the valid records only (the build script sets it
 * from `--skip-invalid` after writing the skipped-records report). In a render process of the build
 * script, `ERRDEX_CATALOG_SNAPSHOT` names the already validated entries that process renders, and
 * `ERRDEX_TWINS_SHA256` the twins' checksum when the catalog renders in several shards.
 */
export function getCatalog(): Catalog {
  if (cached) return cached;
  const snapshot = process.env.ERRDEX_CATALOG_SNAPSHOT;
  // A render process shows the code, the prose and the JSON twin of its own shard's records only
  // (src/catalog/shard.ts); of the others it keeps what listings and related errors show, and their
  // text's hash (page keys). At 100k records in 4 shards that is 200 MB less to hold, and to go over
  // at every full collection.
  const shard = currentShard();
  const own = (id: string) => inShard(id, shard);
  const catalog = snapshot ? catalogFromSnapshot(snapshot, catalogPath(), { code: own, prose: own, text: own }) : loadCatalog();
  if (snapshot && process.env.ERRDEX_TWINS_SHA256) catalog.twinsSha256 = process.env.ERRDEX_TWINS_SHA256;
  if (catalog.problems.length > 0 && process.env.ERRDEX_SKIP_INVALID !== '1') {
    throw new CatalogError(catalogReport(catalog), catalog.problems);
  }
  cached = catalog;
  return catalog;
}
