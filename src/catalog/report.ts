/**
 * What validation found, told three ways: a summary line that always says how many records were
 * read, built and skipped (and why) and how many warnings there are; a machine-readable report file;
 * and GitHub Actions annotations, so that CI marks each problem on its line.
 */
import type { Catalog } from './catalog.ts';
import { compareProblems, formatProblem, type Problem, type Severity } from './problems.ts';

/** One problem as the report file and CI read it. */
export interface ReportedProblem {
  file: string;
  line: number;
  field: string;
  code: string;
  message: string;
  severity: Severity;
}

export const reported = (p: Problem): ReportedProblem => ({
  file: p.file,
  line: p.line,
  field: p.field,
  code: p.code ?? (p.field === '(file)' ? 'file' : 'schema'),
  message: p.message,
  severity: p.severity ?? 'error',
});

const count = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** `1,705 records read: 1,701 built, 4 skipped (schema 3, json 1), 2 warnings (span 2)`. */
export function summaryLine(catalog: Pick<Catalog, 'total' | 'entries' | 'problems' | 'warnings'>): string {
  const byCode = (problems: readonly Problem[]) => {
    const counts = new Map<string, number>();
    for (const p of problems) counts.set(reported(p).code, (counts.get(reported(p).code) ?? 0) + 1);
    return counts.size === 0 ? '' : ` (${[...counts].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ${n}`).join(', ')})`;
  };
  const skipped = catalog.total - catalog.entries.length;
  return (
    `${count(catalog.total, 'record')} read: ${catalog.entries.length.toLocaleString('en-US')} built, ` +
    `${skipped.toLocaleString('en-US')} skipped${byCode(catalog.problems)}, ${count(catalog.warnings.length, 'warning')}${byCode(catalog.warnings)}`
  );
}

/** The report file: the summary, every problem (errors and warnings) as fields, and each skipped record with its text. */
export function reportFileText(catalog: Catalog, catalogName: string): string {
  const problems = [...catalog.problems, ...catalog.warnings].sort(compareProblems).map(reported);
  return `${JSON.stringify(
    {
      catalog: catalogName,
      summary: summaryLine(catalog),
      counts: {
        read: catalog.total,
        built: catalog.entries.length,
        skipped: catalog.total - catalog.entries.length,
        errors: catalog.problems.length,
        warnings: catalog.warnings.length,
      },
      problems,
      skipped: catalog.skipped.map((s) => ({ file: s.file, line: s.line, id: s.id, reasons: s.problems.map(formatProblem), record: s.text })),
    },
    null,
    2,
  )}\n`;
}

/** GitHub Actions' workflow-command escaping: a value, and a property (which also escapes `:` and `,`). */
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One `::error file=…,line=…,title=…::message` line per problem (`::warning` for a warning). */
export function githubAnnotations(problems: readonly Problem[]): string {
  return [...problems]
    .sort(compareProblems)
    .map((p) => {
      const r = reported(p);
      return `::${r.severity} file=${escapeProperty(r.file)},line=${r.line},title=${escapeProperty(`${r.code}: ${r.field}`)}::${escapeData(`${r.field} ${r.message}`)}`;
    })
    .join('\n');
}
