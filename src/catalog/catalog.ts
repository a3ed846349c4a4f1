/**
 * The Catalog: the valid records, loaded once per process. Pages, endpoints and scripts all read it
 * from here; nothing else opens catalog files.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { failureClassSchema, type FailureClass } from '../schema/failure-class.ts';
import { locateJson } from './json-locate.ts';
import type { ErrorRecord } from '../schema/record.ts';
import { catalogPath, displayPath, loadCatalogFiles } from './load.ts';
import { FILE_LEVEL, formatReport, type Problem } from './problems.ts';
import { describeIssue, validateEntries } from './validate.ts';

export interface CatalogEntry {
  record: ErrorRecord;
  /** The wrapped record's JSON text exactly as it stands in the catalog: the page's JSON twin. */
  sourceText: string;
  datasetVersion: string;
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
  /** The newest `datasetVersion` among the records. */
  datasetVersion: string;
  problems: Problem[];
  skipped: SkippedRecord[];
  /** Records seen in all: valid + skipped. */
  total: number;
}

export class CatalogError extends Error {
  constructor(
    readonly report: string,
    readonly problems: Problem[],
  ) {
    super(`The catalog has problems:\n${report}`);
  }
}

/**
 * The catalog's failure classes. Each class is checked on its own, so that one broken class does
 * not make every record naming a sound one look wrong.
 */
function loadClasses(root: string, problems: Problem[]): FailureClass[] | undefined {
  const dir = existsSync(root) && statSync(root).isDirectory() ? root : null;
  const file = dir ? join(dir, 'classes.json') : null;
  if (!file || !existsSync(file)) return undefined;
  const shown = displayPath(file);
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const loc = locateJson(text);
  if (!loc.ok) {
    problems.push({ file: shown, line: loc.line, field: FILE_LEVEL, message: `malformed JSON at column ${loc.column}: ${loc.message}` });
    return [];
  }
  const value: unknown = JSON.parse(text);
  const lineOf = (path: string) => loc.lines.get(path) ?? loc.lines.get(path.split('.')[0]!) ?? 1;
  if (!Array.isArray(value)) {
    problems.push({ file: shown, line: 1, field: FILE_LEVEL, message: 'must be an array of failure classes [{"id", "title", "summary", "explanation"}, ...]' });
    return [];
  }
  const classes: FailureClass[] = [];
  const seen = new Map<string, number>();
  value.forEach((item, i) => {
    const parsed = failureClassSchema.safeParse(item);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        for (const d of describeIssue({ ...issue, path: [i, ...issue.path] }, value)) problems.push({ file: shown, line: lineOf(d.field), field: d.field, message: d.message });
      }
      return;
    }
    const first = seen.get(parsed.data.id);
    if (first !== undefined) {
      problems.push({ file: shown, line: lineOf(`${i}.id`), field: `${i}.id`, message: `duplicates class id "${parsed.data.id}" of class ${first}` });
      return;
    }
    seen.set(parsed.data.id, i);
    classes.push(parsed.data);
  });
  return classes;
}

export function loadCatalog(root: string = catalogPath()): Catalog {
  const loaded = loadCatalogFiles(root);
  const problems = [...loaded.problems];
  const classes = loadClasses(root, problems);
  const validation = validateEntries(loaded.entries, { classIds: classes ? new Set(classes.map((c) => c.id)) : undefined });
  problems.push(...validation.problems);

  const entries: CatalogEntry[] = validation.valid.map((v) => ({
    record: v.record,
    sourceText: v.entry.text,
    datasetVersion: v.wrapped.datasetVersion,
    origin: { file: v.entry.file, line: v.entry.line },
  }));
  entries.sort((a, b) => cmp(a.record.repo, b.record.repo) || cmp(a.record.slug, b.record.slug) || cmp(a.record.id, b.record.id));

  const skipped: SkippedRecord[] = validation.invalid.map(({ entry, problems }) => {
    const rec = (entry.value as { record?: { id?: unknown } } | null)?.record;
    return { file: entry.file, line: entry.line, id: typeof rec?.id === 'string' ? rec.id : null, problems, text: entry.text };
  });
  // Unreadable lines and files are skipped records too: report them with their problems. (A folder
  // without catalog files is a problem, but not a record.)
  const placed = new Set(validation.problems);
  const files = new Set(loaded.files);
  for (const p of loaded.problems) if (!placed.has(p) && files.has(p.file)) skipped.push({ file: p.file, line: p.line, id: null, problems: [p], text: '' });

  return {
    root,
    files: loaded.files,
    entries,
    byId: new Map(entries.map((e) => [e.record.id, e])),
    classes: classes ?? [],
    datasetVersion: entries.reduce((v, e) => (e.datasetVersion > v ? e.datasetVersion : v), ''),
    problems,
    skipped,
    total: entries.length + validation.invalid.length + loaded.unreadable,
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function catalogReport(c: Catalog): string {
  return formatReport(c.problems, c.total, c.total - c.entries.length, c.files.length);
}

let cached: Catalog | undefined;

/**
 * The catalog for this build. Throws a CatalogError listing every problem, unless
 * `ERRDEX_SKIP_INVALID=1` opts into building the valid records only (the build script sets it
 * from `--skip-invalid` after writing the skipped-records report).
 */
export function getCatalog(): Catalog {
  if (cached) return cached;
  const catalog = loadCatalog();
  if (catalog.problems.length > 0 && process.env.ERRDEX_SKIP_INVALID !== '1') {
    throw new CatalogError(catalogReport(catalog), catalog.problems);
  }
  cached = catalog;
  return catalog;
}
