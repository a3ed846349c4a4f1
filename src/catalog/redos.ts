/**
 * How a record's `messagePattern` behaves on a backtracking engine (JavaScript, Python, PCRE), for
 * consumers of the JSON API who run patterns there. errdex itself matches on RE2 in linear time
 * (src/schema/pattern.ts), so this is never a reason to reject a record: a vulnerable pattern is a
 * warning in the report and `redos` in `/api/errors.json`.
 *
 * The analysis is recheck's (a maintained ReDoS checker: automata theory plus fuzzing). It costs up to
 * a second per pattern, so each verdict is cached on disk in the build cache, keyed by the checker's
 * version and settings, and each run analyses new patterns for at most a time budget: a pattern not
 * analysed yet is `unchecked` and gets its turn in the next run.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildCacheDir } from '../highlight/cache.ts';
import type { CatalogEntry } from './catalog.ts';
import type { Problem } from './problems.ts';

/** `safe`: linear (or better) on a backtracking engine; `polynomial`/`exponential`: an input exists that takes that long; `unknown`: the checker gave up; `unchecked`: not analysed yet. */
export type Backtracking = 'safe' | 'polynomial' | 'exponential' | 'unknown' | 'unchecked';

export interface PatternVerdict {
  backtracking: Backtracking;
  /** recheck's summary, e.g. `2nd degree polynomial`, for the report. */
  summary?: string;
}

/** Per pattern: a second at most, so that one hard pattern cannot hold the build. */
const PARAMS = { timeout: 1000 } as const;
const RECHECK_VERSION = (createRequire(import.meta.url)('recheck/package.json') as { version: string }).version;
const CACHE_KEY = `recheck ${RECHECK_VERSION} ${JSON.stringify(PARAMS)}`;

export const redosCacheFile = (env: NodeJS.ProcessEnv = process.env): string => join(buildCacheDir(env), 'redos.json');

/** The cached verdicts (empty when there are none, or they are of another checker version or settings). */
export function readVerdicts(file: string = redosCacheFile()): Map<string, PatternVerdict> {
  if (!existsSync(file)) return new Map();
  try {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as { key?: string; verdicts?: Record<string, PatternVerdict> };
    return cached.key === CACHE_KEY && cached.verdicts ? new Map(Object.entries(cached.verdicts)) : new Map();
  } catch {
    return new Map(); // a damaged cache is only work to do again
  }
}

function writeVerdicts(file: string, verdicts: ReadonlyMap<string, PatternVerdict>): void {
  mkdirSync(dirname(file), { recursive: true });
  const sorted = Object.fromEntries([...verdicts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ key: CACHE_KEY, verdicts: sorted })}\n`);
  renameSync(`${file}.tmp`, file);
}

export interface AnalysisOptions {
  /** Wall-clock milliseconds this run may spend on patterns not in the cache. */
  budgetMs: number;
  cacheFile?: string;
  /** Checks run at once (default 1: the checker keeps a core busy, and builds share the machine). */
  concurrency?: number;
}

/** The verdict of every pattern: cached, analysed now within the budget, or `unchecked`. */
export async function analysePatterns(patterns: Iterable<string>, options: AnalysisOptions): Promise<{ verdicts: Map<string, PatternVerdict>; analysed: number; unchecked: number }> {
  const file = options.cacheFile ?? redosCacheFile();
  const verdicts = readVerdicts(file);
  const todo = [...new Set(patterns)].filter((p) => !verdicts.has(p));
  let analysed = 0;
  if (todo.length > 0 && options.budgetMs > 0) {
    const { check } = await import('recheck');
    const deadline = performance.now() + options.budgetMs;
    // The checker's first run starts it (a process, or a compiled module): alone, it would time out the first pattern.
    await check('a', '', PARAMS);
    let next = 0;
    const worker = async () => {
      while (next < todo.length && performance.now() < deadline) {
        const pattern = todo[next++]!;
        const d = await check(pattern, '', PARAMS);
        verdicts.set(pattern, d.status === 'vulnerable' ? { backtracking: d.complexity.type, summary: d.complexity.summary } : { backtracking: d.status === 'safe' ? 'safe' : 'unknown' });
        analysed++;
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 1 }, worker));
    writeVerdicts(file, verdicts);
  }
  const all = new Map<string, PatternVerdict>();
  let unchecked = 0;
  for (const p of new Set(patterns)) {
    const v = verdicts.get(p);
    if (!v) unchecked++;
    all.set(p, v ?? { backtracking: 'unchecked' });
  }
  return { verdicts: all, analysed, unchecked };
}

/** The warning for a pattern a backtracking engine may take long on; null when it is not known to. */
export function backtrackingWarning(v: PatternVerdict): string | null {
  if (v.backtracking !== 'polynomial' && v.backtracking !== 'exponential') return null;
  return (
    `may take ${v.summary ?? v.backtracking} time on a backtracking engine (JavaScript, Python, PCRE), by recheck's analysis; ` +
    'errdex matches it on RE2 in linear time, and /api/errors.json flags it for consumers who do not'
  );
}

/** Seconds a run may spend analysing new patterns: ERRDEX_REDOS_SECONDS (a user setting), else 10. */
export function redosBudgetMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.ERRDEX_REDOS_SECONDS);
  return (env.ERRDEX_REDOS_SECONDS && Number.isFinite(seconds) && seconds >= 0 ? seconds : 10) * 1000;
}

/**
 * Analyses the valid records' patterns (within the budget) and adds a warning for each record whose
 * pattern a backtracking engine may take long on. Returns what the run did, for the summary.
 */
export async function addBacktrackingWarnings(
  catalog: { entries: readonly CatalogEntry[]; warnings: Problem[] },
  budgetMs: number = redosBudgetMs(),
): Promise<{ analysed: number; unchecked: number; flagged: number }> {
  const { verdicts, analysed, unchecked } = await analysePatterns(catalog.entries.map((e) => e.record.messagePattern), { budgetMs });
  let flagged = 0;
  for (const e of catalog.entries) {
    const message = backtrackingWarning(verdicts.get(e.record.messagePattern)!);
    if (!message) continue;
    flagged++;
    // A bare record (it has datasetVersionFrom) names its fields without `record.`.
    const field = e.datasetVersionFrom ? 'messagePattern' : 'record.messagePattern';
    catalog.warnings.push({ file: e.origin.file, line: e.origin.line, field, message, code: 'redos', severity: 'warning' });
  }
  return { analysed, unchecked, flagged };
}
