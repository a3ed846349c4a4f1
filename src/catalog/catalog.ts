/**
 * The Catalog: the valid records, loaded once per process. Pages, endpoints and scripts all read it
 * from here; nothing else opens catalog files.
 */
import type { FailureClass } from '../schema/failure-class.ts';
import { knownTextKey, type CatalogEntry } from './entry.ts';
import { recordOf } from '../schema/input-forms.ts';
import { loadClasses, type LoadedClasses } from './classes.ts';
import { readLedger, type Ledger } from './ledger.ts';
import { loadCatalogFiles } from './load.ts';
import { formatReport, type Problem } from './problems.ts';
export type { CatalogEntry } from './entry.ts';
import { leanSnapshotEntries, readHead } from './snapshot.ts';
import { entryChecks } from './validate.ts';


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
  /**
   * The URL ledger of earlier builds (empty before the first one). Its entries are null in a catalog
   * read from a build's snapshot, which holds the ledger's plan instead (src/catalog/snapshot.ts).
   */
  ledger: { file: string; exists: boolean; ledger: Ledger | null };
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
   * The manifest's checksum of all JSON twins (src/views/api.ts), when the build computed it before the
   * render (the snapshot's head): a render process holds no record's text.
   */
  twinsSha256?: string;
  /** When loaded with `known`: the text hashes of the entries sound alone, for the next load's (src/catalog/validate.ts). */
  sound?: string[];
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

/**
 * `datasetVersion`: of records that carry none (default: now; the build gives SOURCE_DATE_EPOCH's, validate.ts `buildDatasetVersion`).
 * `known`: the `sound` of an earlier load by the same code, whose entries are not checked alone again.
 */
export function loadCatalog(root: string, options: { datasetVersion?: string; known?: ReadonlySet<string>; lean?: boolean } = {}): Catalog {
  // The failure classes first: each entry is checked as it is read (with `lean`, its code and prose
  // then dropped), not once every file is parsed.
  const classProblems: Problem[] = [];
  const classes = loadClasses(root, classProblems);
  const checks = entryChecks({
    classIds: new Set(classes.classes.map((c) => c.id)),
    classesFile: classes.file,
    buildDatasetVersion: options.datasetVersion,
    ...(options.known ? { known: options.known } : {}),
    ...(options.lean ? { lean: true } : {}),
  });
  const loaded = loadCatalogFiles(root, { onEntry: (e) => checks.check(e) });
  const problems = [...loaded.problems, ...classProblems];
  const ledger = readLedger(root);
  problems.push(...ledger.problems);
  const validation = checks.finish();
  problems.push(...validation.problems);

  const entries: CatalogEntry[] = validation.valid.map((v) => {
    const entry: CatalogEntry = {
      record: v.record,
      sourceText: v.text,
      datasetVersion: v.datasetVersion,
      ...(v.datasetVersionFrom === 'record' ? {} : { datasetVersionFrom: v.datasetVersionFrom }),
      origin: { file: v.entry.file, line: v.entry.line },
    };
    if (v.textHash !== undefined) knownTextKey(entry, v.textHash);
    return entry;
  });
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
    warnings: [...loaded.warnings, ...validation.warnings],
    skipped,
    total: entries.length + validation.invalid.length + loaded.unreadable,
    ...(options.known ? { sound: validation.sound } : {}),
  });
}

/** A Catalog from its entries, classes and ledger: the fields derived the same way however the entries were read. */
function assemble(
  root: string,
  entries: CatalogEntry[],
  classes: Pick<LoadedClasses, 'classes'>,
  ledger: Catalog['ledger'],
  rest: Pick<Catalog, 'files' | 'problems' | 'warnings' | 'skipped' | 'total' | 'sound'>,
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

/**
 * The valid catalog as the build wrote it after validating (src/catalog/snapshot.ts): its entries as
 * the lean snapshot holds them (each without its code, prose and text, read whole when a page shows
 * it: `wholeEntry`), and its head, which holds the failure classes as validation read them, so no
 * later process reads or checks that file again. The ledger's entries are not read: its plan for
 * this catalog is the snapshot's (`readLedgerPlan`).
 */
export function catalogFromSnapshot(files: { snapshot: string; head: string }): Catalog {
  const entries = [...leanSnapshotEntries(files.snapshot)];
  const head = readHead(files.head);
  return { ...assemble(head.root, entries, head, { ...head.ledger, ledger: null }, { files: [], problems: [], warnings: [], skipped: [], total: entries.length }), twinsSha256: head.twinsSha256 };
}
