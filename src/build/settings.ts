/**
 * The build's settings: the command line's flags (scripts/build.ts parses them) and the environment
 * variables a user sets, read here and nowhere else in the build. Site settings (name, URL, base
 * path, report URL) are errdex.config.mjs's, the catalog folder is ERRDEX_DATA (src/catalog/load.ts):
 * all of them are checked here, at the start, so that a wrong one stops the build before any work,
 * with every problem listed, each naming its variable. URLs are http(s) URLs that parse, folders
 * exist (or can be made), numbers are whole and in range, names are one plain line.
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { catalogPath } from '../catalog/load.ts';
import type { Shard } from '../catalog/shard.ts';
import { buildCacheDir } from '../highlight/cache.ts';
import { buildDatasetVersion } from '../catalog/validate.ts';
import type { HostBudget } from './hosts.ts';
import { isInteractive } from './progress.ts';
import type { PlanSettings } from './plan.ts';
import type { BuildSettings } from './state.ts';

export interface BuildFlags {
  /** --skip-invalid[=FILE]: the skipped records' report file, or null. */
  skipReport: string | null;
  strict: boolean;
  noCache: boolean;
  noLedgerUpdate: boolean;
  report: string | null;
  maxFragments: number | undefined;
  /** --max-index-files; --host, --host-limit, --trim-redirects (src/build/hosts.ts). */
  maxIndexFiles?: number | undefined;
  host?: HostBudget | null;
  /** --shard i/n and --out: build one shard into its own folder (src/catalog/shard.ts). */
  shard?: Shard | null;
  out?: string | null;
}

/** ERRDEX_WORKERS, ERRDEX_PARTITION_RECORDS, ERRDEX_EARLY_HIGHLIGHT_BYTES (src/build/plan.ts); throws on a wrong value. */
export function planSettings(env: NodeJS.ProcessEnv): PlanSettings {
  const number = (name: keyof typeof NUMBERS) => {
    const n = wholeNumber(env, name, NUMBERS[name]);
    if (typeof n === 'string') throw new Error(n);
    return n;
  };
  return { workers: number('ERRDEX_WORKERS'), partitionRecords: number('ERRDEX_PARTITION_RECORDS'), earlyHighlightBytes: number('ERRDEX_EARLY_HIGHLIGHT_BYTES') };
}

/**
 * Every setting checked (settingProblems), then read; throws one Error that lists every problem.
 * `env` is the environment the entry (scripts/build.ts) was started with: no module below reads its own.
 */
export function buildSettings(flags: BuildFlags, env: NodeJS.ProcessEnv, stdout: { isTTY?: boolean } = {}): BuildSettings {
  const problems = settingProblems(env);
  if (problems.length > 0) {
    throw new Error(`${problems.length === 1 ? 'A setting is' : `${problems.length} settings are`} wrong:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return {
    catalog: catalogPath(env),
    outDir: resolve(flags.out || (flags.shard ? shardFolder(flags.shard) : env.ERRDEX_DIST || 'dist')),
    cacheDir: buildCacheDir(env),
    skipReport: flags.skipReport,
    strict: flags.strict,
    useCache: !flags.noCache,
    updateLedger: !flags.noLedgerUpdate,
    maxFragments: flags.maxFragments,
    maxIndexFiles: flags.maxIndexFiles,
    host: flags.host ?? null,
    reportFile: flags.report === null ? null : resolve(flags.report),
    plan: planSettings(env),
    pagefindPartRecords: (wholeNumber(env, 'ERRDEX_PAGEFIND_PART_RECORDS', NUMBERS.ERRDEX_PAGEFIND_PART_RECORDS) as number | null) ?? undefined,
    datasetVersion: buildDatasetVersion(env),
    interactive: isInteractive(stdout, env),
    env,
    shard: flags.shard ?? null,
  };
}

/** Where a shard's build goes without --out: `shard-2-of-4`. */
export const shardFolder = (shard: Shard): string => `shard-${shard.index + 1}-of-${shard.count}`;


/** A whole number from the environment within [min, max], null when unset, or the problem as a sentence. */
export function wholeNumber(env: NodeJS.ProcessEnv, name: string, range: { min: number; max: number }): number | null | string {
  const text = env[name];
  if (text === undefined || text.trim() === '') return null;
  const n = Number(text);
  if (!Number.isInteger(n) || n < range.min || n > range.max) {
    const bound = range.max === Number.MAX_SAFE_INTEGER ? `of at least ${range.min}` : `from ${range.min} to ${range.max.toLocaleString('en-US')}`;
    return `${name} must be a whole number ${bound}; got ${JSON.stringify(text)}.`;
  }
  return n;
}

/** The whole-number settings and their ranges. */
const NUMBERS = {
  ERRDEX_WORKERS: { min: 1, max: 1024 },
  ERRDEX_PARTITION_RECORDS: { min: 1, max: 10_000_000 },
  ERRDEX_EARLY_HIGHLIGHT_BYTES: { min: 1, max: Number.MAX_SAFE_INTEGER },
  ERRDEX_PAGEFIND_PART_RECORDS: { min: 1, max: 10_000_000 },
  SOURCE_DATE_EPOCH: { min: 0, max: 253_402_300_799 }, // seconds; up to the year 9999
} as const satisfies Record<string, { min: number; max: number }>;

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** An absolute http: or https: URL that parses, without credentials; `origin`: nothing after the host. */
function urlProblem(name: string, text: string, origin: boolean): string | null {
  const shown = JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
  if (CONTROL.test(text) || /\s/.test(text)) return `${name} must be a URL without spaces or control characters; got ${shown}.`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${name} must be an absolute URL such as https://example.org${origin ? '' : '/path'}; got ${shown}, which is not a URL.`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${name} must be an https: or http: URL; got ${shown} (${url.protocol}).`;
  if (url.username || url.password) return `${name} must not hold a user name or password; got ${shown}.`;
  if (origin && (url.pathname !== '/' || url.search || url.hash)) {
    return `${name} must be an origin such as https://example.org, with nothing after the host; got ${shown} (a path goes in ERRDEX_BASE_PATH).`;
  }
  return null;
}

/** A folder setting: when it exists, a folder; when not, its parent exists (the build makes it). */
function folderProblem(name: string, text: string | undefined, fallback: string, mustExist: boolean): string | null {
  const value = text && text.trim() !== '' ? text : fallback;
  const path = resolve(value);
  const label = text && text.trim() !== '' ? name : `${name} (unset: ${fallback})`;
  try {
    const st = statSync(path);
    if (mustExist) return st.isDirectory() || st.isFile() ? null : `${label}: ${path} is neither a folder nor a file.`;
    return st.isDirectory() ? null : `${label}: ${path} exists and is not a folder.`;
  } catch {
    if (mustExist) return `${label}: ${path} does not exist.`;
    // Made with its missing parents (mkdir -p): the nearest one that exists must be a folder.
    for (let up = dirname(path); ; up = dirname(up)) {
      try {
        return statSync(up).isDirectory() ? null : `${label}: ${path} cannot be made: ${up} is not a folder.`;
      } catch {
        if (dirname(up) === up) return `${label}: ${path} cannot be made.`;
      }
    }
  }
}

/** Every problem with the build's environment, each naming its variable; [] when all is well. */
export function settingProblems(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  const add = (p: string | null) => {
    if (p) problems.push(p);
  };
  add(folderProblem('ERRDEX_DATA', env.ERRDEX_DATA, 'data', true));
  add(folderProblem('ERRDEX_DIST', env.ERRDEX_DIST, 'dist', false));
  add(folderProblem('ERRDEX_CACHE_DIR', env.ERRDEX_CACHE_DIR, '.errdex/cache', false));
  for (const [name, range] of Object.entries(NUMBERS)) {
    const n = wholeNumber(env, name, range);
    if (typeof n === 'string') problems.push(n);
  }
  if (env.ERRDEX_SITE_URL) add(urlProblem('ERRDEX_SITE_URL', env.ERRDEX_SITE_URL, true));
  if (env.ERRDEX_REPORT_URL) add(urlProblem('ERRDEX_REPORT_URL', env.ERRDEX_REPORT_URL, false));
  const base = env.ERRDEX_BASE_PATH;
  if (base) {
    const segments = base.replace(/^\/+|\/+$/g, '').split('/');
    if (CONTROL.test(base) || !segments.every((s) => /^[A-Za-z0-9._~-]+$/.test(s) && s !== '.' && s !== '..')) {
      problems.push(`ERRDEX_BASE_PATH must be a path such as /errdex: segments of letters, digits, ".", "_", "~" and "-", no "." or ".."; got ${JSON.stringify(base)}.`);
    }
  }
  const name = env.ERRDEX_SITE_NAME;
  if (name !== undefined && name !== '' && (CONTROL.test(name) || name.trim() === '' || name.length > 100)) {
    problems.push(`ERRDEX_SITE_NAME must be one line of at most 100 characters, not only spaces; got ${JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name)}.`);
  }
  return problems;
}
