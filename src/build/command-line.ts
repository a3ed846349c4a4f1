/**
 * The build's command line, read once for `npm run build` (scripts/build.ts) and `npm run merge`
 * (scripts/merge.ts), which takes the build's options and the shards' folders: the flags checked,
 * then the settings (src/build/settings.ts). A wrong flag or setting is a message and exit code 2.
 */
import { enableCompileCache } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseShard, type Shard } from '../catalog/shard.ts';
import { parseHostBudget, parseMaxIndexFiles } from './hosts.ts';
import { parseMaxFragments } from './pagefind-bundle.ts';
import { buildSettings } from './settings.ts';
import type { BuildSettings } from './state.ts';

export type CommandLine = { help: true } | { help: false; settings: BuildSettings; positionals: string[] };

/** Thrown with what is wrong on the command line (exit 2). */
export class UsageError extends Error {}

/**
 * Reads `argv` (the arguments after the command); `merge`: the shards' folders come as positionals and
 * `--shard` is not taken. The environment is read here, once, and handed down.
 */
export function readCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv, stdout: { isTTY?: boolean }, mode: 'build' | 'merge'): CommandLine {
  // `--skip-invalid` may stand alone: parseArgs wants a value for a string option.
  const args = argv.map((a) => (a === '--skip-invalid' ? '--skip-invalid=skipped-records.json' : a));
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      strict: true,
      allowPositionals: mode === 'merge',
      options: {
        'skip-invalid': { type: 'string' },
        strict: { type: 'boolean', default: false },
        'no-cache': { type: 'boolean', default: false },
        report: { type: 'string' },
        'no-ledger-update': { type: 'boolean', default: false },
        'max-fragments': { type: 'string' },
        'max-index-files': { type: 'string' },
        host: { type: 'string' },
        'host-limit': { type: 'string', multiple: true },
        'trim-redirects': { type: 'boolean', default: false },
        'wait-for-lock': { type: 'boolean', default: false },
        'allow-mass-removal': { type: 'boolean', default: false },
        out: { type: 'string' },
        ...(mode === 'build' ? { shard: { type: 'string' } } : {}),
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (e) {
    // "Option '--x <value>' argument missing" (last) or "… is ambiguous" (an option follows): said as the others are.
    const missing = /^Option '(--[\w-]+)(?: <value>)?' argument (?:missing|is ambiguous)/.exec((e as Error).message);
    throw new UsageError(missing ? `${missing[1]} needs a value` : (e as Error).message);
  }
  if (values.help) return { help: true };
  let shard: Shard | null = null;
  if (typeof values.shard === 'string') {
    const parsed = parseShard(values.shard);
    if (typeof parsed === 'string') throw new UsageError(parsed);
    shard = parsed;
  }
  if (mode === 'build' && values.out !== undefined && !shard) throw new UsageError('--out goes with --shard (the site goes to ERRDEX_DIST)');
  if (mode === 'merge' && values['no-cache']) throw new UsageError('--no-cache would leave out what the shards made: a merge builds from them');
  if (mode === 'merge' && positionals.length === 0) throw new UsageError('name the shards’ folders: npm run merge -- shard-1-of-4 shard-2-of-4 …');
  try {
    const maxFragments = parseMaxFragments(values['max-fragments'] ?? undefined);
    const maxIndexFiles = parseMaxIndexFiles(values['max-index-files']);
    const host = parseHostBudget(values.host, values['host-limit'] ?? [], values['trim-redirects']);
    const flags = {
      skipReport: values['skip-invalid'] ?? null,
      strict: values.strict,
      noCache: values['no-cache'],
      noLedgerUpdate: values['no-ledger-update'],
      report: values.report ?? null,
      maxFragments,
      maxIndexFiles,
      host,
      shard,
      out: values.out ?? null,
    };
    const settings = { ...buildSettings(flags, env, stdout), waitForLock: values['wait-for-lock'], allowMassRemoval: values['allow-mass-removal'] };
    return { help: false, settings, positionals };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/**
 * Each of the build's processes strips the types of the same modules and compiles them: kept in the
 * build cache (Node's compile cache, by content), a child process after the first build starts without
 * that work, a second or so of CPU each. Returns the folder, which the entry hands its children in
 * NODE_COMPILE_CACHE, as Node documents.
 */
export function useCompileCache(cacheDir: string): string | undefined {
  return enableCompileCache(join(cacheDir, 'node')).directory;
}
