/**
 * Failure classes: `classes.json` in the catalog folder (beside the file, for a one-file catalog).
 * Every problem is placed on its line, like record problems.
 */
import { failureClassSchema, type FailureClass } from '../schema/failure-class.ts';
import { lineOfPath, locateJson, parseJson } from './json-locate.ts';
import { catalogFolder, displayPath, pathTaken, readCatalogOwnFile } from './load.ts';
import { FILE_LEVEL, type Problem } from './problems.ts';
import { describeIssue } from './validate.ts';
import { join } from 'node:path';

export const CLASSES_FILE = 'classes.json';

export interface LoadedClasses {
  /** The file, as shown in reports; null when the catalog has none. */
  file: string | null;
  classes: FailureClass[];
}

/** Reads and checks classes.json; problems are appended to `problems`. */
export function loadClasses(root: string, problems: Problem[]): LoadedClasses {
  const path = join(catalogFolder(root), CLASSES_FILE);
  if (!pathTaken(path)) return { file: null, classes: [] };
  const file = displayPath(path);
  const read = readCatalogOwnFile(path);
  if (!read.ok) {
    problems.push(read.problem);
    return { file, classes: [] };
  }
  const found = classProblems(read.text, file);
  problems.push(...found.problems);
  return { file, classes: found.classes };
}

/** The classes in a classes.json text, and every problem with its line. Pure: for tests. */
export function classProblems(text: string, file: string): { classes: FailureClass[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const parsed = parseJson(text, file);
  if (!parsed.ok) return { classes: [], problems: [parsed.problem] };
  const value = parsed.value;
  const loc = locateJson(text);
  // The file is an array, so json-locate names its items `.0`, `.1`, …
  const lineOf = (path: string): number => lineOfPath(loc.ok ? loc.lines : null, path, 1, '.');
  if (!Array.isArray(value)) {
    return { classes: [], problems: [{ file, line: 1, field: FILE_LEVEL, message: 'must be an array of failure classes [{"id", "title", "summary", "explanation"}, ...]' }] };
  }
  // Each class is checked on its own: a broken one does not hide the others (nor their records' problems).
  const classes: FailureClass[] = [];
  const seen = new Map<string, { index: number; line: number }>();
  for (const [i, item] of value.entries()) {
    const parsed = failureClassSchema.safeParse(item);
    for (const issue of parsed.error?.issues ?? []) {
      const field = [i, ...issue.path].map(String).join('.');
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          problems.push({ file, line: lineOf(`${field}.${key}`), field: `${field}.${key}`, message: 'is not a field of a failure class (id, title, summary, explanation)' });
        }
      } else if (issue.code === 'invalid_type' && issue.path.length === 0) {
        problems.push({ file, line: lineOf(field), field, message: 'must be an object {"id", "title", "summary", "explanation"}' });
      } else {
        for (const d of describeIssue({ ...issue, path: [i, ...issue.path] }, value)) problems.push({ file, line: lineOf(d.field), field: d.field, message: d.message });
      }
    }
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') continue;
    const line = lineOf(`${i}.id`);
    const first = seen.get(id);
    if (first !== undefined) problems.push({ file, line, field: `${i}.id`, message: `duplicates class id "${id}" of class ${first.index} (line ${first.line})` });
    else {
      seen.set(id, { index: i, line });
      if (parsed.success) classes.push(parsed.data);
    }
  }
  return { classes, problems };
}
