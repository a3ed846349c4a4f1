/** A problem found in a catalog, placed as precisely as the input allows. */
export interface Problem {
  /** Path of the file, as given or relative to the working directory. */
  file: string;
  /** 1-based line: the record's line in a `.jsonl` file, the field's line in a `.json` file. */
  line: number;
  /** Dotted field path such as `record.sourceCode`, or `(file)` for problems with the file itself. */
  field: string;
  message: string;
  /**
   * error: the page would be wrong, unsafe or unreachable, so the record is not built. warning: the page
   * can be built truthfully, showing what is uncertain. Errors when not given.
   */
  severity?: Severity;
  /** What kind of check found it, for machines (CI annotations, the report file): `json`, `schema`, `span`, ... */
  code?: string;
}

export type Severity = 'error' | 'warning';

/**
 * A key as one step of a field path: as it is when it reads as one (`tags`), else quoted as JSON
 * (`""`, `"a.b"`, `"two words"`), and cut short when long, so a path stays readable and one line.
 */
export function keyInPath(key: string): string {
  const shown = key.length > 60 ? `${key.slice(0, 60)}…` : key;
  return /^[\w$-]+$/.test(key) ? shown : JSON.stringify(shown);
}

export const FILE_LEVEL = '(file)';

/** `file:line  field.path  what is wrong` — one line per problem; a warning says so. */
export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}  ${p.field}  ${p.severity === 'warning' ? 'warning: ' : ''}${oneLine(p.message)}`;
}

export function compareProblems(a: Problem, b: Problem): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.field < b.field ? -1 : a.field > b.field ? 1 : 0);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The report: every problem, errors and warnings, in file order, then the counts, errors and warnings apart. */
export function formatReport(problems: Problem[], recordCount: number, invalidCount: number, fileCount?: number): string {
  const records = plural(recordCount, 'record');
  if (problems.length === 0) return `No problems in ${records}${fileCount === undefined ? '' : ` (${plural(fileCount, 'file')})`}.`;
  const files = ` (${plural(new Set(problems.map((p) => p.file)).size, 'file')})`;
  const errors = problems.filter((p) => p.severity !== 'warning').length;
  const warnings = problems.length - errors;
  const lines = [...problems].sort(compareProblems).map(formatProblem);
  const counts = [errors > 0 || warnings === 0 ? `${plural(errors, 'error')} in ${invalidCount} of ${records}` : `No errors in ${records}`];
  if (warnings > 0) counts.push(plural(warnings, 'warning'));
  lines.push('', `${counts.join('; ')}${files}.`);
  return lines.join('\n');
}

/** Keeps a report line on one terminal line whatever a record contains (newlines, control characters). */
function oneLine(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
