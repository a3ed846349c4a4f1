/**
 * The build's settings: the command line's flags (scripts/build.ts parses them) and the environment
 * variables a user sets, read here and nowhere else in the build. Site settings (name, URL, base
 * path) are errdex.config.mjs's; the catalog folder is ERRDEX_DATA (src/catalog/load.ts).
 */
import { resolve } from 'node:path';
import { catalogPath } from '../catalog/load.ts';
import { buildCacheDir } from '../highlight/cache.ts';
import type { HostBudget } from './hosts.ts';
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
  maxIndexFiles: number | undefined;
  host: HostBudget | null;
}

/** A positive whole number from the environment, or null when unset (a wrong value is an error, not the default). */
function positive(env: NodeJS.ProcessEnv, name: string): number | null {
  const text = env[name];
  if (text === undefined || text.trim() === '') return null;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a whole number of at least 1; got ${JSON.stringify(text)}.`);
  return n;
}

/** ERRDEX_WORKERS, ERRDEX_PARTITION_RECORDS, ERRDEX_EARLY_HIGHLIGHT_BYTES (src/build/plan.ts). */
export function planSettings(env: NodeJS.ProcessEnv = process.env): PlanSettings {
  return {
    workers: positive(env, 'ERRDEX_WORKERS'),
    partitionRecords: positive(env, 'ERRDEX_PARTITION_RECORDS'),
    earlyHighlightBytes: positive(env, 'ERRDEX_EARLY_HIGHLIGHT_BYTES'),
  };
}

export function buildSettings(flags: BuildFlags, env: NodeJS.ProcessEnv = process.env): BuildSettings {
  return {
    catalog: catalogPath(env),
    outDir: resolve(env.ERRDEX_DIST || 'dist'),
    cacheDir: buildCacheDir(env),
    skipReport: flags.skipReport,
    strict: flags.strict,
    useCache: !flags.noCache,
    updateLedger: !flags.noLedgerUpdate,
    maxFragments: flags.maxFragments,
    maxIndexFiles: flags.maxIndexFiles,
    host: flags.host,
    reportFile: flags.report === null ? null : resolve(flags.report),
    plan: planSettings(env),
  };
}
