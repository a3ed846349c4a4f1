/**
 * Checks across the fields of one record, run after the schema accepted its shape.
 * Each returns problems as (field, message) so the validator can place them in the file.
 */
import { countLines, githubUrlShapeProblem, truncate } from './field-checks.ts';
import type { ErrorRecord } from './record.ts';

export interface FieldProblem {
  /** Path below `record`, e.g. `sourceCode`. */
  field: string;
  message: string;
  /** The kind of check, for machines: `span`, `github-url`. */
  code: string;
  /** A warning: the page can still be shown truthfully (see excerpt.ts). An error when not given. */
  severity?: 'warning';
}

/** `sourceCode` has exactly end - start + 1 lines, and `lineNumber` lies inside the span. */
export function sourceSpanProblems(r: ErrorRecord): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const { sourceCode, sourceCodeStart: start, sourceCodeEnd: end, lineNumber } = r;
  if (sourceCode === null) {
    if (start !== null || end !== null) {
      problems.push({ field: 'sourceCode', code: 'span', message: 'is null but sourceCodeStart/sourceCodeEnd are set; give the excerpt or set all three to null' });
    }
    return problems;
  }
  if (start === null || end === null) {
    problems.push({
      field: start === null ? 'sourceCodeStart' : 'sourceCodeEnd',
      code: 'span',
      message: 'is null but sourceCode is set; the excerpt needs its first and last line numbers',
    });
    return problems;
  }
  if (end < start) {
    problems.push({ field: 'sourceCodeEnd', code: 'span', message: `is ${end}, before sourceCodeStart ${start}` });
    return problems;
  }
  const expected = end - start + 1;
  const actual = countLines(sourceCode);
  if (actual !== expected) {
    // The page can still show the excerpt, numbered from sourceCodeStart and marked as unverified.
    problems.push({
      field: 'sourceCode',
      code: 'span',
      severity: 'warning',
      message: `has ${actual} lines, expected ${expected} (sourceCodeEnd ${end} - sourceCodeStart ${start} + 1); its page numbers it from line ${start} and says the numbering is unverified`,
    });
  }
  if (lineNumber !== null && (lineNumber < start || lineNumber > end)) {
    problems.push({ field: 'lineNumber', code: 'span', message: `is ${lineNumber}, outside the excerpt's lines ${start}-${end}` });
  }
  return problems;
}

/** The permalink errdex expects: https://github.com/{repo}/blob/{sha}/{path}, optionally #Ln or #Ln-Lm. */
export function githubUrlProblems(r: ErrorRecord): FieldProblem[] {
  const expectedBase = `https://github.com/${r.repo}/blob/${r.analyzedSha}/`;
  const shape = githubUrlShapeProblem(r.githubUrl);
  if (shape) return [{ field: 'githubUrl', code: 'github-url', message: shape }];
  const url = new URL(r.githubUrl);
  const parts = url.pathname.split('/');
  // ['', owner, name, 'blob', sha, ...path]
  const [, owner, name, blob, sha, ...pathParts] = parts;
  if (`${owner}/${name}`.toLowerCase() !== r.repo.toLowerCase()) {
    return [{ field: 'githubUrl', code: 'github-url', message: `points at repository ${owner}/${name}, not ${r.repo}` }];
  }
  if (blob !== 'blob' || sha !== r.analyzedSha) {
    return [{ field: 'githubUrl', code: 'github-url', message: `must be pinned to analyzedSha: expected ${expectedBase}...; got ${JSON.stringify(truncate(r.githubUrl))}` }];
  }
  let path: string;
  try {
    path = pathParts.map(decodeURIComponent).join('/');
  } catch {
    return [{ field: 'githubUrl', code: 'github-url', message: 'has a malformed percent-encoding in its path' }];
  }
  if (path !== r.filePath) {
    return [{ field: 'githubUrl', code: 'github-url', message: `points at file ${JSON.stringify(truncate(path))}, not filePath ${JSON.stringify(truncate(r.filePath))}` }];
  }
  if (url.search || (url.hash && !/^#L\d+(-L\d+)?$/.test(url.hash))) {
    return [{ field: 'githubUrl', code: 'github-url', message: `may only end in a line anchor such as #L12 or #L10-L20; got ${JSON.stringify(truncate(url.search + url.hash))}` }];
  }
  return [];
}

export function recordProblems(r: ErrorRecord): FieldProblem[] {
  return [...sourceSpanProblems(r), ...githubUrlProblems(r)];
}
