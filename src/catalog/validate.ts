/**
 * Validate: raw entries -> valid records + one list of every problem.
 * Per record: the zod schema, then the cross-field checks. Across records: unique ids and
 * unique (repo, slug) pairs, and failure classes that exist. Nothing is dropped without a Problem.
 */
import type { z } from 'astro/zod';
import { SCHEMA_VERSION, wrappedRecordSchema, type ErrorRecord, type WrappedRecord } from '../schema/record.ts';
import { githubUrlProblems, recordProblems, sourceSpanProblems, type FieldProblem } from '../schema/record-checks.ts';
import { RESERVED_OWNERS } from '../lib/urls.ts';
import { lineOfPath, locateJson, mayHaveDuplicateKeys } from './json-locate.ts';
import type { RawEntry } from './load.ts';
import type { Problem } from './problems.ts';

export interface ValidEntry {
  entry: RawEntry;
  wrapped: WrappedRecord;
  record: ErrorRecord;
}

export interface ValidationResult {
  valid: ValidEntry[];
  /** Entries rejected, each with all its problems (for the --skip-invalid report). */
  invalid: { entry: RawEntry; problems: Problem[] }[];
  problems: Problem[];
}

export interface ValidateOptions {
  /** Ids of the failure classes the catalog defines; when given, `backgroundTag` must be one of them. */
  classIds?: ReadonlySet<string>;
  /** The classes file as shown in reports, or null when the catalog has none (named in the problem). */
  classesFile?: string | null;
}

const RECORD_FIELDS = Object.keys(wrappedRecordSchema.shape.record.shape);

function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

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
          field: field ? `${field}.${key}` : key,
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

export function validateEntries(entries: RawEntry[], options: ValidateOptions = {}): ValidationResult {
  const result: ValidationResult = { valid: [], invalid: [], problems: [] };
  const perEntry = new Map<RawEntry, Problem[]>();
  const fieldLines = new WeakMap<RawEntry, Map<string, number> | null>();
  const lineOf = (entry: RawEntry, path: string): number => {
    if (entry.isJsonl) return entry.line;
    if (!fieldLines.has(entry)) {
      const loc = locateJson(entry.text);
      fieldLines.set(entry, loc.ok ? loc.lines : null);
    }
    return lineOfPath(fieldLines.get(entry) ?? null, path, entry.line);
  };
  const add = (entry: RawEntry, field: string, message: string, line = lineOf(entry, field)) => {
    const p: Problem = { file: entry.file, line, field, message };
    let list = perEntry.get(entry);
    if (!list) perEntry.set(entry, (list = []));
    list.push(p);
  };

  const candidates: ValidEntry[] = [];
  for (const entry of entries) {
    const v = entry.value;
    if (Array.isArray(v) && !entry.isJsonl) {
      add(entry, '(record)', `must be one wrapped record {"record": {...}, "datasetVersion": "..."}; got an array of ${v.length} items. Put several records in a .jsonl file, one per line`);
      continue;
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      add(entry, '(record)', `must be a wrapped record {"record": {...}, "datasetVersion": "..."}; got ${describeValue(v)}`);
      continue;
    }
    // JSON.parse keeps the last of two equal keys without a word: the page would show one value, a reviewer may read the other.
    if (mayHaveDuplicateKeys(entry.text, v)) {
      const loc = locateJson(entry.text);
      for (const d of loc.ok ? loc.duplicates : []) {
        const message = `is given twice${entry.isJsonl ? '' : ` (first on line ${d.firstLine})`}; JSON keeps only the last value, so one of them would silently vanish`;
        add(entry, d.path, message, entry.isJsonl ? entry.line : d.line);
      }
    }
    const obj = v as Record<string, unknown>;
    if (!('record' in obj)) {
      const bare = 'id' in obj && 'errorMessage' in obj;
      add(entry, 'record', bare
        ? 'is missing: this is a bare record; wrap it as {"record": {...}, "datasetVersion": "..."}'
        : 'is missing: the wrapper must be {"record": {...}, "datasetVersion": "..."}');
      continue;
    }
    // A record of another schema version would fail field by field; say the one thing that matters.
    const rec = obj.record as Record<string, unknown> | null;
    if (rec && typeof rec === 'object' && 'schemaVersion' in rec && rec.schemaVersion !== SCHEMA_VERSION) {
      add(entry, 'record.schemaVersion', `unsupported schema version ${JSON.stringify(rec.schemaVersion)}; this build reads schemaVersion ${SCHEMA_VERSION}`);
      continue;
    }
    const parsed = wrappedRecordSchema.safeParse(v);
    if (!parsed.success) {
      const badFields = new Set<string>();
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'record' && issue.path.length > 1) badFields.add(String(issue.path[1]));
        for (const d of describeIssue(issue, v)) add(entry, d.field, d.message);
      }
      // The cross-field checks still run where the fields they read are sound, so one pass reports everything.
      if (rec && typeof rec === 'object' && !Array.isArray(rec)) {
        for (const p of crossFieldProblems(rec as unknown as ErrorRecord, badFields)) add(entry, `record.${p.field}`, p.message);
      }
      continue;
    }
    const record = parsed.data.record;
    for (const p of recordProblems(record)) add(entry, `record.${p.field}`, p.message);
    const owner = record.repo.slice(0, record.repo.indexOf('/'));
    if (RESERVED_OWNERS.has(owner.toLowerCase())) {
      add(entry, 'record.repo', `owner "${owner}" is a folder errdex itself uses (${[...RESERVED_OWNERS].join(', ')}); its pages would collide`);
    }
    if (record.backgroundTag !== null && options.classIds && !options.classIds.has(record.backgroundTag)) {
      const where = options.classesFile ? `which ${options.classesFile} does not define` : 'but the catalog has no classes.json defining failure classes';
      add(entry, 'record.backgroundTag', `names failure class "${record.backgroundTag}", ${where}`);
    }
    if (!perEntry.has(entry)) candidates.push({ entry, wrapped: parsed.data, record });
  }

  // Across records: the first occurrence keeps its place, every later one is reported with a pointer back.
  const byId = new Map<string, ValidEntry>();
  const bySlug = new Map<string, ValidEntry>();
  for (const c of candidates) {
    const firstId = byId.get(c.record.id);
    if (firstId) add(c.entry, 'record.id', `duplicates id ${c.record.id} of the record at ${firstId.entry.file}:${firstId.entry.line}`);
    else byId.set(c.record.id, c);
    const slugKey = `${c.record.repo.toLowerCase()}/${c.record.slug}`;
    const firstSlug = bySlug.get(slugKey);
    if (firstSlug) {
      add(c.entry, 'record.slug', `duplicates slug "${c.record.slug}" in ${c.record.repo} of the record at ${firstSlug.entry.file}:${firstSlug.entry.line}; pages would collide`);
    } else bySlug.set(slugKey, c);
  }
  // A duplicate taints both sides' pages, but only the later one is rejected: the first stays valid.
  for (const c of candidates) if (!perEntry.has(c.entry)) result.valid.push(c);
  for (const [entry, problems] of perEntry) {
    result.invalid.push({ entry, problems });
    result.problems.push(...problems);
  }
  return result;
}
