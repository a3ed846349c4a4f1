/** A problem found in a catalog, placed as precisely as the input allows. */
export interface Problem {
  /** Path of the file, as given or relative to the working directory. */
  file: string;
  /** 1-based line: the record's line in a `.jsonl` file, the field's line in a `.json` file. */
  line: number;
  /** Dotted field path such as `record.sourceCode`, or `(file)` for problems with the file itself. */
  field: string;
  message: string;
}

export const FILE_LEVEL = '(file)';

/** `file:line  field.path  what is wrong` — one line per problem, sorted the way the files read. */
export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}  ${p.field}  ${oneLine(p.message)}`;
}

export function compareProblems(a: Problem, b: Problem): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.field < b.field ? -1 : a.field > b.field ? 1 : 0);
}

export function formatReport(problems: Problem[], recordCount: number, invalidCount: number, fileCount?: number): string {
  const records = `${recordCount} record${recordCount === 1 ? '' : 's'}`;
  if (problems.length === 0) return `No problems in ${records}${fileCount === undefined ? '' : ` (${fileCount} file${fileCount === 1 ? '' : 's'})`}.`;
  const sorted = [...problems].sort(compareProblems);
  const files = new Set(problems.map((p) => p.file)).size;
  const lines = sorted.map(formatProblem);
  lines.push(
    '',
    `${problems.length} problem${problems.length === 1 ? '' : 's'} in ${invalidCount} of ${recordCount} record${recordCount === 1 ? '' : 's'} ` +
      `(${files} file${files === 1 ? '' : 's'}).`,
  );
  return lines.join('\n');
}

/** Keeps a report line on one terminal line whatever a record contains (newlines, control characters). */
function oneLine(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
