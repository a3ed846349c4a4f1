/**
 * How a record's `messagePattern` behaves on a backtracking engine (JavaScript, Python, PCRE), for
 * consumers of the JSON API who run patterns there. errdex itself matches on RE2 in linear time
 * (src/schema/pattern.ts), so this is never a reason to reject a record: a vulnerable pattern is a
 * warning in the report and `redos` in `/api/errors.json`.
 *
 * The analysis is recheck's automata-theory checker, with size limits and no clock: a verdict depends
 * only on the pattern and the checker's version and settings, never on machine speed or load. It costs
 * up to seconds per pattern, so it is an explicit step (`npm run validate -- --redos`) that writes the
 * catalog's `redos.json`; the build reads that file as one of its inputs and analyses nothing, so the
 * site stays a function of its inputs and the build pays nothing for it. A pattern the file does not
 * hold is `unchecked`. Each verdict is also memoised per pattern in the build cache (keyed by the
 * checker's version and settings), so a new run analyses only the patterns it has not seen.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { CatalogEntry } from './catalog.ts';
import { catalogFolder } from './load.ts';
import type { Problem } from './problems.ts';
import { writeFileAtomic } from '../util/files.ts';

/**
 * `safe`: linear (or better) on a backtracking engine; `polynomial`/`exponential`: an input exists that
 * takes that long; `unknown`: the pattern exceeds the checker's size limits, so it was not decided;
 * `unchecked`: not in the catalog's redos.json (run `npm run validate -- --redos`).
 */
export type Backtracking = 'safe' | 'polynomial' | 'exponential' | 'unknown' | 'unchecked';

export interface PatternVerdict {
  backtracking: Backtracking;
  /** recheck's summary, e.g. `2nd degree polynomial`, for the report. */
  summary?: string;
}

/**
 * recheck's `auto` checker applies the size limits (`checker: 'automaton'` ignores them and may run
 * for minutes); a pattern over a limit falls to its fuzzer, which is here given nothing to do (no
 * generations, no iterations) and whose answer is read as `unknown`. No setting is a wall-clock time:
 * `timeout` and the fuzzer's timeouts are null, and recall validation (which runs the attack against
 * the clock) is off.
 */
export const RECHECK_PARAMS = {
  checker: 'auto',
  timeout: null,
  maxPatternSize: 1500,
  maxNFASize: 10000,
  maxRepeatCount: 30,
  recallTimeout: -1,
  maxInitialGenerationSize: 0,
  maxIteration: 0,
  randomSeed: 0,
  seedingTimeout: null,
  incubationTimeout: null,
  attackTimeout: null,
} as const;
const RECHECK_VERSION = (createRequire(import.meta.url)('recheck/package.json') as { version: string }).version;
/** What a verdict depends on besides the pattern. */
export const CHECKER_KEY = `recheck ${RECHECK_VERSION} ${JSON.stringify(RECHECK_PARAMS)}`;

export const REDOS_FILE = 'redos.json';
/** The memo of verdicts in the build cache folder. */
export const redosCacheFile = (cacheDir: string): string => join(cacheDir, REDOS_FILE);
/** The catalog's verdicts file, beside its url-ledger.json. */
export const redosFile = (catalogRoot: string): string => join(catalogFolder(catalogRoot), REDOS_FILE);

/** The verdicts in a file (empty when there is none, or it is of another checker version or settings). */
export function readVerdicts(file: string): Map<string, PatternVerdict> {
  if (!existsSync(file)) return new Map();
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { checker?: string; verdicts?: Record<string, PatternVerdict> };
    return saved.checker === CHECKER_KEY && saved.verdicts ? new Map(Object.entries(saved.verdicts)) : new Map();
  } catch {
    return new Map();
  }
}

/** Sorted by pattern, one per line: the same verdicts always give the same bytes, and diffs stay small. */
export function writeVerdicts(file: string, verdicts: ReadonlyMap<string, PatternVerdict>): void {
  mkdirSync(dirname(file), { recursive: true });
  const lines = [...verdicts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([p, v]) => `${JSON.stringify(p)}:${JSON.stringify(v)}`);
  writeFileAtomic(file, `{"checker":${JSON.stringify(CHECKER_KEY)},"verdicts":{\n${lines.join(',\n')}\n}}\n`);
}

type Diagnostics = Awaited<ReturnType<typeof import('recheck').check>>;

/** recheck's answer as a verdict: the fuzzer's (a pattern over a size limit) is `unknown`. */
export function verdictOf(d: Diagnostics): PatternVerdict {
  if (d.checker !== 'automaton') return { backtracking: 'unknown' };
  if (d.status === 'vulnerable') return { backtracking: d.complexity.type, summary: d.complexity.summary };
  return { backtracking: d.status === 'safe' ? 'safe' : 'unknown' };
}

export interface AnalysisOptions {
  /** The memo of verdicts already computed: redos.json in the build cache (redosCacheFile). */
  cacheFile: string;
  /** Called after each pattern analysed, for progress. */
  onVerdict?: (done: number, todo: number) => void;
}

/** The verdict of every pattern: memoised, or analysed now. Returns how many were analysed now. */
export async function analysePatterns(patterns: Iterable<string>, options: AnalysisOptions): Promise<{ verdicts: Map<string, PatternVerdict>; analysed: number }> {
  const file = options.cacheFile;
  const memo = readVerdicts(file);
  const distinct = [...new Set(patterns)];
  const todo = distinct.filter((p) => !memo.has(p));
  if (todo.length > 0) {
    const { check } = await import('recheck');
    for (const [i, pattern] of todo.entries()) {
      memo.set(pattern, verdictOf(await check(pattern, '', RECHECK_PARAMS)));
      options.onVerdict?.(i + 1, todo.length);
      // Saved as it goes: an interrupted run keeps what it did.
      if ((i + 1) % 50 === 0) writeVerdicts(file, memo);
    }
    writeVerdicts(file, memo);
  }
  return { verdicts: new Map(distinct.map((p) => [p, memo.get(p)!])), analysed: todo.length };
}

/** The warning for a pattern a backtracking engine may take long on; null when it is not known to. */
export function backtrackingWarning(v: PatternVerdict): string | null {
  if (v.backtracking !== 'polynomial' && v.backtracking !== 'exponential') return null;
  return (
    `may take ${v.summary ?? v.backtracking} time on a backtracking engine (JavaScript, Python, PCRE), by recheck's analysis; ` +
    'errdex matches it on RE2 in linear time, and /api/errors.json flags it for consumers who do not'
  );
}

/** Each pattern's verdict from the catalog's redos.json; `unchecked` when the file does not hold it. */
export function catalogVerdict(verdicts: ReadonlyMap<string, PatternVerdict>, pattern: string): PatternVerdict {
  return verdicts.get(pattern) ?? { backtracking: 'unchecked' };
}

/**
 * Adds a warning for each valid record whose pattern a backtracking engine may take long on, by the
 * given verdicts (the catalog's redos.json). Returns how many patterns have no verdict, and how many
 * records were flagged, for the summary.
 */
export function addBacktrackingWarnings(
  catalog: { entries: readonly CatalogEntry[]; warnings: Problem[] },
  verdicts: ReadonlyMap<string, PatternVerdict>,
): { unchecked: number; flagged: number } {
  let flagged = 0;
  const unchecked = new Set<string>();
  for (const e of catalog.entries) {
    const v = catalogVerdict(verdicts, e.record.messagePattern);
    if (v.backtracking === 'unchecked') unchecked.add(e.record.messagePattern);
    const message = backtrackingWarning(v);
    if (!message) continue;
    flagged++;
    // A bare record (it has datasetVersionFrom) names its fields without `record.`.
    const field = e.datasetVersionFrom ? 'messagePattern' : 'record.messagePattern';
    catalog.warnings.push({ file: e.origin.file, line: e.origin.line, field, message, code: 'redos', severity: 'warning' });
  }
  return { unchecked: unchecked.size, flagged };
}
