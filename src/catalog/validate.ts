/**
 * Validate: raw entries -> valid records + one list of every problem.
 * Per record (wrapped or bare, see src/schema/input-forms.ts): the zod schema, then the cross-field
 * checks. Across records: unique ids and unique (repo, slug) pairs, one spelling of each owner and
 * repository whatever the case, and failure classes that exist.
 * Each problem is an error (the record is not built) or a warning (it is, and its page shows the
 * uncertainty). Nothing is dropped without a Problem.
 */
import type { z } from 'astro/zod';
import { isBareRecord, withoutNotes, wrappedTwin, type DatasetVersionFrom } from '../schema/input-forms.ts';
import { SCHEMA_VERSION, wrappedRecordSchema, type ErrorRecord, type WrappedRecord } from '../schema/record.ts';
import { githubUrlProblems, recordProblems, sourceSpanProblems, type FieldProblem } from '../schema/record-checks.ts';
import { RESERVED_OWNERS } from '../util/urls.ts';
import { lineOfPath, locateJson, mayHaveDuplicateKeys } from './json-locate.ts';
import { textHash } from './entry.ts';
import { dropCode, dropProse } from './record-fields.ts';
import type { RawEntry } from './load.ts';
import { keyInPath, type Problem, type Severity } from './problems.ts';
import { levenshtein } from '../util/edit-distance.ts';

export interface ValidEntry {
  entry: RawEntry;
  wrapped: WrappedRecord;
  record: ErrorRecord;
  /** The record's JSON twin: its text as the catalog gives it, or, for a bare record, the wrapped form (input-forms.ts). */
  text: string;
  datasetVersion: string;
  datasetVersionFrom: DatasetVersionFrom;
  /** The hash of `text` (textHash), when validation took it to look the entry up in `known`. */
  textHash?: string;
}

export interface ValidationResult {
  valid: ValidEntry[];
  /** Entries rejected, each with all its problems (for the --skip-invalid report). */
  invalid: { entry: RawEntry; problems: Problem[] }[];
  /** The errors: each keeps its record from being built. */
  problems: Problem[];
  /** The warnings: their records are built, their pages show what is uncertain. */
  warnings: Problem[];
  /** With `known`: the text hashes of the entries whose checks alone found nothing, for the next run's `known`. */
  sound: string[];
}

export interface ValidateOptions {
  /** Ids of the failure classes the catalog defines; when given, `backgroundTag` must be one of them. */
  classIds?: ReadonlySet<string>;
  /** The classes file as shown in reports, or null when the catalog has none (named in the problem). */
  classesFile?: string | null;
  /** The dataset version of bare records when no wrapped record gives one (default: now). */
  buildDatasetVersion?: string | undefined;
  /**
   * The text hashes (textHash) of entries an earlier run of the same code found sound alone: such an
   * entry is not checked alone again (the schema, its patterns compiled on RE2, the cross-field checks
   * and duplicate keys, all functions of its text), only across records. Given: `sound` is filled.
   */
  known?: ReadonlySet<string>;
  /**
   * Keep of each valid record what is read across records and after validation, not its code and
   * prose (src/catalog/record-fields.ts), which its text holds whole: the build, whose later
   * processes read the records from its snapshot, holds a large catalog in a fraction of the memory,
   * and each record's code and prose are dropped before the next record is parsed.
   */
  lean?: boolean;
}

const RECORD_FIELDS = Object.keys(wrappedRecordSchema.shape.record.shape);

function closestField(name: string): string | null {
  let best: string | null = null;
  let bestDistance = 4;
  for (const f of RECORD_FIELDS) {
    const d = levenshtein(name.toLowerCase(), f.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [f, d];
  }
  return best;
}

function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return v.length > 60 ? `a string ${JSON.stringify(v.slice(0, 60))}…` : `the string ${JSON.stringify(v)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

function article(type: string): string {
  return type === 'int' ? 'an integer' : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** One zod issue -> (field path, sentence). Unknown keys become one problem per key. */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): { field: string; message: string }[] {
  const field = issue.path.map(String).join('.');
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => {
        const guess = field === 'record' ? closestField(key) : null;
        return {
          field: field ? `${field}.${keyInPath(key)}` : keyInPath(key),
          message: `is not a field of the ${field === 'record' ? 'record' : 'wrapper'} schema${guess ? `; did you mean "${guess}"?` : ''}`,
        };
      });
    case 'invalid_type': {
      const got = valueAt(input, issue.path);
      if (got === undefined) return [{ field, message: `is missing; expected ${issue.expected}` }];
      return [{ field, message: `must be ${article(issue.expected)}; got ${describeValue(got)}` }];
    }
    case 'invalid_value':
      if (valueAt(input, issue.path) === undefined) {
        const expected = issue.values.map((v) => JSON.stringify(v));
        return [{ field, message: `is missing; expected ${expected.length === 1 ? expected[0] : `one of ${expected.join(', ')}`}` }];
      }
      if (issue.values.length === 1 && field.endsWith('schemaVersion')) return [{ field, message: issue.message }];
      return [{ field, message: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}; got ${describeValue(valueAt(input, issue.path))}` }];
    case 'too_small':
    case 'too_big':
      if (issue.message.startsWith('Too') || issue.message.startsWith('Invalid')) {
        const bound = issue.code === 'too_small' ? `at least ${String(issue.minimum)}` : `at most ${String(issue.maximum)}`;
        const unit = issue.origin === 'array' ? ' items' : issue.origin === 'string' ? ' characters' : '';
        return [{ field, message: `must be ${bound}${unit}; got ${describeValue(valueAt(input, issue.path))}` }];
      }
      return [{ field, message: issue.message }];
    default:
      return [{ field, message: issue.message }];
  }
}

const SPAN_FIELDS = ['sourceCode', 'sourceCodeStart', 'sourceCodeEnd', 'lineNumber'];
const URL_FIELDS = ['repo', 'analyzedSha', 'filePath', 'githubUrl'];

function crossFieldProblems(rec: ErrorRecord, badFields: Set<string>): FieldProblem[] {
  const sound = (fields: string[]) => fields.every((f) => !badFields.has(f) && f in rec);
  return [...(sound(SPAN_FIELDS) ? sourceSpanProblems(rec) : []), ...(sound(URL_FIELDS) ? githubUrlProblems(rec) : [])];
}

/** What a check found, placed: its field path as the file writes it, and its class. */
interface Finding {
  field: string;
  message: string;
  code: string;
  severity?: Severity;
  line?: number;
}

/** The build's dataset version, for bare records when no wrapped record gives one: SOURCE_DATE_EPOCH (reproducible builds) or now. */
export function buildDatasetVersion(env: NodeJS.ProcessEnv): string {
  const epoch = Number(env.SOURCE_DATE_EPOCH);
  return new Date(env.SOURCE_DATE_EPOCH && Number.isFinite(epoch) ? epoch * 1000 : Date.now()).toISOString();
}

/** A placeholder a bare record is validated with; its real dataset version is chosen once all records are read. */
const PENDING_VERSION = '1970-01-01T00:00:00.000Z';

export function validateEntries(entries: readonly RawEntry[], options: ValidateOptions = {}): ValidationResult {
  const checks = entryChecks(options);
  for (const entry of entries) checks.check(entry);
  return checks.finish();
}

/**
 * Validation in two steps: each entry alone as it is read (`check`), then across records (`finish`).
 * A reader of a large catalog hands each entry over as it parses it, so that, with `lean`, what it
 * keeps of the entry is small before it parses the next one.
 */
export interface EntryChecks {
  check(entry: RawEntry): void;
  finish(): ValidationResult;
}

export function entryChecks(options: ValidateOptions = {}): EntryChecks {
  const result: ValidationResult = { valid: [], invalid: [], problems: [], warnings: [], sound: [] };
  const perEntry = new Map<RawEntry, Problem[]>();
  const fieldLines = new WeakMap<RawEntry, Map<string, number> | null>();
  const lineOf = (entry: RawEntry, path: string): number => {
    if (entry.isJsonl) return entry.line;
    if (!fieldLines.has(entry)) {
      const loc = locateJson(entry.text);
      fieldLines.set(entry, loc.ok ? loc.lines : null);
    }
    return entry.line - 1 + lineOfPath(fieldLines.get(entry) ?? null, path, 1);
  };
  const add = (entry: RawEntry, f: Finding) => {
    const p: Problem = { file: entry.file, line: f.line ?? lineOf(entry, f.field), field: f.field, message: f.message, code: f.code };
    if (f.severity === 'warning') p.severity = 'warning';
    let list = perEntry.get(entry);
    if (!list) perEntry.set(entry, (list = []));
    list.push(p);
  };
  const hasErrors = (entry: RawEntry) => perEntry.get(entry)?.some((p) => p.severity !== 'warning') ?? false;

  const candidates: (ValidEntry & { bare: boolean })[] = [];
  const keep = (c: ValidEntry & { bare: boolean }, key: string | null): void => {
    if (options.lean) makeLean(c);
    if (key !== null) c.textHash = key;
    candidates.push(c);
  };
  return {
    check(entry) {
      const v = entry.value;
      const key = options.known ? textHash(entry.text) : null;
      if (key !== null && options.known!.has(key)) {
        const candidate = knownSound(entry);
        result.sound.push(key);
        contextProblems(candidate.record, candidate.bare, options, (f) => add(entry, f));
        if (!hasErrors(entry)) keep(candidate, key);
        return;
      }
      if (v === null || typeof v !== 'object' || Array.isArray(v)) {
        add(entry, {
          field: '(record)',
          code: 'shape',
          message: `must be a record, wrapped {"record": {...}, "datasetVersion": "..."} or bare {"id": ..., ...}; got ${describeValue(v)}`,
        });
        return;
      }
      // JSON.parse keeps the last of two equal keys without a word: the page would show one value, a reviewer may read the other.
      if (mayHaveDuplicateKeys(entry.text, v)) {
        const loc = locateJson(entry.text);
        for (const d of loc.ok ? loc.duplicates : []) {
          const message = `is given twice${entry.isJsonl ? '' : ` (first on line ${entry.line - 1 + d.firstLine})`}; JSON keeps only the last value, so one of them would silently vanish`;
          add(entry, { field: d.path, message, code: 'duplicate-key', line: entry.isJsonl ? entry.line : entry.line - 1 + d.line });
        }
      }
      const obj = withoutNotes(v as Record<string, unknown>);
      const bare = isBareRecord(obj);
      if (!bare && !('record' in obj)) {
        add(entry, {
          field: 'record',
          code: 'shape',
          message: 'is missing: give a wrapped record {"record": {...}, "datasetVersion": "..."} or a bare record {"id": ..., ...}',
        });
        return;
      }
      // Problems name fields as the file writes them: `record.severity` in a wrapper, `severity` in a bare record.
      const named = (path: string) => (bare ? path.replace(/^record\./, '') : path);
      const rawRecord = bare ? obj : obj.record;
      const rec =
        rawRecord !== null && typeof rawRecord === 'object' && !Array.isArray(rawRecord) ? withoutNotes(rawRecord as Record<string, unknown>) : rawRecord;
      const input = { ...(bare ? { datasetVersion: PENDING_VERSION } : obj), record: rec };
      // A record of another schema version would fail field by field; say the one thing that matters.
      if (rec && typeof rec === 'object' && 'schemaVersion' in rec && (rec as { schemaVersion: unknown }).schemaVersion !== SCHEMA_VERSION) {
        const version = (rec as { schemaVersion: unknown }).schemaVersion;
        add(entry, {
          field: named('record.schemaVersion'),
          code: 'schema-version',
          message: `unsupported schema version ${JSON.stringify(version)}; this build reads schemaVersion ${SCHEMA_VERSION}`,
        });
        return;
      }
      const parsed = wrappedRecordSchema.safeParse(input);
      if (!parsed.success) {
        const badFields = new Set<string>();
        for (const issue of parsed.error.issues) {
          if (issue.path[0] === 'record' && issue.path.length > 1) badFields.add(String(issue.path[1]));
          const code = issue.path[1] === 'messagePattern' && issue.code === 'custom' ? 'pattern' : 'schema';
          for (const d of describeIssue(issue, input)) add(entry, { field: named(d.field), message: d.message, code });
        }
        // The cross-field checks still run where the fields they read are sound, so one pass reports everything.
        if (rec && typeof rec === 'object' && !Array.isArray(rec)) {
          for (const p of crossFieldProblems(rec as unknown as ErrorRecord, badFields)) add(entry, { ...p, field: named(`record.${p.field}`) });
        }
        return;
      }
      const record = parsed.data.record;
      for (const p of recordProblems(record)) add(entry, { ...p, field: named(`record.${p.field}`) });
      if (key !== null && !perEntry.has(entry)) result.sound.push(key);
      contextProblems(record, bare, options, (f) => add(entry, f));
      if (!hasErrors(entry)) {
        // The schema changes no value it checks: the record kept is the catalog's, as a later build reads an entry it found sound.
        const read = asRead(rec as Record<string, unknown>);
        const { datasetVersion } = parsed.data;
        keep({ entry, wrapped: { record: read, datasetVersion }, record: read, text: entry.text, datasetVersion, datasetVersionFrom: 'record', bare }, key);
      }
    },
    finish() {
      // Across records: the first occurrence keeps its place, every later one is reported with a pointer back.
      const byId = new Map<string, ValidEntry>();
      const bySlug = new Map<string, ValidEntry>();
      // Pages live in /{owner}/{name}/: two spellings of one owner or repository would be two folders on
      // a case-sensitive disk and one on a case-insensitive disk or host, so every record spells them alike.
      const spelling = new Map<string, ValidEntry>();
      for (const c of candidates) {
        const owner = c.record.repo.slice(0, c.record.repo.indexOf('/'));
        const firstOwner = spelling.get(owner.toLowerCase());
        const firstRepo = spelling.get(c.record.repo.toLowerCase());
        const repoDiffers = firstRepo !== undefined && firstRepo.record.repo !== c.record.repo;
        const ownerDiffers = firstOwner !== undefined && !firstOwner.record.repo.startsWith(`${owner}/`);
        const other = repoDiffers ? firstRepo : ownerDiffers ? firstOwner : null;
        if (other) {
          const what = repoDiffers ? `repository "${c.record.repo}"` : `owner "${owner}"`;
          add(c.entry, {
            field: c.bare ? 'repo' : 'record.repo',
            code: 'repo-case',
            message: `spells ${what} differently from "${other.record.repo}" in the record at ${other.entry.file}:${other.entry.line}; URLs that differ only in case collide on case-insensitive disks and hosts: spell it the same in every record`,
          });
          continue;
        }
        if (!firstOwner) spelling.set(owner.toLowerCase(), c);
        if (!firstRepo) spelling.set(c.record.repo.toLowerCase(), c);
      }
      for (const c of candidates) {
        const idField = c.bare ? 'id' : 'record.id';
        const firstId = byId.get(c.record.id);
        if (firstId)
          add(c.entry, {
            field: idField,
            code: 'duplicate-id',
            message: `duplicates id ${c.record.id} of the record at ${firstId.entry.file}:${firstId.entry.line}`,
          });
        else byId.set(c.record.id, c);
        const slugKey = `${c.record.repo.toLowerCase()}/${c.record.slug}`;
        const firstSlug = bySlug.get(slugKey);
        if (firstSlug) {
          add(c.entry, {
            field: c.bare ? 'slug' : 'record.slug',
            code: 'duplicate-slug',
            message: `duplicates slug "${c.record.slug}" in ${c.record.repo} of the record at ${firstSlug.entry.file}:${firstSlug.entry.line}; pages would collide`,
          });
        } else bySlug.set(slugKey, c);
      }
      // A duplicate taints both sides' pages, but only the later one is rejected: the first stays valid.
      const valid = candidates.filter((c) => !hasErrors(c.entry));
      datasetVersionsOfBareRecords(valid, options.buildDatasetVersion ?? buildDatasetVersion({}));
      for (const { bare: _, ...c } of valid) result.valid.push(c);
      for (const [entry, problems] of perEntry) {
        const errors = problems.filter((p) => p.severity !== 'warning');
        if (errors.length > 0) result.invalid.push({ entry, problems });
        result.problems.push(...errors);
        result.warnings.push(...problems.filter((p) => p.severity === 'warning'));
      }
      return result;
    },
  };
}

/**
 * Drops a valid entry's code and prose but its documentation, and the parsed value it was read from
 * (`lean`), in place: its record is its wrapped form's record, and nothing else holds either.
 */
function makeLean(c: ValidEntry): void {
  dropCode(c.record);
  // The documentation stays: the lean snapshot keeps it (src/catalog/snapshot.ts).
  dropProse(c.record, true);
  // The value is read again only to name a record rejected across records (src/catalog/catalog.ts).
  c.entry.value = { record: { id: c.record.id } };
}

/**
 * An entry an earlier run found sound alone, read as its record without checking it again: the
 * record as every process after validation reads it from the snapshot (readTwin).
 */
function knownSound(entry: RawEntry): ValidEntry & { bare: boolean } {
  const obj = withoutNotes(entry.value as Record<string, unknown>);
  const bare = isBareRecord(obj);
  const record = asRead(withoutNotes((bare ? obj : obj.record) as Record<string, unknown>));
  const datasetVersion = bare ? PENDING_VERSION : (obj.datasetVersion as string);
  return { entry, wrapped: { record, datasetVersion }, record, text: entry.text, datasetVersion, datasetVersionFrom: 'record', bare };
}

/**
 * A valid record as every process after validation reads it from its text (readTwin): its fields in
 * the catalog's order (the lean snapshot is written from it: src/catalog/snapshot.ts), a failure class
 * left out null.
 */
const asRead = (raw: Record<string, unknown>): ErrorRecord => (raw.backgroundTag === undefined ? { ...raw, backgroundTag: null } : raw) as unknown as ErrorRecord;

/** The checks of a valid record that read more than its text: the failure classes the catalog defines, the owners errdex reserves. */
function contextProblems(record: ErrorRecord, bare: boolean, options: ValidateOptions, add: (f: Finding) => void): void {
  const named = (path: string) => (bare ? path.replace(/^record\./, '') : path);
  const owner = record.repo.slice(0, record.repo.indexOf('/'));
  if (RESERVED_OWNERS.has(owner.toLowerCase())) {
    add({ field: named('record.repo'), code: 'reserved-owner', message: `owner "${owner}" is a folder errdex itself uses (${[...RESERVED_OWNERS].join(', ')}); its pages would collide` });
  }
  if (record.backgroundTag !== null && options.classIds && !options.classIds.has(record.backgroundTag)) {
    const where = options.classesFile ? `which ${options.classesFile} does not define` : 'but the catalog has no classes.json defining failure classes';
    add({ field: named('record.backgroundTag'), code: 'unknown-class', message: `names failure class "${record.backgroundTag}", ${where}` });
  }
}

/** A bare record's dataset version: the newest of its file's wrapped records, else of the catalog's, else the build's. */
function datasetVersionsOfBareRecords(valid: (ValidEntry & { bare: boolean })[], build: string): void {
  const newest = (a: string | undefined, b: string) => (a === undefined || b > a ? b : a);
  const byFile = new Map<string, string>();
  let catalog: string | undefined;
  for (const c of valid) {
    if (c.bare) continue;
    byFile.set(c.entry.file, newest(byFile.get(c.entry.file), c.datasetVersion));
    catalog = newest(catalog, c.datasetVersion);
  }
  for (const c of valid) {
    if (!c.bare) continue;
    const file = byFile.get(c.entry.file);
    const [version, from] = file !== undefined ? [file, 'file' as const] : catalog !== undefined ? [catalog, 'catalog' as const] : [build, 'build' as const];
    c.datasetVersion = version;
    c.datasetVersionFrom = from;
    c.wrapped = { ...c.wrapped, datasetVersion: version };
    c.text = wrappedTwin(c.entry.text, version, from);
    delete c.textHash;
  }
}
